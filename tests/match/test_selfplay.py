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
        automatic_doubles=draw(st.integers(0, 2)) if money and cube else 0,
        end_setting=draw(st.sampled_from(["oin", "mars", "cox"])),
        draw_last_roll=draw(st.booleans()),
        first_move=draw(st.sampled_from(["rolloff", "loser", "alternate"])),
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
