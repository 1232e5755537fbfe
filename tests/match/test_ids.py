"""A state's gnubg ID and XGID agree with each other the way gnubg converts them."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.match import Match, TableOptions
from gammon.match.ids import gnubg_id, match_id_record, xgid
from gammon.notation.matchid import decode_match_id, parse_gnubg_id, xgid_to_gnubg_id
from gammon.notation.xgid_record import parse_xgid
from strategies import random_action


@settings(max_examples=12)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0, 3, 7]), st.booleans())
def test_ids_of_every_state_of_random_matches(seed: int, length: int, jacoby: bool) -> None:
    rng = random.Random(seed)
    options = TableOptions(match_length=length, jacoby=jacoby and not length, beaver=not length)
    match = Match(options)
    for _ in range(300):
        state = match.state
        if state.over:
            break
        text = gnubg_id(state)
        position, rec = parse_gnubg_id(text)
        assert position == state.game.position
        assert rec == match_id_record(state)
        assert decode_match_id(text.split(":")[1]).score == state.score
        x = parse_xgid(xgid(state))
        assert x.position == state.game.position
        assert (x.score_top, x.score_bottom) == state.score
        assert x.cube_value == state.game.cube.value
        if state.game.phase in ("turn", "moving"):
            # gnubg's own XGID import gives the same gnubg ID
            assert xgid_to_gnubg_id(xgid(state)) == text
        match.push(random_action(state, rng))
