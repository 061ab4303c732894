"""Master's Choice (the ``masters-choice`` option): the winner of a race picks the next race's
challenges in that chat.

The rule outlives its game, so the race declares it through :attr:`GameInfo.after_game`: when a
race played with Master's Choice finishes with a winner, the chat's next ``start`` of a race may
choose the challenge options only if the winner starts it. The core keeps the rule per chat and
asks :meth:`MastersChoice.refusal` at every start; any finished game without Master's Choice
clears it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.common.options import OptionValue
from games.common.protocol import Result, StartRule
from games.common.speech import _

#: Options a Master's Choice game reserves for the last moji Master (as typed: ``key=value``).
CHALLENGE_OPTIONS = ("min", "placement", "themes", "bans", "challenge-of-round")


@dataclass(frozen=True, slots=True)
class MastersChoice:
    """The last moji Master of a chat, who alone picks the next race's challenges."""

    seat_id: str
    name: str

    @property
    def seat_ids(self) -> frozenset[str]:
        """The Master (forgetting them ends the rule)."""
        return frozenset((self.seat_id,))

    def refusal(self, game: str, seat_id: str, args: Sequence[str]) -> str | None:
        """Why someone other than the Master may not choose a challenge option for a race."""
        if game != "race" or seat_id == self.seat_id:
            return None
        chosen = [arg.split("=", 1)[0].lower() for arg in args if "=" in arg]
        if any(key in CHALLENGE_OPTIONS for key in chosen):
            return _(
                "Master's Choice: {name}, the last moji Master, picks this round's challenges. "
                "Start without challenge options, or ask them to start it.",
                name=self.name,
            )
        return None


def after_game(
    result: Result, options: Mapping[str, OptionValue], names: Mapping[str, str], previous: StartRule | None
) -> StartRule | None:
    """A finished race's rule for its chat: its first winner is the Master with Master's Choice
    on (no winner: the rule so far stands); without it, no rule."""
    if not options.get("masters-choice"):
        return None
    if not result.winners:
        return previous
    winner = result.winners[0]
    return MastersChoice(winner, names.get(winner, winner))
