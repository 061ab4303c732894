"""The race speaks only through the catalogue: whole games (the flip race and its variations, Off
the Grid, Eagle Eyes) with people and bots in the pseudo-language ``qps`` (every message marked
``⟦…⟧``), the rules, the options and the daily's lines leave no unmarked text a player reads."""

from __future__ import annotations

from datetime import date, timedelta

from games.common.options import OptionValue
from games.common.protocol import Action, Claim, Engine, Notice, Result, Seat, Setup, Snapshot
from games.common.speech import CLOSE, OPEN, _, speaking
from games.common.words import Verdict, WordRules
from games.race import GAME, create
from games.race.daily import DailyResult, share_line, wait_text
from games.race.masters import after_game
from games.race.options import RaceConfig
from games.race.verbs import VERBS
from tests.games.race.helpers import WORDS, ListJudge
from tests.speech.pseudo import unmarked

NAMES = ("Ann", "Bobby", "Chip", "Dot", "Eve", "Fay")
#: What a game shows as it is: the players' names, the seat ids, option codes and commands.
ALLOWED = (
    *NAMES,
    *("bot", "ann", "bob", "skip", "vote", "yes", "no", "list", "why", "define", "on", "off"),
    *(word for spec in GAME.options for code in (spec.name, *spec.choices) for word in code.split("-")),
)


class QpsJudge(ListJudge):
    """:class:`ListJudge` whose refusals are marked as the lexicon's (another area) would be."""

    def judge(self, word: str, rules: WordRules) -> Verdict:
        verdict = super().judge(word, rules)
        if verdict.message:
            message = verdict.message.replace(word.upper(), f"{CLOSE}{word.upper()}{OPEN}")
            return verdict._replace(message=f"{OPEN}{message}{CLOSE}")
        return verdict


def _shown(snap: Snapshot) -> list[str]:
    return [snap.title, *snap.lines, *snap.grid, *(f"{s.name} {s.detail}" for s in snap.seats)]


def _result(result: Result) -> list[str]:
    return [result.summary]


def _play(
    options: dict[str, OptionValue], seats: list[Seat], seed: int, humans: tuple[str, ...]
) -> list[str]:
    """A whole game with ``seats`` (bots play; the people claim, miss, vote and leave)."""
    engine: Engine = create(Setup(dict(options), seats, seed, judge=QpsJudge(WORDS | {"cake", "taco"})))
    read = [n.text for n in engine.apply(Action("begin", 0.0))]
    read += _shown(engine.snapshot()) + _shown(engine.snapshot(humans[0] if humans else None))
    now = 0.0
    for step in range(3000):
        if engine.finished:
            break
        times = [t for t in (engine.next_deadline(), engine.next_bot_time()) if t is not None]
        if not times:
            break
        now = max(now, min(times))
        notes: list[Notice] = []
        due = engine.bot_claims(now)
        notes += engine.apply(Action("claims", now, claims=tuple(due)) if due else Action("tick", now))
        for i, who in enumerate(humans):
            if step % 7 == i:
                for text in ("cat", "zzzq", "tea", "at", "cake", "yes"):
                    claim = Claim(who, text, now, ref=f"{who}@{now}@{text}")
                    notes += engine.apply(Action("claims", now, claims=(claim,)))
            if step % 11 == i:
                notes += engine.apply(Action("say", now, seat=who, text="skip"))
                notes += engine.apply(Action("say", now, seat=who, text="no"))
                notes += engine.apply(
                    Action("say", now, seat=who, text="list cat act tact zzzq", private=True)
                )
                read += [engine.quiet_vote(who, choice) for choice in ("skip", "yes", "no")]
        if step == 40 and humans:
            notes += engine.apply(Action("leave", now, seat=humans[-1]))
        read += [n.text for n in notes]
        if step % 5 == 0:
            read += _shown(engine.snapshot()) + _shown(engine.snapshot(humans[0] if humans else None))
    assert engine.finished, options
    read += _shown(engine.snapshot()) + _result(engine.result())
    verdict = engine.word_verdict("zzzq")
    read.append(verdict.message if verdict else "")
    return read


def _seats(people: int, bots: int) -> list[Seat]:
    seats = [Seat(f"t:{name.lower()}", name) for name in NAMES[:people]]
    levels = ("easy", "normal", "hard")
    return seats + [Seat(f"bot:{i}", NAMES[people + i], levels[i % 3]) for i in range(bots)]


def _humans(seats: list[Seat]) -> tuple[str, ...]:
    return tuple(s.id for s in seats if not s.id.startswith("bot:"))


GAMES: list[tuple[dict[str, OptionValue], int, int]] = [
    ({"cards": 5, "language": "de"}, 2, 1),
    ({"cards": 4, "min": 3, "placement": "first-or-last", "rules": ("repeat",)}, 1, 2),
    ({"cards": 4, "placement": "first-and-last", "general": True}, 1, 1),
    ({"cards": 4, "placement": "in-between", "challenge-of-round": True}, 1, 1),
    ({"cards": 4, "themes": ("food",), "vote-time": 5}, 2, 1),
    ({"cards": 4, "themes": ("movies",), "vote-time": 5}, 2, 1),
    ({"cards": 3, "variation": ("do-si-do",)}, 2, 2),
    ({"cards": 3, "variation": ("ball-and-chain",)}, 1, 3),
    ({"cards": 3, "variation": ("do-si-do",)}, 1, 2),  # three players: a refusal
    ({"cards": 4, "variation": ("stack-em-up", "monochrome")}, 1, 2),
    ({"cards": 3, "variation": ("three-amigos",)}, 2, 2),
    ({"cards": 4, "variation": ("off-the-grid",), "turn": 5}, 1, 2),
    ({"variation": ("eagle-eyes",), "rounds": 2}, 2, 1),
    ({"cards": 3, "masters-choice": True}, 1, 1),
]


def test_whole_games_in_the_pseudo_language_are_all_marked() -> None:
    read: list[str] = []
    with speaking("qps"):
        for seed, (options, people, bots) in enumerate(GAMES, start=1):
            seats = _seats(people, bots)
            read += _play(options, seats, seed, _humans(seats))
    found = [word for text in read for word in unmarked(text, ALLOWED)]
    assert found == [], sorted(set(found))


def test_the_rules_options_verbs_and_daily_in_the_pseudo_language_are_all_marked() -> None:
    read: list[str] = []
    with speaking("qps"):
        read += [GAME.rules_text(), _(GAME.summary)]
        read += [spec.describe() for spec in GAME.options] + [spec.text for spec in GAME.options]
        for verb in VERBS:
            read += [_(verb.help)]
            read += [_(text, title="moji") for text in (verb.absent, verb.missing) if text]
            if verb.argument is not None:
                read.append(_(verb.argument.help))
        challenges: list[dict[str, OptionValue]] = [
            {"min": 4, "placement": "in-between", "themes": ("food", "animals")},
            {"general": True},
        ]
        for options in challenges:
            cfg = RaceConfig.from_options(options)
            read += cfg.rule_lines() + cfg.challenge_lines()
        read.append(RaceConfig.from_options({"themes": ("food",), "language": "de"}).refusal or "")
        read += [wait_text(timedelta(hours=h, minutes=m)) for h, m in ((0, 1), (3, 0), (5, 12))]
        for streak in (1, 4):
            read.append(share_line(DailyResult(date(2026, 12, 4), "fr", 9, 120, 205.5, streak)))
        won = Result({"t:ann": 3}, ("t:ann",), "")
        rule = after_game(won, {"masters-choice": True}, {"t:ann": "Ann"}, None)
        assert rule is not None
        read.append(rule.refusal("race", "t:bob", ("min=4",)) or "")
    found = [word for text in read for word in unmarked(text, ALLOWED)]
    assert found == [], sorted(set(found))
