"""The profile benchmark's seed and page path, small (1,000 players): the seeded figures
agree with each other and every timed page answers (not a timing test)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the benchmark needs the server extra")

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_seed_then_time_every_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import profile_pages
    import seed_players
    from gammon.storage import Database, Standings, Store

    url = f"sqlite:///{tmp_path / 'small.db'}"
    done = seed_players.seed(url, players=1000, results=5000)
    assert (done.players, done.results) == (1000, 5000)
    assert 9000 < done.history < 10_000  # two accounts per match, one against a bot
    db = Database(url)
    try:
        store, standings = Store(db), Standings(db)
        heavy = store.user_by_name("heavy")
        assert heavy is not None
        record = standings.record(heavy.id)
        listed = standings.history(heavy.id, limit=10_000)
        assert record["wins"] + record["losses"] == len(listed) > 20
        rated = {r.pool: r for r in standings.ratings(heavy.id)}
        series = standings.rating_series(heavy.id, "backgammon", limit=10_000)
        assert series[-1][1] == pytest.approx(rated["backgammon"].rating)
        assert len(series) - 1 == rated["backgammon"].matches
    finally:
        db.close()
    with profile_pages.serving(url) as base:
        times = profile_pages.time_pages(base, url, 1000, 3, random.Random(1))
    assert {name: len(values) for name, values in times.items()} == {
        "profile": 3,
        "profile deep": 3,
        "profile filtered": 3,
        "leaderboard": 3,
    }
    for name in ("profile_pages", "seed_players"):
        sys.modules.pop(name, None)
