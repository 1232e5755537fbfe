"""The journal-append benchmark, tiny (a few appends of each kind on PostgreSQL): it
appends both ways and prints their figures and ratio (not a measurement)."""

from __future__ import annotations

from pathlib import Path

import pytest

from serverkit import POSTGRES_URL, need_services

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.postgres
def test_a_tiny_run_appends_both_ways_and_prints_the_ratio(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    need_services()
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import journal_append

    args = ["--postgres-url", POSTGRES_URL, "--appends", "20", "--rounds", "1", "--writers", "2"]
    assert journal_append.main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == [
        "round 1   transaction",
        "round 1 one statement",
    ]
    assert all("20 appends" in line for line in lines[:2])
    assert lines[2].startswith("median mean: one statement") and lines[2].endswith("x")
