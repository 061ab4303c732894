"""The race's own commands: the ``skip`` vote when everyone is stuck, ``vote yes|no`` on an answer
the dictionary can't judge, and ``list`` for an Eagle Eyes list handed in privately."""

from __future__ import annotations

from games.common.protocol import GameVerb, VerbArgument
from games.common.speech import N_

SKIP = GameVerb(
    "skip",
    "skip",
    N_("vote to discard the face-up cards when everyone is stuck"),
    "vote",
    aliases=("stuck",),
    absent=N_("`skip` votes to discard stuck cards in a race; {title} has no skip vote."),
)

VOTE = GameVerb(
    "vote",
    "vote yes|no",
    N_("vote on an answer the dictionary can't judge"),
    "vote",
    argument=VerbArgument("choice", N_("Yes: the answer counts; no: it doesn't"), choices=("yes", "no")),
    missing=N_("Vote `yes` or `no`."),
    absent=N_("There's nothing to vote on in {title}: votes settle race answers."),
)

LIST = GameVerb(
    "list",
    "list WORD …",
    N_("Eagle Eyes: hand in words privately"),
    "private",
    aliases=("words-list", "secret"),
    argument=VerbArgument("words", N_("Your words, with spaces between them")),
    missing=N_("Give your words, like `list cat act tact`."),
    absent=N_("`list` hands in an Eagle Eyes word list; this {title} game takes none."),
)

#: The race's verbs, in the order the help lists them.
VERBS: tuple[GameVerb, ...] = (SKIP, VOTE, LIST)
