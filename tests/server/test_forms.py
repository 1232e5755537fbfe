"""The form's on/off options are the bool fields of TableOptions: one list
(``gammon.match.options.BOOLEAN_OPTIONS``), so a new bool option is read by the form
without a second list to keep in step."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from gammon.match import TableOptions
from gammon.match import options as match_options
from gammon.server.protocol import ServerError
from gammon.server.table import forms


@dataclass(frozen=True, slots=True)
class _Wider(TableOptions):
    """TableOptions with one more on/off option, as a later change might add."""

    extra: bool = False


def test_the_list_is_the_bool_fields_of_the_options() -> None:
    assert forms.BOOLEAN_OPTIONS is match_options.BOOLEAN_OPTIONS
    assert match_options.boolean_fields(TableOptions) == match_options.BOOLEAN_OPTIONS
    assert "spectator_chat" not in forms.BOOLEAN_OPTIONS  # bool | None: read on its own
    assert match_options.boolean_fields(_Wider) == (*match_options.BOOLEAN_OPTIONS, "extra")


@pytest.mark.parametrize("name", match_options.boolean_fields(TableOptions))
def test_the_form_reads_every_bool_option(name: str) -> None:
    with pytest.raises(ServerError, match=f"{name} must be true or false"):
        forms.table_request({name: "maybe"}, form=True)
    with pytest.raises(ServerError, match=f"{name} must be true or false"):
        forms.table_request({name: 3}, form=False)


def test_an_absent_checkbox_is_false_for_every_bool_option() -> None:
    options = forms.table_request({}, form=True).options
    assert not any(getattr(options, name) for name in forms.BOOLEAN_OPTIONS)


def test_the_opening_rule_is_read_like_first_move() -> None:
    """``opening`` (issue #32): ``play`` or ``reroll``; empty or absent is the variant's."""
    assert forms.table_request({"opening": "reroll"}, form=False).options.opening == "reroll"
    assert forms.table_request({"opening": ""}, form=True).options.opening == "play"
    tavli = forms.table_request({"variant": "tavli", "match_length": 5, "opening": ""}, form=False)
    assert tavli.options.opening == "reroll"
    with pytest.raises(ServerError, match="opening must be play or reroll, got 'twice'"):
        forms.table_request({"opening": "twice"}, form=False)
