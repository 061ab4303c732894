"""Shed speaks only through the catalogue: a whole game in the pseudo-language ``qps`` (every
message marked ``⟦…⟧``) leaves no unmarked text a player would read."""

from __future__ import annotations

import pytest

from games.common import meaning
from games.common.protocol import Action, Notice, Seat, Setup, Snapshot
from games.common.speech import _, speaking
from games.shed import GAME, SKIP
from games.shed.engine import ShedGame
from games.shed.rules_text import rules
from tests.games.shed.helpers import ANN, BOB, CY, game, rig, say
from tests.speech.pseudo import unmarked

#: The names, commands and option words a player typed or reads as they are.
ALLOWED = ("Ann", "Bob", "Cy", "Ada", "Basil", "hand", "play", "draw", "trade", "skip", "swap", "all")
ALLOWED += (
    "opening",
    "turn",
    "actions",
    "last",
    "alone",
    "pace",
    "live",
    "slow",
    "minutes",
    "reshuffle",
    "off",
)
ALLOWED += ("rounds", "min", "rules", "verbs", "easy", "on", "dictionary", "casual", "cards", "two", "group")
ALLOWED += (
    "children",
    "auto",
    "bots",
    "level",
    "normal",
    "hard",
    "language",
    "nl",
    "fr",
    "de",
    "es",
    "ing",
    "ed",
)
ALLOWED += ("NAME", "Bob's")


def _shown(snap: Snapshot) -> list[str]:
    return [snap.title, *snap.lines, *(f"{s.name} {s.detail}" for s in snap.seats)]


def _bots_play(g: ShedGame, turns: int, played: list[str]) -> list[Notice]:
    """The computer players' turns; ``played`` gets the table words as shown (jokers' letters in
    lower case: words players made, not moji's)."""
    notes: list[Notice] = []
    now = 1.0
    for _step in range(turns):
        when = g.next_bot_time()
        if g.finished or when is None:
            break
        now = max(now, when)
        for claim in g.bot_claims(now):
            notes += g.apply(Action("say", now, seat=claim.seat, text=claim.text))
        played += [tw.shown for tw in g.round.table]
    return notes


def test_a_whole_game_in_the_pseudo_language_is_all_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    # a computer player's word meaning is dictionary text (games/common/meaning.py labels it)
    monkeypatch.setattr(meaning, "sentence", lambda *_args: "")
    read: list[str] = []
    played: list[str] = []
    with speaking("qps"):
        seats = (Seat("bot:1", "Ada", bot="hard"), Seat("bot:2", "Basil", bot="normal"))
        g = ShedGame(Setup({"rounds": 2}, list(seats), 3))
        notes = g.apply(Action("begin", 0.0)) + _bots_play(g, 300, played)
        read += [n.text for n in notes] + _shown(g.snapshot()) + _shown(g.snapshot("bot:1"))
        read += [g.result().summary]
        # a rigged three-player table: refusals, action cards, previews, time-outs
        t = game((ANN, BOB, CY))
        rig(
            t,
            {"a": "c a t s !skip !draw-two !trade q", "b": "d o g", "c": "e e"},
            table=["sock"],
            opened=["a"],
        )
        t.current = "a"
        more: list[Notice] = []
        for bad in (
            "",
            "Z9Z",
            "SOCK+Z -> SOCKS",
            "CAT -> DOG",
            "#9+S -> X",
            "skip",
            "skip Zed",
            "+2 a",
            "trade *",
            "a;b;c;d;e;f;g;h;i",
        ):
            more += say(t, "a", bad)
        for line, seat in (("CAT", "a"), ("DOG", "b"), ("Q9", "a")):
            seen = t.preview(seat, line)
            read += [seen.reason, seen.said]
        more += say(t, "a", "CAT; SOCK+S -> SOCKS")
        more += say(t, "b", "nonsense") + t.apply(Action("tick", 1000.0))
        t.current = "a"
        more += say(t, "a", "skip Bob")
        read += [n.text for n in more] + _shown(t.snapshot("a"))
        more = t.apply(Action("leave", 2000.0, seat="c")) + t.apply(Action("leave", 2001.0, seat="b"))
        read += [n.text for n in more] + [t.result().summary, t.word_verdict("zz").message]
        for card in t.hand_of("a"):
            read += [card.name, card.help]
        read += [rules(), _(GAME.title), _(GAME.summary), *(spec.text for spec in GAME.options)]
        read += [_(label) for label, _move in GAME.turn_moves]
        read += [_(SKIP.help), *(_(text) for text in (SKIP.missing, SKIP.absent) if text)]
    found = [word for text in read for word in unmarked(text, (*ALLOWED, *played))]
    assert found == [], found
