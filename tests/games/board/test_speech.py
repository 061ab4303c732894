"""The board game speaks only through the catalogue: a whole game in the pseudo-language ``qps``
(every message marked ``⟦…⟧``) leaves no unmarked text a player would read."""

from __future__ import annotations

from games.board import GAME
from games.board.engine import BoardGame
from games.common.protocol import Action, Notice, Seat, Setup, Snapshot
from games.common.speech import _, speaking
from tests.speech.pseudo import unmarked

ROBO = Seat("a", "Robo", "hard")
CHIP = Seat("b", "Chip", "normal")
#: The move notation players type (English everywhere), and the two names.
ALLOWED = ("Robo", "Chip", "across", "down", "pass", "swap", "resign")


def _shown(snap: Snapshot) -> list[str]:
    return [snap.title, *snap.lines, *(f"{s.name} {s.detail}" for s in snap.seats)]


def test_a_whole_game_in_the_pseudo_language_is_all_marked() -> None:
    read: list[str] = []
    with speaking("qps"):
        game = BoardGame(Setup({"missed": True}, (ROBO, CHIP), 3))
        notes: list[Notice] = game.apply(Action("begin", 0.0))
        for bad in (
            "",
            "zz top now",
            "Z99 across CAT",
            "H8 sideways CAT",
            "H8 across C4T",
            "swap",
            "swap QQQQ",
        ):
            notes += game.apply(Action("say", 0.5, seat=game.current, text=bad))
        notes += game.apply(Action("say", 0.5, seat="nobody", text="pass"))
        now = 1.0
        for _turn in range(16):
            when = game.next_bot_time()
            if game.finished or when is None:
                break
            now = max(now, when)
            for claim in game.bot_claims(now):
                notes += game.apply(Action("say", now, seat=claim.seat, text=claim.text))
            read += _shown(game.snapshot()) + _shown(game.snapshot(game.current))
        deadline = game.next_deadline()
        assert deadline is not None
        notes += game.apply(Action("tick", deadline))  # a reminder
        notes += game.apply(Action("say", now, seat=game.current, text="pass"))
        notes += game.apply(Action("say", now, seat="a", text="resign"))
        notes += game.apply(Action("say", now, seat="a", text="pass"))
        read += [n.text for n in notes] + _shown(game.snapshot()) + [game.result().summary]
        read += [game.word_verdict("cat").message, game.word_verdict("qzxq").message]
        read += [GAME.rules_text(), _(GAME.summary)] + [spec.describe() for spec in GAME.options]
    found = [word for text in read for word in unmarked(text, ALLOWED)]
    assert found == [], found
