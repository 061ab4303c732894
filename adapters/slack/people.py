"""Who is who: display names and admin rights, cached per workspace.

Slack events carry only user ids; names come from ``users.info`` (cached), with the person's
locale (``include_locale``: ``de-DE``), the language of what they alone read (docs/LANGUAGES.md):
one call tells both, so a person costs one ``users.info`` per ``ttl`` whatever moji says to them.
A person may configure moji when they are a workspace admin or owner, or a
member of the user group named by the workspace's ``admin-role`` setting
(``config admin-role @moji-admins`` or the group's id ``S…``).

Answers are cached for ``ttl`` seconds, except where a command changes or deletes something
for everyone (see :mod:`bot.inbound.rights`): then ``fresh`` asks Slack again, so a demoted admin
loses those rights at once.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.core.clock import Clock
from bot.core.events import Player

log = logging.getLogger(__name__)

PLATFORM = "slack"
_SUBTEAM = re.compile(r"^<!subteam\^([A-Z0-9]+)(?:\|[^>]*)?>$")


@dataclass(frozen=True, slots=True)
class Person:
    """A cached user: name, whether Slack calls them an admin, and their locale (None: unknown)."""

    name: str
    admin: bool
    fetched_at: float
    locale: str | None = None


class Directory:
    """Names and admin checks, cached for ``ttl`` seconds."""

    def __init__(
        self,
        client_for: Callable[[str], Awaitable[AsyncWebClient]],
        admin_group: Callable[[str], Awaitable[str]],
        clock: Clock,
        *,
        ttl: float = 600.0,
    ) -> None:
        self.client_for = client_for
        self.admin_group = admin_group
        self.clock = clock
        self.ttl = ttl
        self._people: dict[tuple[str, str], Person] = {}
        self._groups: dict[tuple[str, str], tuple[frozenset[str], float]] = {}

    def remember(self, team: str, user: str, name: str) -> None:
        """Seed the cache with a name a payload already gave (not an admin check)."""
        if (team, user) not in self._people and name:
            self._people[(team, user)] = Person(name, False, float("-inf"))

    def forget(self, team: str, user: str) -> None:
        """Drop what is cached about a person who asked moji to forget them."""
        self._people.pop((team, user), None)

    def forget_team(self, team: str) -> None:
        """Drop everything cached about a workspace whose data was purged."""
        self._people = {key: person for key, person in self._people.items() if key[0] != team}
        self._groups = {key: group for key, group in self._groups.items() if key[0] != team}

    async def person(self, team: str, user: str, *, fresh: bool = False) -> Person:
        """The user's name and admin flag (from cache when recent, unless ``fresh``)."""
        now = self.clock.now()
        cached = self._people.get((team, user))
        if cached is not None and now - cached.fetched_at < self.ttl and not fresh:
            return cached
        try:
            client = await self.client_for(team)
            response = await client.users_info(user=user, include_locale=True)
            info = response["user"] or {}
            profile = info.get("profile") or {}
            name = (
                profile.get("display_name")
                or profile.get("real_name")
                or info.get("real_name")
                or info.get("name")
                or user
            )
            locale = info.get("locale")
            person = Person(
                str(name),
                bool(info.get("is_admin") or info.get("is_owner")),
                now,
                str(locale) if isinstance(locale, str) and locale else None,
            )
        except SlackApiError as exc:
            log.warning("users.info %s failed: %s", user, exc.response.get("error"))
            person = Person(cached.name if cached else user, False, now, cached.locale if cached else None)
        self._people[(team, user)] = person
        return person

    async def player(self, team: str, user: str, *, check_admin: bool = False, fresh: bool = False) -> Player:
        """A neutral :class:`Player`; ``check_admin`` also asks the admin user group, and
        ``fresh`` asks Slack again instead of trusting a cached answer."""
        person = await self.person(team, user, fresh=fresh)
        admin = person.admin
        if check_admin and not admin:
            admin = await self._in_admin_group(team, user, fresh=fresh)
        return Player(PLATFORM, user, person.name, is_admin=admin, locale=person.locale)

    def known_locale(self, team: str, user: str) -> str | None:
        """The person's locale as last looked up (no call to Slack), None when not known."""
        cached = self._people.get((team, user))
        return cached.locale if cached is not None else None

    async def is_admin(self, team: str, user: str, *, fresh: bool = False) -> bool:
        """Whether ``user`` is a workspace admin or owner, or in the workspace's admin user group
        (``fresh``: ask Slack again instead of trusting a cached answer)."""
        # (``fresh`` always asks: a cached answer stamped with this very moment may still be an old
        # one on a clock that stood still, and the commands that need it fresh are rare)
        person = await self.person(team, user, fresh=fresh)
        return person.admin or await self._in_admin_group(team, user, fresh=fresh)

    async def _in_admin_group(self, team: str, user: str, *, fresh: bool = False) -> bool:
        group = (await self.admin_group(team)).strip()
        if not group:
            return False
        group_id = await self._group_id(team, group)
        if group_id is None:
            return False
        now = self.clock.now()
        cached = self._groups.get((team, group_id))
        if cached is None or now - cached[1] >= self.ttl or fresh:
            try:
                client = await self.client_for(team)
                response = await client.usergroups_users_list(usergroup=group_id)
                cached = (frozenset(response["users"] or ()), now)
            except SlackApiError as exc:
                log.warning("usergroups.users.list %s failed: %s", group_id, exc.response.get("error"))
                cached = (frozenset(), now)
            self._groups[(team, group_id)] = cached
        return user in cached[0]

    async def _group_id(self, team: str, group: str) -> str | None:
        match = _SUBTEAM.match(group)
        if match:
            return match.group(1)
        if re.fullmatch(r"S[A-Z0-9]{6,}", group):
            return group
        handle = group.lstrip("@").lower()
        try:
            client = await self.client_for(team)
            response = await client.usergroups_list()
        except SlackApiError as exc:
            log.warning("usergroups.list failed: %s", exc.response.get("error"))
            return None
        for item in response["usergroups"] or ():
            if str(item.get("handle", "")).lower() == handle or str(item.get("name", "")).lower() == handle:
                return str(item["id"])
        return None
