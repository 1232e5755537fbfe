"""A money session with a stake and no cube limit chosen gets a sensible limit instead of a
refusal (issue #18, item 6); a chosen limit and a table without the cube stay as they are."""

from __future__ import annotations

from gammon.server.table.forms import STAKED_CUBE_LIMIT, table_request


def test_a_staked_form_without_a_cube_limit_gets_one() -> None:
    form = {"match_length": "0", "stake": "5", "cube": "on", "cube_limit": ""}
    assert table_request(form, form=True).options.cube_limit == STAKED_CUBE_LIMIT
    assert table_request({"stake": 5}, form=False).options.cube_limit == STAKED_CUBE_LIMIT


def test_a_chosen_limit_or_no_cube_is_kept() -> None:
    chosen = {"match_length": "0", "stake": "5", "cube": "on", "cube_limit": "16"}
    assert table_request(chosen, form=True).options.cube_limit == 16
    cubeless = table_request({"match_length": "0", "stake": "5"}, form=True).options
    assert not cubeless.cube
    free = table_request({"match_length": "0", "stake": "0", "cube": "on"}, form=True).options
    assert free.cube_limit is None
