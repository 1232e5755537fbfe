"""Reading a create-table request from an HTML form or a JSON object.

>>> req = table_request({"match_length": "5", "cube": "on", "crawford": "on"}, form=True)
>>> req.options.match_length, req.options.cube, req.options.jacoby, req.opponent
(5, True, False, 'human')
>>> table_request({"match_length": 7, "beaver": True}, form=False)
Traceback (most recent call last):
...
gammon.server.protocol.ServerError: beaver is a money-play option; it is refused in a 7-point match

Without ``cube`` the variant decides: the cubeless variants (tavla, the Greek games, long
nardy, jacquet, acey-deucey) get ``cube=false``.  A form cannot play one with a cube: its
cube options are left out.

>>> table_request({"variant": "fevga"}, form=False).options.cube
False
>>> tavli = table_request({"variant": "tavli", "match_length": 5, "first_move": ""}, form=False)
>>> tavli.options.cube, tavli.options.first_move
(False, 'winner')
>>> table_request({"variant": "tavla", "cube": "on", "crawford": "on"}, form=True).options.cube
False
>>> table_request({"match_length": 3, "rated": "on"}, form=True).options.spectator_chat
False
>>> table_request({"match_length": 3, "spectator_chat": "off"}, form=True).options.spectator_chat
False
>>> table_request({"variant": "plakoto", "cube": True}, form=False)
Traceback (most recent call last):
...
gammon.server.protocol.ServerError: the plakoto variant is played without a cube
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from gammon.errors import InvalidOptionsError
from gammon.match import ClockSettings, TableOptions
from gammon.match.options import BOOLEAN_OPTIONS
from gammon.server.protocol import ServerError
from gammon.server.table.hub import TableRequest
from gammon.variants import ROTATIONS, VARIANTS, rotation

__all__ = ["BOOLEAN_OPTIONS", "STAKED_CUBE_LIMIT", "table_request"]

_INT_OPTIONS: Final = ("match_length", "stake", "automatic_doubles")
_TEXT_OPTIONS: Final = ("variant", "end_setting", "first_move", "opening")
#: What an integer field may look like as text (ASCII digits only: ``re.ASCII``).
_INTEGER: Final = re.compile(r"\s*[-+]?[0-9]{1,11}\s*", re.ASCII)
_EXTRA: Final = frozenset(
    {
        "seat",
        "opponent",
        "bot_level",
        "private",
        "csrf_token",
        "clock_delay",
        "clock_reserve_base",
        "clock_reserve_per_point",
        "clock_days",
    }
)


#: The cube limit of a staked table whose form or request chose none.
STAKED_CUBE_LIMIT: Final = 8


def _bad(message: str) -> ServerError:
    return ServerError("invalid_options", message)


def _flag(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("on", "true", "1", "yes"):
        return True
    if isinstance(value, str) and value.lower() in ("off", "false", "0", "no", ""):
        return False
    raise _bad(f"{name} must be true or false")


def _integer(value: Any, name: str) -> int:
    """An integer field: a JSON integer, or text of ASCII digits with an optional sign
    (not ``"--5"`` nor ``"²"``, which :meth:`str.isdigit` lets through).

    >>> _integer(" -5 ", "stake"), _integer(7, "stake")
    (-5, 7)
    >>> _integer("²", "stake")
    Traceback (most recent call last):
    ...
    gammon.server.protocol.ServerError: stake must be an integer
    """
    if type(value) is int:
        return value
    if isinstance(value, str) and _INTEGER.fullmatch(value):
        return int(value)
    raise _bad(f"{name} must be an integer")


def _number(value: Any, name: str) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str) and len(value) < 20:
        try:
            return float(value)
        except ValueError:
            pass
    raise _bad(f"{name} must be a number of seconds")


def table_request(data: Mapping[str, Any], *, form: bool) -> TableRequest:
    """A :class:`TableRequest`; ``form=True`` reads HTML form semantics (an absent
    checkbox is false), else JSON (an absent field keeps its default)."""
    known = {
        *BOOLEAN_OPTIONS,
        *_INT_OPTIONS,
        *_TEXT_OPTIONS,
        "cube_limit",
        "clock",
        "spectator_chat",
        *_EXTRA,
    }
    unknown = [str(k) for k in data if k not in known]
    if unknown:
        raise ServerError("bad_message", f"unknown fields: {', '.join(sorted(unknown))[:200]}")
    values: dict[str, Any] = {}
    for name in BOOLEAN_OPTIONS:
        if name in data:
            values[name] = _flag(data[name], name)
        elif form:
            values[name] = False
    for name in _INT_OPTIONS:
        if name in data and data[name] not in ("", None):
            values[name] = _integer(data[name], name)
    for name in _TEXT_OPTIONS:
        if name in data:
            if not isinstance(data[name], str) or len(data[name]) > 40:
                raise _bad(f"{name} must be text")
            values[name] = data[name]
    # "visitors may chat": absent (or null) is the table's kind (TableOptions); the lobby's
    # form sends "off" in a hidden field before its checkbox, so an unticked box says so
    if data.get("spectator_chat") is not None:
        values["spectator_chat"] = _flag(data["spectator_chat"], "spectator_chat")
    for name in ("first_move", "opening"):
        if values.get(name) == "":
            del values[name]  # the variant's custom (the lobby's "traditional")
    limit = data.get("cube_limit")
    if limit not in (None, "", "none"):
        values["cube_limit"] = _integer(limit, "cube_limit")
    elif values.get("stake") and values.get("cube", True):
        # a staked table needs a cube limit (what one game can cost): a sensible one
        values["cube_limit"] = STAKED_CUBE_LIMIT
    chosen = values.get("variant", "standard")
    if (chosen in VARIANTS or chosen in ROTATIONS) and not all(v.cube for v in rotation(chosen)):
        if form:
            # the lobby's script disables the cube options for such a variant; without
            # it they may still come ticked: they do not apply
            for name in ("cube", "beaver", "raccoon"):
                values[name] = False
            values.pop("cube_limit", None)
            values.pop("automatic_doubles", None)
        elif "cube" not in data:
            values["cube"] = False  # the variant's own setting
    try:
        return _finish(data, values, form=form)
    except InvalidOptionsError as exc:
        raise _bad(str(exc)) from None


def _finish(data: Mapping[str, Any], values: dict[str, Any], *, form: bool) -> TableRequest:
    clock = data.get("clock")
    days = data.get("clock_days")
    if form and days not in (None, ""):  # correspondence: days per move (docs/notifications.md)
        count = _integer(days, "clock_days")
        if not 1 <= count <= 7:
            raise _bad("a correspondence game gives 1 to 7 days per move")
        values["clock"] = ClockSettings(count * 86400.0, 0, 0, correspondence=True)
    elif form:
        if clock is not None and _flag(clock, "clock"):
            values["clock"] = ClockSettings(
                _number(data.get("clock_delay", 12), "clock_delay"),
                _number(data.get("clock_reserve_base", 60), "clock_reserve_base"),
                _number(data.get("clock_reserve_per_point", 60), "clock_reserve_per_point"),
            )
    elif clock is not None:
        if not isinstance(clock, dict) or set(clock) - {
            "delay",
            "reserve_base",
            "reserve_per_point",
            "correspondence",
        }:
            raise _bad("clock is null or {delay, reserve_base, reserve_per_point, correspondence}")
        by_mail = _flag(clock.get("correspondence", False), "clock correspondence")
        numbers = {k: _number(v, f"clock {k}") for k, v in clock.items() if k != "correspondence"}
        values["clock"] = ClockSettings(**numbers, correspondence=by_mail)
    options = TableOptions(**values)
    seat = _integer(data.get("seat", 0), "seat")
    if seat not in (0, 1):
        raise _bad("seat must be 0 or 1")
    opponent = data.get("opponent", "human")
    if opponent not in ("human", "bot"):
        raise _bad("opponent must be human or bot")
    level = data.get("bot_level", "intermediate")
    if not isinstance(level, str):
        raise _bad("bot_level must be text")
    private = _flag(data.get("private", False), "private")
    return TableRequest(options, seat, str(opponent), level, private)
