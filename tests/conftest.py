"""Shared test configuration: Hypothesis profiles and data paths."""

from __future__ import annotations

import ast
import asyncio
import builtins
import json
import logging
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

DATA = Path(__file__).parent / "data"

settings.register_profile("dev", max_examples=150, deadline=None)
settings.register_profile(
    "ci", max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


#: Python 3.11 keeps one recursion counter for all of its AST conversions, shared by every
#: thread (CPython issue 106905): two threads parsing at once leave it off, and the next
#: parse raises "SystemError: AST constructor recursion depth mismatch".  A test's server
#: runs in a thread of the test process and logs tracebacks (3.11's traceback module parses
#: each line for its carets) while pytest parses too (rewriting a test module's asserts,
#: finding the statement of a failure): twice it crashed a whole run (INTERNALERROR).
#: The parses and compilations of the test process take turns.
_AST_TURNS = threading.RLock()
_ast_parse = ast.parse
_compile = builtins.compile


def _parse_in_turn(*args: Any, **kwargs: Any) -> Any:
    with _AST_TURNS:
        return _ast_parse(*args, **kwargs)


def _compile_in_turn(*args: Any, **kwargs: Any) -> Any:
    with _AST_TURNS:
        return _compile(*args, **kwargs)


if sys.version_info < (3, 12):
    ast.parse = _parse_in_turn  # type: ignore[assignment]
    builtins.compile = _compile_in_turn


_asyncio_run = asyncio.run


def _run_beside_playwright(main: Any, *, debug: bool | None = None) -> Any:
    """``asyncio.run`` that also works in a test worker where a browser test left
    Playwright's loop running in the thread (its sync API keeps one for the session):
    then the coroutine runs on a loop of a thread of its own.  Tests and doctests
    (``src/``) call ``asyncio.run`` as an application would; this keeps them independent
    of which tests a worker ran before.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _asyncio_run(main, debug=debug)
    result: list[Any] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            result.append(_asyncio_run(main, debug=debug))
        except BaseException as exc:  # handed back to the test's thread
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return result[0]


asyncio.run = _run_beside_playwright


def load_json(name: str) -> Any:
    """A JSON file from tests/data."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _fail_on_error_logs(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Any ERROR log record that a test did not expect fails it."""
    caplog.set_level(logging.WARNING)
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    if errors:
        pytest.fail(f"unexpected ERROR log: {errors[0].getMessage()}")
