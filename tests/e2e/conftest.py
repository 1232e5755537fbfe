"""Browser tests of the web client: a real ``gammon serve`` and Debian's Chromium.

The browser is driven by Playwright for Python, but Playwright's own browser builds are never
downloaded: the tests launch the system ``chromium`` (``apt-get install chromium``) through
``executable_path``.  Without it (or without the ``playwright`` package) the tests are skipped,
except under CI (``CI`` set), where they fail instead.

Every page a test opens is watched: a console error or an uncaught exception fails the test.
The helpers are in ``kit.py``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from e2e.kit import WAIT_MS, Browse, GammonServer, Watch, chromium_path, playwright_api, unavailable

if TYPE_CHECKING:
    from playwright.sync_api import Browser

#: A browser test that fails is run once more (pytest-rerunfailures; the rerun is reported
#: as R in the summary).  On a loaded two-core CI machine a real server, bot and Chromium
#: occasionally miss a click or a timeout; a bug fails both runs.
RERUNS = 1


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Print why a browser test's first attempt failed: the rerun summary names it only."""
    if report.outcome == "rerun":
        lines = report.longreprtext.splitlines()[-25:]
        for title, text in report.sections:
            if title.startswith("gammon serve"):
                lines += [f"--- {title}:", *text.splitlines()]
        print(f"\n--- first attempt of {report.nodeid} failed:", *lines, sep="\n", file=sys.stderr)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed browser test's report ends with its server's last log lines (the shared
    server logs to the end of the session, so its lines were never shown)."""
    report = yield
    if report.failed and call.when == "call":
        funcargs: dict[str, Any] = getattr(item, "funcargs", {})
        for name, srv in funcargs.items():
            if isinstance(srv, GammonServer):
                text = "\n".join(srv.output[-40:]) or "(nothing logged)"
                report.sections.append((f"gammon serve ({name}), last lines", text))
    return report


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give every browser test its one retry."""
    for item in items:
        if item.get_closest_marker("e2e") is not None:
            item.add_marker(pytest.mark.flaky(reruns=RERUNS, reruns_delay=1))


@pytest.fixture(scope="session")
def chromium() -> str:
    """The system Chromium's path (the tests skip, or fail under CI, without it)."""
    if playwright_api is None:
        unavailable("the playwright package is not installed (pip install -e '.[dev]')")
    path = chromium_path()
    if path is None:
        unavailable("Chromium is not installed (apt-get install -y chromium)")
    assert path is not None
    return path


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[Browser]:
    """One headless Chromium for the whole session."""
    assert playwright_api is not None
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="session")
def server(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[GammonServer]:
    """A server shared by the tests that do not restart it (each test uses new accounts)."""
    srv = GammonServer(tmp_path_factory.mktemp("gammon-e2e") / "gammon.db")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def own_server(chromium: str, tmp_path: Path) -> Iterator[GammonServer]:
    """A server of the test's own (it may kill and restart it)."""
    srv = GammonServer(tmp_path / "gammon.db")
    srv.start()
    yield srv
    srv.stop()


# --------------------------------------------------------------------------- pages


@pytest.fixture
def watch() -> Watch:
    """The console watch of the test (``watch.allow(pattern)`` to tolerate an error)."""
    return Watch()


@pytest.fixture
def browse(browser: Browser, watch: Watch) -> Iterator[Browse]:
    """Open pages; the test fails if any of them logged an error or threw."""
    b = Browse(browser, watch)
    yield b
    b.close()
    if watch.errors:
        pytest.fail("the browser reported errors:\n" + "\n".join(watch.errors))


@pytest.fixture
def expect() -> Callable[..., Any]:
    """Playwright's auto-retrying assertions (waiting as long as the other helpers)."""
    assert playwright_api is not None
    playwright_api.expect.set_options(timeout=WAIT_MS)
    return playwright_api.expect
