"""Players whose private messages the platform refuses, on every platform.

Discord lets each member close their direct messages from a server's members (a common
setting); the platform then refuses every direct message to them (Discord: 403, error
50007 "Cannot send messages to this user"). That is the player's choice, not a fault of
the bot nor a missing permission. An adapter's transport raises :class:`PrivateRefused`
when it meets it; the delivery layer remembers the player in :class:`Unreachable`, stops
sending them private messages that are not answers to something they did (an answer to
their own command or button is ephemeral and always reaches them), and points them to
what they can press instead (:func:`pointer`).
"""

from __future__ import annotations

from dataclasses import replace

from bot.core import views
from bot.core.clock import Clock
from bot.core.events import Player
from games.common.speech import N_, _, _p, speaking

#: How long a refusal is believed before one direct message is tried again: the player may
#: open their direct messages again, and a try a day costs Discord's invalid-request budget nothing.
TRY_AGAIN_AFTER = 24 * 3600.0


class PrivateRefused(Exception):
    """The platform refused a private message to ``player`` because of their own settings."""

    def __init__(self, player: Player) -> None:
        super().__init__(f"private messages to {player.display_name} are refused")
        self.player = player


def seat_of(player: Player) -> str:
    """The seat id of a player (``platform:user``), as views mention it."""
    return f"{player.platform}:{player.user_id}"


class Unreachable:
    """Who refuses private messages, by seat id, and since when (on the bot's clock)."""

    def __init__(self, clock: Clock, *, try_again_after: float = TRY_AGAIN_AFTER) -> None:
        self.clock = clock
        self.try_again_after = try_again_after
        self._since: dict[str, float] = {}

    def refused(self, player: Player) -> bool:
        """Remember a refusal; True when it is news (the player was not known to refuse)."""
        seat = seat_of(player)
        news = seat not in self._since
        self._since[seat] = self.clock.now()
        return news

    def closed(self, seat: str) -> bool:
        """True while private messages to ``seat`` are believed refused."""
        since = self._since.get(seat)
        if since is None:
            return False
        if self.clock.now() - since >= self.try_again_after:
            del self._since[seat]  # worth one more try: they may have opened them again
            return False
        return True

    def __len__(self) -> int:
        return len(self._since)


POINTER = N_(
    "{name}, I can't send you direct messages (your privacy settings for this server allow "
    "none), so your turns' private notes stay here for you: {press} "
    "whenever you want to see your rack or hand — only you see it."
)
#: How :data:`POINTER` says what shows the notes, with the platform's buttons and without.
PRESS = N_("press **My rack** (or use `hand`)")
TYPE = N_("use `hand`")


def pointer(player: Player, *, buttons: bool = True) -> views.View:
    """A public note that tells ``player`` where their private notes are: it mentions them and,
    where the platform has buttons, carries the **My rack** button (an answer to a button is
    private and always arrives)."""
    text = _(POINTER, name=views.user(player.display_name), press=_(PRESS if buttons else TYPE))
    return views.View(
        kind="turn",
        lines=(text,),
        mentions=(seat_of(player),),
        buttons=(views.ButtonSpec(views.HAND, _p("button", "My rack"), "primary"),) if buttons else (),
    )


def with_pointer(view: views.View, unreachable: Unreachable, *, buttons: bool = True) -> views.View:
    """A turn message, with the **My rack** button when its player refuses private messages
    (where the platform has no buttons, the note :func:`pointer` posted once says `hand`)."""
    if not buttons or view.kind != "turn" or not any(unreachable.closed(seat) for seat in view.mentions):
        return view
    if any(b.action == views.HAND for b in view.buttons):
        return view
    with speaking(view.locale):
        line = _("Your private notes can't reach you by direct message: press **My rack** to see them.")
        button = views.ButtonSpec(views.HAND, _p("button", "My rack"), "primary")
    return replace(view, lines=(*view.lines, line), buttons=(*view.buttons, button))
