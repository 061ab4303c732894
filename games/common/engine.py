"""The base every game engine inherits: a default for each hook the core calls beyond the rules.

:class:`~games.common.protocol.Engine` names everything the bot core asks of a running game.
The rule methods (``apply``, ``snapshot``, ``result``…) are each game's own; the hooks below
have a default here, so a game overrides only those it uses and the core calls every one
directly (no probing with ``getattr``). Adding a hook means adding it to the protocol and a
default here, in one commit: every game then has it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.common.options import OptionValue
from games.common.protocol import Engine
from games.common.speech import N_, _
from games.common.words import Verdict

#: Said to a voter whose ``skip`` changed nothing visible, in a game with no words of its own for it.
QUIET_SKIP = N_("Your vote to skip is counted once; the cards go when every player has voted.")
#: Said to a voter whose ``yes`` or ``no`` found nothing to vote on.
QUIET_VOTE = N_("There's no answer waiting for your vote right now.")


class GameEngine(Engine):
    """Defaults for the optional hooks of :class:`~games.common.protocol.Engine`.

    Subclasses implement the rule methods (instantiating one that lacks any is a type error);
    each hook below is what a game that does not use it answers.
    """

    #: Takes private word lists (``list``, a DM, Discord's modal): an Eagle Eyes race does.
    takes_lists: bool = False

    #: Answers the players accepted by a vote in this game, for the workspace's word list (kept
    #: when the game ends); a game with votes sets its own list.
    voted_words: Sequence[str] = ()

    def word_verdict(self, word: str) -> Verdict | None:
        """The game's verdict on ``word`` under its own word rules (``define``); None for a game
        that judges no words."""
        return None

    def quiet_vote(self, seat: str, choice: str) -> str:
        """Why a vote by ``seat`` (``skip``, ``yes``, ``no``) that the engine took in silence
        changed nothing visible: the core tells the voter this, so no command goes unanswered."""
        return _(QUIET_SKIP) if choice == "skip" else _(QUIET_VOTE)


def nothing_to_prepare(language: str, options: Mapping[str, OptionValue]) -> None:
    """``GameInfo.prepare`` of a game with no one-off work (no word lists, no tries to build)."""
