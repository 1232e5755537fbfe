"""The browser code's own checks, run from pytest: the JavaScript unit tests
(``node --test tests/js/``) and TypeScript's checker over every file under static/
(``tsc -p jsconfig.json``: ``// @ts-check`` and JSDoc types), plus the movebuilder's fixtures
being what the server answers today (tests/js/make_fixtures.py).

Skipped, with the reason, where Node or node_modules is missing (``scripts/bootstrap.sh dev``
runs ``npm ci``); on CI (``CI`` set) they must be there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from js.make_fixtures import CASES, OUT, Case, fixture

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "gammon" / "server" / "static"
TSC = ROOT / "node_modules" / ".bin" / "tsc"


def _need(what: str, present: bool) -> None:
    if present:
        return
    reason = f"{what} (run scripts/bootstrap.sh dev, which runs npm ci)"
    if os.environ.get("CI"):
        pytest.fail(f"CI must have {reason}")
    pytest.skip(f"no {reason}")


def _run(*cmd: str) -> None:
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}"


def test_the_javascript_unit_tests_pass() -> None:
    node = shutil.which("node")
    _need("node", node is not None)
    assert node is not None
    _run(node, "--test", "tests/js/")


def test_typescript_checks_every_file_under_static() -> None:
    _need("node", shutil.which("node") is not None)
    _need("node_modules/.bin/tsc", TSC.exists())
    unchecked = [
        str(p.relative_to(STATIC))
        for p in sorted(STATIC.rglob("*.js"))
        if not p.read_text(encoding="utf-8").startswith("// @ts-check\n")
    ]
    assert not unchecked, f"no // @ts-check on the first line of {unchecked}"
    _run(str(TSC), "-p", "jsconfig.json")


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_fixtures_are_the_servers_answers(case: Case) -> None:
    name, make, note, exact = case
    pos, dice = make()
    want = fixture(name, pos, dice, note, exact=exact)
    have = json.loads((OUT / f"{name}.json").read_text(encoding="utf-8"))
    assert have == want, f"tests/js/fixtures/{name}.json is stale: run tests/js/make_fixtures.py"
