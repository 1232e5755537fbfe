"""The registries of client messages, actions, engine events and journal entries agree
with each other, with the code that uses them, and with docs/protocol.md; the server
package has no import cycle."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import get_args

import pytest

from gammon.dice import Dice
from gammon.errors import InsufficientBalanceError
from gammon.match import TableOptions, action_to_dict
from gammon.match.actions import ACTIONS, Double, Play, Roll, Take
from gammon.match.events import ENGINE_EVENTS
from gammon.server.protocol import (
    ACTION_TYPES,
    CLIENT_MESSAGES,
    SERVER_MESSAGES,
    ServerError,
    error_code,
    parse_client_message,
)
from gammon.server.table.journal import JOURNAL, EntryKind, check_entry
from gammon.server.table.state import initial_state, reduce
from importgraph import cycles, import_graph, module_paths

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL_MD = ROOT / "docs" / "protocol.md"


def _section(text: str, heading: str) -> str:
    """The body of a markdown section, up to the next heading of any level."""
    match = re.search(rf"^#+ {re.escape(heading)}\n(.*?)(?=^#)", text, re.S | re.M)
    assert match is not None, f"docs/protocol.md has no section {heading!r}"
    return match.group(1)


def _first_column(section: str) -> set[str]:
    """The backticked names in the first column of a section's table."""
    names: set[str] = set()
    for line in section.splitlines():
        cells = line.split("|")
        if len(cells) < 3 or set(cells[1].strip()) <= {"-", " "}:
            continue
        names.update(re.findall(r"`([a-z_]+)`", cells[1]))
    names.discard("type")  # the header row
    names.discard("kind")
    return names


@pytest.fixture(scope="module")
def doc() -> str:
    return PROTOCOL_MD.read_text(encoding="utf-8")


def test_client_messages_are_documented(doc: str) -> None:
    assert _first_column(_section(doc, "Client to server")) == set(CLIENT_MESSAGES)


def test_server_messages_are_documented(doc: str) -> None:
    assert _first_column(_section(doc, "Server to client")) == set(SERVER_MESSAGES)


def test_journal_kinds_are_documented(doc: str) -> None:
    assert _first_column(_section(doc, "Event kinds")) == set(JOURNAL)


def test_engine_events_are_documented(doc: str) -> None:
    assert _first_column(_section(doc, "Engine events")) == set(ENGINE_EVENTS)


def test_every_action_is_documented(doc: str) -> None:
    client_table = _first_column(_section(doc, "Client to server"))
    for name, spec in ACTIONS.items():
        if spec.client:
            assert name in client_table
        else:  # the server's alone: the docs say so
            assert f"`{name}` is the server's alone" in doc


def test_action_messages_come_from_the_action_registry() -> None:
    assert {name for name, spec in ACTIONS.items() if spec.client} == ACTION_TYPES
    assert set(CLIENT_MESSAGES) >= ACTION_TYPES
    for name in ACTION_TYPES:
        spec = CLIENT_MESSAGES[name]
        given = [f.name for f in ACTIONS[name].fields if f.from_client]
        assert set(spec.fields) == {*given, "version", "player"}
        assert spec.required == tuple(given)


def test_server_only_actions_and_fields_are_forbidden() -> None:
    for name, action in ACTIONS.items():
        if not action.client:
            with pytest.raises(ServerError) as refused:
                parse_client_message(f'{{"type": "{name}"}}', 4096)
            assert refused.value.code == "forbidden"
        for field in action.fields:
            if not field.from_client and action.client:
                raw = f'{{"type": "{name}", "{field.name}": "31"}}'
                with pytest.raises(ServerError) as refused:
                    parse_client_message(raw, 4096)
                assert refused.value.code == "forbidden"


def test_journal_kinds_are_one_list() -> None:
    assert tuple(JOURNAL) == get_args(EntryKind)
    for name, kind in JOURNAL.items():
        assert kind.name == name
        assert not set(kind.required) & set(kind.optional)
        assert set(kind.private) <= set(kind.required) | set(kind.optional)


def test_reduce_refuses_unregistered_kinds_and_missing_fields() -> None:
    state = initial_state("t1", {"by": "a", "private": False, "options": {}}, 0)
    with pytest.raises(ServerError, match="unknown journal entry kind 'fly'"):
        reduce(state, "fly", {}, 1)
    for name, kind in JOURNAL.items():
        for missing in kind.required:
            data = {field: 0 for field in kind.required if field != missing}
            with pytest.raises(ServerError) as refused:
                reduce(state, name, data, 1)
            assert refused.value.code == "bad_message"
            assert str(refused.value) == f"a {name} entry needs {missing}"
    assert check_entry("resume", {}).name == "resume"


def test_the_balance_guard_is_the_engines() -> None:
    """A journal whose start gave the engine balances (tables from before escrow): a take
    the balance does not cover is refused by the engine, with the protocol's code."""
    options = TableOptions(stake=10, cube_limit=4)  # needs 120
    state = initial_state("t1", {"by": "a", "private": False, "options": options.to_dict()}, 0)
    for seat, name in enumerate(("alice", "bob")):
        sit = {"seat": seat, "name": name, "kind": "user", "user": seat + 1, "level": None}
        state, _ = reduce(state, "sit", sit, 1)
    start = {"commitment": "c", "players": ["alice", "bob"], "balances": [120, 500]}
    state, _ = reduce(state, "start", start, 2)
    assert state.match is not None
    state = replace(state, match=replace(state.match, balances=(50, 500)))
    for action in (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5"), Double(1)):
        state, _ = reduce(state, "action", {"action": action_to_dict(action)}, 3)
    with pytest.raises(InsufficientBalanceError) as refused:
        reduce(state, "action", {"action": action_to_dict(Take(0))}, 4)
    assert error_code(refused.value) == "insufficient_balance"
    assert "player 0 cannot take" in str(refused.value)


def test_the_server_has_no_import_cycle() -> None:
    graph = import_graph(n for n in module_paths() if n.startswith("gammon.server"))
    assert "gammon.server.table.actor.actor" in graph and "gammon.server.web.pages" in graph
    assert graph["gammon.server.web.pages"], "pages imports other server modules"
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)
