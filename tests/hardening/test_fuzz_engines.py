"""Every registered game's engine, fed hostile actions: no exception, no wrong accept, reasons.

The games come from ``bot.core.registry.load_default()``, so a game that registers
itself is fuzzed here too. For each game a random sequence of actions (moves and
claims of hostile text, votes, ticks, leaves) is applied to a fresh engine, and:

* nothing raises (apply, snapshot, result, deadlines, computer players);
* every ``rejected`` notice carries a reason;
* a text holding a homoglyph, zero-width or bidi character is never ``accepted``;
* replaying the same actions on a fresh engine gives the same notices and table;
* a line shown privately (a hand, a rack, a list) never appears on the public table
  or in a public notice of the same game.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.registry import load_default
from games.common.options import parse_options
from games.common.protocol import Action, Claim, Engine, GameInfo, Notice, Seat, Setup, Snapshot
from tests.hardening.hostile import LONG, fuzz, hostile, is_poisoned

REGISTRY = load_default()
GAMES = list(REGISTRY)
SEATS = (Seat("t:ann", "Ann"), Seat("t:bob", "Bob"), Seat("bot:1", "Robo", "normal"))


@dataclass(frozen=True)
class Step:
    kind: str
    seat: int
    text: str
    dt: float


def steps() -> st.SearchStrategy[list[Step]]:
    step = st.builds(
        Step,
        kind=st.sampled_from(("say", "say", "claims", "claims", "tick", "vote", "private", "leave")),
        seat=st.integers(0, 1),
        text=hostile(),
        dt=st.sampled_from((0.0, 0.05, 0.5, 2.0, 31.0, 400.0)),
    )
    return st.lists(step, min_size=1, max_size=25)


def actions_of(plan: list[Step]) -> list[Action]:
    out = [Action("begin", 0.0)]
    now = 0.0
    for i, step in enumerate(plan):
        now += step.dt
        seat = SEATS[step.seat].id
        ref = f"r{i}"
        if step.kind == "say":
            out.append(Action("say", now, seat=seat, text=step.text, ref=ref))
        elif step.kind == "private":
            out.append(Action("say", now, seat=seat, text=step.text, ref=ref, private=True))
        elif step.kind == "claims":
            out.append(Action("claims", now, claims=(Claim(seat, step.text, now - 0.01, ref),)))
        elif step.kind == "vote":
            choice = step.text if len(step.text) % 2 else ("skip", "yes", "no")[len(step.text) % 3]
            out.append(Action("vote", now, seat=seat, text=choice))
        elif step.kind == "leave" and i == len(plan) - 1:
            out.append(Action("leave", now, seat=seat))
        else:
            out.append(Action("tick", now))
    return out


def new_engine(info: GameInfo, seed: int) -> Engine:
    options = dict(parse_options(info.options, []))
    seats = SEATS[: max(info.min_players, 2)] if info.max_players >= 2 else SEATS[:1]
    return info.create(Setup(options, list(seats), seed))


def run(engine: Engine, actions: list[Action]) -> tuple[list[list[Notice]], list[Snapshot]]:
    notices: list[list[Notice]] = []
    tables: list[Snapshot] = []
    for action in actions:
        notices.append(engine.apply(action))
        # the session asks these after every action
        engine.next_deadline()
        engine.next_bot_time()
        if not engine.finished:
            engine.bot_claims(action.now)
        tables.append(engine.snapshot(None))
    for seat in SEATS:
        engine.snapshot(seat.id)
    if engine.finished:
        engine.result()
    return notices, tables


def public_lines(table: Snapshot) -> set[str]:
    lines = {line.strip() for line in (*table.lines, *table.grid)}
    lines |= {f"{s.name}: {s.detail}".strip() for s in table.seats}
    return {line for line in lines if line}


def check(info: GameInfo, seed: int, plan: list[Step]) -> None:
    actions = actions_of(plan)
    notices, tables = run(new_engine(info, seed), actions)
    for action, batch in zip(actions, notices, strict=True):
        texts = {c.ref: c.text for c in action.claims}
        if action.ref:
            texts[action.ref] = action.text or ""
        for notice in batch:
            if notice.kind == "rejected":
                assert notice.text.strip(), f"{info.name}: a refusal without a reason for {action}"
            if notice.kind == "accepted" and notice.ref in texts:
                assert not is_poisoned(texts[notice.ref]), (
                    f"{info.name} accepted {texts[notice.ref]!r}: {notice.text}"
                )
    # hidden information: nothing shown privately is on the public table or said publicly
    shown = set().union(*(public_lines(t) for t in tables))
    said = {
        line.strip()
        for batch in notices
        for n in batch
        if n.kind in ("announce", "accepted", "end")
        for line in n.text.splitlines()
    }
    for batch in notices:
        for notice in batch:
            if notice.kind != "private":
                continue
            for line in notice.text.splitlines():
                line = line.strip()
                if len(line) >= 12 and any(ch.isupper() for ch in line):
                    assert line not in shown, f"{info.name}: private line on the public table: {line!r}"
                    assert line not in said, f"{info.name}: private line said publicly: {line!r}"
    # determinism: the same actions rebuild the same game
    again, tables_again = run(new_engine(info, seed), actions)
    assert again == notices, f"{info.name}: replaying the actions gave different notices"
    assert tables_again == tables, f"{info.name}: replaying the actions gave a different table"


@pytest.mark.parametrize("info", GAMES, ids=[g.name for g in GAMES])
@fuzz(normal=25, long=400)
@given(seed=st.integers(0, 2**31), plan=steps())
def test_hostile_actions(info: GameInfo, seed: int, plan: list[Step]) -> None:
    check(info, seed, plan)


def test_every_registered_game_is_fuzzed() -> None:
    assert "race" in REGISTRY.names()
    assert len(GAMES) == len(REGISTRY)


#: Latin letters and the Cyrillic letters that look the same.
LOOKALIKE = dict(zip("aeopcxyiAEOPCXHKMTB", "аеорсхуіАЕОРСХНКМТВ", strict=True))
INVISIBLES = ("\u200b", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u202e")


def poison(text: str, where: int, how: int) -> str:
    """``text`` with a letter swapped for its Cyrillic look-alike, an invisible character or zalgo."""
    letters = [i for i, ch in enumerate(text) if ch in LOOKALIKE]
    alpha = [i for i, ch in enumerate(text) if ch.isalpha()]
    if alpha and how % 3 == 2:  # zalgo: a pile of combining marks on one letter
        i = alpha[where % len(alpha)] + 1
        return text[:i] + "\u0351\u0352\u0353\u0354" + text[i:]
    if letters and how % 3 == 0:
        i = letters[where % len(letters)]
        return text[:i] + LOOKALIKE[text[i]] + text[i + 1 :]
    i = where % (len(text) + 1)
    return text[:i] + INVISIBLES[how % len(INVISIBLES)] + text[i:]


def apply_as_player(
    engine: Engine, info: GameInfo, seat: str, text: str, now: float, ref: str
) -> list[Notice]:
    if info.realtime:
        return engine.apply(Action("claims", now, claims=(Claim(seat, text, now, ref),)))
    return engine.apply(Action("say", now, seat=seat, text=text, ref=ref))


@pytest.mark.parametrize("info", GAMES, ids=[g.name for g in GAMES])
@fuzz(normal=5, long=100)
@given(seed=st.integers(0, 2**31), where=st.integers(0, 99), how=st.integers(0, 99))
def test_a_poisoned_good_move_is_never_accepted(info: GameInfo, seed: int, where: int, how: int) -> None:
    """Computer players find good moves; the same move with a look-alike letter is refused."""
    poisoned_run(info, seed, where, how)


def poisoned_run(info: GameInfo, seed: int, where: int, how: int) -> int:
    """One game of poisoned good moves (each refused, the good one then taken); how many."""
    options = dict(parse_options(info.options, []))
    seats = [Seat("t:ann", "Ann", "hard"), Seat("t:bob", "Bob", "hard")]
    engine = info.create(Setup(options, seats, seed))
    engine.apply(Action("begin", 0.0))
    now, poisoned_refs, checked = 0.0, 0, 0
    for step in range(12 if LONG else 5):
        if engine.finished:
            break
        when = engine.next_bot_time()
        deadline = engine.next_deadline()
        if when is None:
            if deadline is None:
                break
            now = max(now, deadline)
            engine.apply(Action("tick", now))
            continue
        now = max(now, when)
        for k, claim in enumerate(engine.bot_claims(now)):
            bad = poison(claim.text, where + step, how + k)
            ref = f"bad{step}.{k}"
            notices = apply_as_player(engine, info, claim.seat, bad, now, ref)
            poisoned_refs += 1
            for notice in notices:
                assert not (notice.kind == "accepted" and notice.ref == ref), (
                    f"{info.name} accepted {bad!r} (the good move was {claim.text!r}): {notice.text}"
                )
                if notice.kind == "rejected":
                    assert notice.text.strip()
            if not engine.finished:
                apply_as_player(engine, info, claim.seat, claim.text, now + 0.001, f"good{step}.{k}")
                checked += 1
    assert poisoned_refs == checked or engine.finished
    return poisoned_refs


def test_poisoned_moves_are_tried() -> None:
    """The property above poisons real moves (not an empty loop): one seed per game, on its own
    (it once read what the property's runs left behind, which another worker never sees)."""
    tried = {info.name: poisoned_run(info, 1, 3, 0) for info in GAMES}
    assert sum(tried.values()) > 0, tried
