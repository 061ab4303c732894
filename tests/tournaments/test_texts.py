"""How a tournament writes points and results in chat."""

from __future__ import annotations

from bot.features.tournaments.texts import pairing_line, points_text
from games.common.speech import speak_only
from storage.tournament_records import BYE, Entry, SeatResult, TournamentGame


def test_points_are_written_as_people_write_them() -> None:
    assert [points_text(p) for p in (0, 0.5, 1, 2.5, 10)] == ["0", "½", "1", "2½", "10"]
    assert points_text(5.25) == "5.25"  # (a Sonneborn-Berger of quarter points: a decimal)
    with speak_only("de"):
        assert points_text(5.25) == "5,25" and points_text(1234) == "1.234"


def test_a_pairing_line_says_its_result() -> None:
    entries = {"a": Entry("a", "Ann", 25.0, 0.0), "b": Entry("b", "Bob", 25.0, 0.0)}
    won = (SeatResult("a", 40, 1, 1.0), SeatResult("b", 30, 2, 0.0))
    played = TournamentGame("t", 1, 2, "tour-t-1-2", won, "done", "played")
    assert "Board 2" in pairing_line(played, entries) and "1–0" in pairing_line(played, entries)
    drawn = TournamentGame(
        "t", 1, 1, "g", (SeatResult("a", 5, 1, 0.5), SeatResult("b", 5, 1, 0.5)), "done", "adjudicated"
    )
    assert "½–½" in pairing_line(drawn, entries) and "adjudicated" in pairing_line(drawn, entries)
    bye = TournamentGame("t", 1, 3, "g3", (SeatResult("a", None, 1, 1.0),), "done", BYE)
    assert pairing_line(bye, entries).startswith("Bye:")
