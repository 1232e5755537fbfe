"""Fixtures of the server tests (the helpers are in tests/serverkit.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra")

from serverkit import Player, RunningServer, member, start_server, test_settings


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """One server (SQLite) shared by a test module."""
    running = start_server(test_settings(tmp_path_factory.mktemp("server")))
    yield running
    running.stop()


@pytest.fixture
def players(server: RunningServer) -> Iterator[Callable[[], Player]]:
    """Make guest players on the module's server; closed after the test."""
    made: list[Player] = []

    def make() -> Player:
        p = Player(server).guest()
        made.append(p)
        return p

    yield make
    for p in made:
        p.close()


@pytest.fixture
def members(server: RunningServer) -> Iterator[Callable[[], Player]]:
    """Make players with accounts (signed up) on the module's server; closed after the test."""
    made: list[Player] = []

    def make() -> Player:
        made.append(member(server))
        return made[-1]

    yield make
    for p in made:
        p.close()
