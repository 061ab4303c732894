"""Workspace-level commands: leaderboards, stats, seasons, settings and word lists.

:class:`Workspace` answers ``leaderboard``, ``stats``, ``season``, ``config`` and
``words`` over the workspace's data, and gives games the workspace's word lists and
option defaults. The settings themselves are declared once, with their defaults, in
:mod:`bot.features.workspace_settings` (:data:`WORKSPACE_SETTINGS`, importable from here too);
a game option's workspace default is set as ``<game>.<option>``
(``config race.cards 5``). The ``language`` setting is the default of every
game that has a ``language`` option (``config race.language`` and the
player's own ``language=`` win over it). Only admins change anything;
adapters decide who is an admin (Discord: Manage Server or the configured
role; Slack: workspace admins or the configured user group).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

from bot.core import views
from bot.core.commands import CommandError, option_names, parse_leaderboard
from bot.core.events import ChatKey, Command, Player
from bot.core.registry import Registry
from bot.features import rated
from bot.features.season_answers import points_text
from bot.features.workspace_settings import (
    NO_ROLE,
    WORKSPACE_SETTINGS,
    AdminRoles,
    describe_setting,
    language_name,
    setting_values,
    validate_setting,
)
from games.common.languages import ASCII_LETTERS, LANGUAGES, Language, language
from games.common.options import OptionValue, format_value
from games.common.protocol import GameInfo
from games.common.speech import N_, _, _n
from storage.browse import browse_of
from storage.errors import StorageError

if TYPE_CHECKING:
    from storage.base import Store

# (the names other modules import from here, from before the split)
__all__ = ["EVERY_LETTER", "VOTED_BY", "Workspace", "mentioned_user"]

#: The action id of the link button to a workspace's web pages (a link: moji ignores its presses).
BROWSE_LINK = "moji-link:browse"

#: Who added a word the players voted in (the word list's "added by").
VOTED_BY = "vote"

_MENTION = re.compile(r"^<@!?([A-Za-z0-9]+)(?:\|[^>]*)?>$")

#: How a workspace's own words are kept: with every playing language's letters (``äpfel``,
#: ``niño``; ß as ss, other accents dropped), so a game folds each to its own letters at start
#: (``äpfel`` is ``apfel`` to an English game, ``äpfel`` to a German one).
EVERY_LETTER = Language(
    "*",
    "every language",
    ASCII_LETTERS + "".join(sorted({ch for lang in LANGUAGES.values() for ch in lang.extra_letters})),
)


def mentioned_user(text: str) -> str | None:
    """The user id in a mention (``<@123>``, ``<@!123>``, ``<@U1|ann>``), if it is one."""
    match = _MENTION.match(text.strip())
    return match.group(1) if match else None


class Workspace:
    """Per-workspace data behind the commands; ``store=None`` keeps nothing."""

    def __init__(self, store: Store | None, registry: Registry | None = None) -> None:
        self.store = store
        self.registry = registry
        #: platform → how it names the admin role (set by the adapter; see :class:`AdminRoles`)
        self.admin_roles: dict[str, AdminRoles] = {}
        #: The base of the web pages' links (``PUBLIC_URL``) when this process serves them
        #: (:func:`adapters.web.browse.browse_for`); '' for none: no link is offered.
        self.web_url = ""

    def _need_store(self) -> Store:
        if self.store is None:
            raise CommandError(_("This bot runs without a database, so nothing is kept between games."))
        return self.store

    async def seen(self, chat: ChatKey, player: Player) -> None:
        """Keep the workspace and the player's display name fresh."""
        if self.store is not None:
            await self.store.upsert_workspace(chat.platform, chat.workspace_id)
            await self.store.upsert_player(player.platform, player.user_id, player.display_name)

    async def word_lists(self, chat: ChatKey, lang: str = "en") -> tuple[frozenset[str], frozenset[str]]:
        """The workspace's (added, banned) words, spelled with the letters of language ``lang``
        (the game's: a German game keeps ``äpfel``, an English one reads ``apfel``)."""
        if self.store is None:
            return frozenset(), frozenset()
        added, banned = await self.store.word_lists(chat.platform, chat.workspace_id)
        fold = language(lang).fold

        def spelled(words: set[str]) -> frozenset[str]:
            return frozenset(w for w in (fold(word, multiword=True) for word in words) if w)

        return spelled(added), spelled(banned)

    async def keep_voted(self, chat: ChatKey, words: Sequence[str]) -> list[str]:
        """Put answers the players voted in on the workspace's list; returns the words now on it.

        A word an admin banned meanwhile stays banned (a vote never lifts a ban); with no
        database nothing is kept and the answer is empty.
        """
        if self.store is None or not words:
            return []
        added, banned = await self.store.word_lists(chat.platform, chat.workspace_id)
        kept: list[str] = []
        now = datetime.now(UTC)
        for word in dict.fromkeys(words):
            if word in banned:
                continue
            if word not in added:
                await self.store.add_word(chat.platform, chat.workspace_id, word, VOTED_BY, now)
            kept.append(word)
        return kept

    async def settings(self, chat: ChatKey) -> dict[str, OptionValue]:
        """Every workspace setting, with defaults filled in."""
        raw: Mapping[str, str] = {}
        if self.store is not None:
            raw = await self.store.get_settings(chat.platform, chat.workspace_id)
        return setting_values(raw)

    async def game_defaults(self, chat: ChatKey, info: GameInfo) -> list[str]:
        """The workspace's default option tokens for a new game of ``info`` (``cards=5``…): its
        ``<game>.<option>`` settings and, for a game with a ``language`` option, the workspace's
        ``language`` setting unless ``<game>.language`` is set. One token per option."""
        if self.store is None:
            return []
        raw = await self.store.get_settings(chat.platform, chat.workspace_id)
        prefix = info.name + "."
        tokens: dict[str, str] = {}
        for key, value in sorted(raw.items()):
            if key.startswith(prefix):
                option = key[len(prefix) :]
                name = next(iter(option_names(info, [option])), option)
                # one per option: one kept under its own name wins over one an older moji kept
                # under an alias (`race.lang`)
                if option == name or name not in tokens:
                    tokens[name] = f"{option}={value}"
        spec = next((spec for spec in info.options if spec.name == "language"), None)
        if spec is not None and "language" not in tokens:
            chosen = setting_values(raw)["language"]
            if chosen != spec.default:
                tokens["language"] = f"language={chosen}"
        return list(tokens.values())

    # ------------------------------------------------------------ commands

    async def leaderboard(self, cmd: Command, args: Sequence[str], registry: Registry) -> views.View:
        """``leaderboard [game] [period] [language=CODE]``: without a language, games of every
        language count together. ``leaderboard [game] rating`` ranks by rating instead
        (:func:`bot.features.rated.board`)."""
        store = self._need_store()
        if rated.wants_rating(args):
            settings = await self.settings(cmd.chat)
            view = await rated.board(store, cmd.chat, args, registry, settings)
            rated_game, rated_lang = rated.game_language(registry, args, settings)
            query = urlencode({"by": "rating", "game": rated_game, "lang": rated_lang})
            return await self.web_link(cmd.chat, view, "?" + query)
        game, period, lang = parse_leaderboard(args, registry)
        rows = await store.leaderboard(
            cmd.chat.platform, cmd.chat.workspace_id, game, period, datetime.now(UTC), 10, language=lang
        )
        which = _(registry.get(game).title) if game else _("all games")
        title = _(LEADERBOARD_TITLES[period], game=which)
        if lang is not None:
            title = _("{leaderboard}, in {language}", leaderboard=title, language=language_name(lang))
        query = "?" + urlencode({"game": game or "", "period": period, "lang": lang or ""})
        if not rows:
            view = views.View(
                kind="leaderboard", title=title, lines=(_("No games finished yet. `start` one!"),)
            )
            return await self.web_link(cmd.chat, view, query)
        lines = [
            rated.ranked_line(
                row.rank,
                views.user(row.display_name),
                points_text(row.points),
                rated.games_wins(row.games, row.wins),
                _("best {word}", word=views.user(row.best_word.upper())) if row.best_word else "",
            )
            for row in rows
        ]
        view = views.View(kind="leaderboard", title=title, lines=tuple(lines))
        return await self.web_link(cmd.chat, view, query)

    async def stats(self, cmd: Command, args: Sequence[str]) -> views.View:
        """``stats [player] [game]``: the caller's or a mentioned player's record, with their ratings
        (of one game only, in more detail, when a game is named)."""
        store = self._need_store()
        user_id, name = cmd.player.user_id, views.user(cmd.player.display_name)
        game: str | None = None
        for arg in args:
            found = mentioned_user(arg)
            info = self.registry.find(arg) if self.registry is not None and found is None else None
            if info is not None:
                game = info.name
            elif found is None:
                raise CommandError(
                    _("Name the player with a mention, like `stats @ann` (or `stats @ann race`).")
                )
            else:
                # the mention rebuilt from its id alone (letters and digits): a label typed in it is not shown
                user_id, name = found, f"<@{found}>"
        stats = await store.player_stats(cmd.chat.platform, cmd.chat.workspace_id, user_id)
        if stats is None:
            return views.message(_("{name} hasn't finished a game here yet.", name=name), "info")
        lines = [
            " · ".join(
                (
                    *rated.games_wins(stats.games, stats.wins),
                    _n("{count} point", "{count} points", stats.points),
                )
            )
        ]
        if stats.best_word:
            lines.append(_("Best word: {word}", word=views.user(stats.best_word.upper())))
        skills = await store.player_ratings(cmd.chat.platform, cmd.chat.workspace_id, user_id)
        lines += rated.stats_lines(skills, self.registry, game)
        shown = views.user(stats.display_name) if stats.display_name else name
        view = views.View(kind="info", title=f"📊 {shown}", lines=tuple(lines))
        return await self.web_link(cmd.chat, view, "p/" + quote(user_id, safe=""))

    async def web_link(self, chat: ChatKey, view: views.View, path: str) -> views.View:
        """``view`` with a link button to ``path`` of the workspace's web pages (docs/WEB.md,
        "Browsing"), when its web is on and this process serves the pages; else ``view``."""
        browse = browse_of(self.store)
        if not self.web_url or browse is None:
            return view
        try:
            token = await browse.token(chat.platform, chat.workspace_id)
        except StorageError:  # the answer matters more than its link
            return view
        if token is None:
            return view
        url = f"{self.web_url.rstrip('/')}/w/{token}/{path}"
        return replace(
            view, buttons=(*view.buttons, views.ButtonSpec(BROWSE_LINK, _("Open on the web"), url=url))
        )

    async def season(self, cmd: Command, args: Sequence[str]) -> views.View:
        """``season`` lists seasons, ``season N`` shows one, ``season reset`` starts the next and
        ``season rebuild`` recomputes every rating (admins): :func:`bot.features.season_answers.answer`."""
        from bot.features import season_answers

        return await season_answers.answer(self._need_store(), self.registry, cmd, args)

    async def config(self, cmd: Command, args: Sequence[str]) -> views.View:
        """``config`` shows settings; ``config KEY VALUE`` changes one (admins)."""
        store = self._need_store()
        if not args:
            values = await self.settings(cmd.chat)
            raw = await store.get_settings(cmd.chat.platform, cmd.chat.workspace_id)
            roles = self.admin_roles.get(cmd.chat.platform)
            shown = {spec.name: format_value(values[spec.name]) for spec in WORKSPACE_SETTINGS}
            shown = {name: views.user(value) if value else "" for name, value in shown.items()}
            if roles is not None and values["admin-role"]:
                shown["admin-role"] = roles.show(format_value(values["admin-role"]))
            lines = [
                _(
                    "{setting} = {value} — {help}",
                    setting=spec.name,
                    value=shown[spec.name],
                    help=describe_setting(spec),
                )
                for spec in WORKSPACE_SETTINGS
            ]
            lines += [
                _("{setting} = {value}", setting=key, value=views.user(value))
                for key, value in sorted(raw.items())
                if "." in key
            ]
            lines.append(_("Change one with `config KEY VALUE`; game defaults with `config race.cards 5`."))
            return views.View(kind="info", title=_("⚙️ Workspace settings"), lines=tuple(lines))
        if not cmd.player.is_admin:
            raise CommandError(_("Only workspace admins can change settings."))
        if len(args) < 2:
            raise CommandError(_("Give a value too, like `config timezone Europe/Paris`."))
        key, stored = self._validate_setting(args[0].lower(), " ".join(args[1:]))
        roles = self.admin_roles.get(cmd.chat.platform)
        if key == "admin-role" and stored.lower() in NO_ROLE:
            stored = ""
        elif key == "admin-role" and roles is not None:
            stored = await roles.resolve(cmd.chat, stored)
        await store.set_setting(cmd.chat.platform, cmd.chat.workspace_id, key, stored, cmd.player.user_id)
        if key == "web":
            return await self._web(cmd.chat, stored == "on")
        if key == "admin-role":
            if not stored:
                return views.message(
                    _("Setting admin-role is now cleared: only workspace admins configure moji."), "info"
                )
            role = roles.show(stored) if roles is not None else views.user(stored)
            return views.message(
                _("Setting admin-role is now {role}: its members may configure moji.", role=role), "info"
            )
        if key == "language":
            return views.message(
                _(
                    "Setting language is now {code}: moji speaks {language} here, and games with a "
                    "language option start in {language} unless `start … language=` says otherwise.",
                    code=stored,
                    language=language_name(stored),
                ),
                "info",
            )
        return views.message(_("Setting {key} is now {value}.", key=key, value=views.user(stored)), "info")

    async def _web(self, chat: ChatKey, on: bool) -> views.View:
        """``config web on|off``: mint the workspace's pages' private address, or forget it (every
        page of the old address then answers 404; on again makes a new one)."""
        browse = browse_of(self.store)
        if browse is None:
            raise CommandError(_("This bot's database keeps no web pages."))
        if not on:
            await browse.turn_off(chat.platform, chat.workspace_id)
            return views.message(
                _(
                    "Setting web is now off: this workspace's web pages are gone (their address answers "
                    "“not found”). Turning it on again makes a new address."
                ),
                "info",
            )
        await browse.turn_on(chat.platform, chat.workspace_id, datetime.now(UTC).timestamp())
        if not self.web_url:
            return views.message(
                _(
                    "Setting web is now on. The pages need a public address: whoever runs moji sets "
                    "{variable} ({doc}), then `leaderboard` and `stats` carry their link.",
                    variable="PUBLIC_URL",
                    doc="docs/WEB.md",
                ),
                "info",
            )
        view = views.message(
            _(
                "Setting web is now on: this workspace's leaderboards, player pages and replays are on "
                "the web, at an address only this workspace's `leaderboard` and `stats` give. "
                "`config web off` takes them down (and on again makes a new address)."
            ),
            "info",
        )
        return await self.web_link(chat, view, "")

    def _validate_setting(self, key: str, value: str) -> tuple[str, str]:
        """The setting's own name and the value to store (:func:`validate_setting`)."""
        return validate_setting(self.registry, key, value)

    async def words(self, cmd: Command, args: Sequence[str]) -> views.View:
        """``words`` lists; ``words add|ban|remove WORD`` changes (admins)."""
        store = self._need_store()
        if not args:
            added, banned = await store.word_lists(cmd.chat.platform, cmd.chat.workspace_id)
            return views.View(
                kind="info",
                title=_("📖 This workspace's words"),
                lines=(
                    _("Added: {words}", words=", ".join(map(views.user, sorted(added))) or _("none")),
                    _("Banned: {words}", words=", ".join(map(views.user, sorted(banned))) or _("none")),
                ),
            )
        verb = args[0].lower()
        if verb not in {"add", "ban", "remove"}:
            raise CommandError(_("Use `words add WORD`, `words ban WORD` or `words remove WORD`."))
        if not cmd.player.is_admin:
            raise CommandError(_("Only workspace admins can change the word list."))
        word = EVERY_LETTER.fold(" ".join(args[1:]), multiword=True) if len(args) > 1 else None
        if word is None:
            raise CommandError(
                _(
                    "Give a word of letters (accents are fine; a title or a name may have several), "
                    "like `words add selfie`."
                )
            )
        now = datetime.now(UTC)
        method: Any = {"add": store.add_word, "ban": store.ban_word, "remove": store.remove_word}[verb]
        await method(cmd.chat.platform, cmd.chat.workspace_id, word, cmd.player.user_id, now)
        done = {
            "add": N_("“{word}” is now allowed in this workspace."),
            "ban": N_("“{word}” is now banned in this workspace."),
            "remove": N_("“{word}” is back to the dictionary's verdict in this workspace."),
        }
        return views.message(_(done[verb], word=views.user(word)), "info")


#: The title of a leaderboard of each period.
LEADERBOARD_TITLES = {
    "day": N_("🏆 Leaderboard — {game}, today"),
    "week": N_("🏆 Leaderboard — {game}, this week"),
    "month": N_("🏆 Leaderboard — {game}, this month"),
    "season": N_("🏆 Leaderboard — {game}, this season"),
    "all": N_("🏆 Leaderboard — {game}, all time"),
}
