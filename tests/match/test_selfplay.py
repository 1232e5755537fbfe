"""Hypothesis: random self-play with random legal actions always ends and scores right."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.match import (
    Match,
    TableOptions,
    replay,
)
from strategies import random_action


@st.composite
def table_options(draw: st.DrawFn) -> TableOptions:
    money = draw(st.booleans())
    cube = draw(st.booleans()) or not money
    limit = draw(st.sampled_from([None, 2, 4, 8, 64])) if cube else None
    beaver = money and cube and draw(st.booleans())
    stake = draw(st.sampled_from([0, 1, 5])) if money and (not cube or limit) else 0
    return TableOptions(
        variant=draw(st.sampled_from(["standard", "caucasian", "nackgammon"])),
        match_length=0 if money else draw(st.integers(1, 5)),
        stake=stake,
        cube=cube,
        cube_limit=limit,
        crawford=draw(st.booleans()),
        jacoby=money and draw(st.booleans()),
        beaver=beaver,
        raccoon=beaver and draw(st.booleans()),
        # at most one automatic double per doubling the cube limit allows
        automatic_doubles=min(draw(st.integers(0, 2)), (limit or 4096).bit_length() - 1)
        if money and cube
        else 0,
        end_setting=draw(st.sampled_from(["oin", "mars", "cox"])),
        draw_last_roll=draw(st.booleans()),
        first_move=draw(st.sampled_from(["rolloff", "loser", "alternate"])),
        opening=draw(st.sampled_from([None, "reroll"])),
    )


@settings(max_examples=80)
@given(table_options(), st.integers(0, 2**32 - 1))
def test_random_self_play_ends_and_scores_right(options: TableOptions, seed: int) -> None:
    rng = random.Random(seed)
    match = Match(options)
    money_games = 3
    for _ in range(20000):
        state = match.state
        if state.over or (not options.is_match and len(state.games) >= money_games):
            break
        match.push(random_action(state, rng))
    state = match.state
    assert state.over or (not options.is_match and len(state.games) >= money_games), "did not end"
    for game in state.games:
        if game.reason == "draw":
            assert game.winner is None and game.points == 0
        elif game.reason == "drop":
            assert game.result == 1 and game.points in (game.cube, game.cube // 2)
        else:
            assert 1 <= game.result <= min(3, {"oin": 1, "mars": 2, "cox": 3}[options.end_setting])
            assert game.points == game.result * game.cube
    # points = result x cube x stake, and the ledger always balances
    assert sum(e.amount for e in state.ledger) == 0
    paid = sum(e.amount for e in state.ledger if e.amount > 0)
    assert paid == options.stake * sum(g.points for g in state.games)
    if options.is_match:
        n = options.match_length
        assert state.winner is not None and state.score[state.winner] == n
        assert state.score[1 - state.winner] < n
        # the Crawford game is exactly the first game after a game that left a player at
        # N-1 (so never game 1, not even in a 1-point match)
        score = [0, 0]
        expected = []
        reached = False
        for i, g in enumerate(state.games):
            crawford = options.crawford and not reached and i > 0 and max(score) == n - 1
            reached = reached or crawford
            expected.append(crawford)
            if g.winner is not None:
                score[g.winner] = min(n, score[g.winner] + g.points)
        assert [g.crawford for g in state.games] == expected
        assert sum(expected) <= 1
        totals = [0, 0]
        for g in state.games:
            if g.winner is not None:
                totals[g.winner] += g.points
        assert min(totals[state.winner], n) == n
    # replaying the log reproduces every state
    again = Match.from_log(match.to_log())
    assert again.states == match.states
    assert replay(match.record()) == list(match.states)


@settings(max_examples=60)
@given(
    st.integers(1, 7),
    st.integers(0, 6),
    st.integers(0, 6),
    st.sampled_from([None, False]),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_a_match_from_any_score_ends_at_its_length(
    length: int, a: int, b: int, crawford: bool | None, rule: bool, seed: int
) -> None:
    """A match started part-way keeps every rule: the end at N, one Crawford game at most."""
    options = TableOptions(match_length=length, crawford=rule)
    start = (min(a, length - 1), min(b, length - 1))
    match = Match(options, score=start, crawford=crawford)
    first = match.state
    rng = random.Random(seed)
    for _ in range(20000):
        if match.state.over:
            break
        match.push(random_action(match.state, rng))
    state = match.state
    assert state.over and state.winner is not None and state.score[state.winner] == length
    flags = [g.crawford for g in state.games]
    assert sum(flags) <= 1 and (sum(flags) == 0 or rule)
    # the first game is the Crawford game exactly when one side starts a point away
    # (not both), the rule is on, and nobody said it was already played
    one_away = [s == length - 1 for s in start]
    expected_first = rule and any(one_away) and not all(one_away) and crawford is None
    assert first.game.crawford is expected_first
    assert flags[0] is expected_first
    # points scored add up from the starting score
    totals = list(start)
    for g in state.games:
        if g.winner is not None:
            totals[g.winner] += g.points
    assert min(totals[state.winner], length) == length
    again = Match.from_log(match.to_log())
    assert again.states == match.states
