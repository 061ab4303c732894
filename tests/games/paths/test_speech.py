"""Mark My Words speaks only through the catalogue: a whole game in the pseudo-language ``qps``
(every message marked ``⟦…⟧``) leaves no unmarked text a player would read."""

from __future__ import annotations

from games.common.protocol import Action, Snapshot
from games.common.speech import _, speaking
from games.paths import GAME
from games.paths.rules_text import rules
from tests.games.paths.helpers import ANN, BOB, engine, give, put, say, skip_first_round
from tests.speech.pseudo import unmarked

#: The names, commands and option words a player typed or reads as they are.
ALLOWED = ("Ann", "Bob", "pass", "knock", "why", "hand", "blank", "swap", "discard", "free", "start", "paths")
ALLOWED += (
    "play",
    "moji",
    "scoring",
    "letter",
    "named",
    "all",
    "misplaced",
    "retry",
    "pile",
    "blanks",
    "off",
)
ALLOWED += ("bots", "level", "easy", "normal", "hard", "language", "nl", "fr", "de", "es", "ing", "ed")


def _shown(snap: Snapshot) -> list[str]:
    return [snap.title, *snap.lines, *(f"{s.name} {s.detail}" for s in snap.seats)]


def test_a_whole_game_in_the_pseudo_language_is_all_marked() -> None:
    read: list[str] = []
    with speaking("qps"):
        game = engine({"knock": 5}, bots="hard")
        notes = []
        for bad in ("", "knock", "blank", "discard", "free O", "Z9 T AT", "E5 7", "A1 T", "E1 T 12"):
            notes += say(game, game.seat_id, bad)
        for text in ("A1 T AT", "pass", "A1 Q QAT"):
            seen = game.preview(game.seat_id, text)
            read += [seen] if isinstance(seen, str) else [seen.reason, *(why for _w, _p, why in seen.words)]
        now = 1.0
        for _step in range(200):
            if game.finished:
                break
            when = game.next_bot_time()
            if when is None:
                notes += game.apply(Action("tick", game.next_deadline() or now))
                continue
            now = max(now, when)
            for claim in game.bot_claims(now):
                notes += game.apply(Action("say", now, seat=claim.seat, text=claim.text))
            read += _shown(game.snapshot()) + _shown(game.snapshot(ANN))
        read += [n.text for n in notes] + _shown(game.snapshot()) + [game.result().summary]
        read += [game.word_verdict("at").message, game.word_verdict("zzz").message]
        # the refusals and penalties of a game played by hand
        other = engine({"knock": 5})
        skip_first_round(other)
        put(other, {"A1": "a"})
        other.pile = ["t", "x"]
        give(other, ANN, "aqt", blanks=1)
        more = say(other, ANN, "free X B1 AX") + say(other, ANN, "A1 T AT") + say(other, BOB, "pass")
        more += say(other, ANN, "blank C3") + say(other, ANN, "discard Q") + say(other, ANN, "B1 T TA TAT")
        more += say(other, BOB, "knock AT") + other.apply(Action("leave", 2.0, seat=BOB))
        read += [n.text for n in more] + _shown(other.snapshot(ANN)) + [other.result().summary]
        read += [rules(), _(GAME.title), _(GAME.summary), *(spec.text for spec in GAME.options)]
        read += [_(label) for label, _move in GAME.turn_moves]
    found = [word for text in read for word in unmarked(text, ALLOWED)]
    assert found == [], found
    assert any("⟦" in text for text in read)


def test_the_rules_are_one_message_per_line() -> None:
    with speaking("qps"):
        lines = rules().splitlines()
    assert all(line.startswith("⟦") and line.endswith("⟧") for line in lines if line)
    assert (
        GAME.rules.strip().splitlines()[0]
        == "Mark My Words — place letter tiles on a grid and mark down every new word"
    )
