"""``/metrics`` (behind its token), ``/readyz`` and ``/healthz`` on a real server
(gammon.server.infra.metrics, gammon.server.web.ops), read through a strict parser of
Prometheus' text format 0.0.4."""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from gammon.server.infra.metrics import MAX_SERIES, Counter, Histogram, MetricsError
from gammon.server.infra.settings import Settings, SettingsError
from serverkit import Player, RunningServer, play_move, start_pair, start_server
from serverkit import test_settings as settings_in

TOKEN = "t0ken-for-the-metrics-test"

_NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
_LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\["\\n])*"'
_SAMPLE = re.compile(
    rf"({_NAME})(?:\{{({_LABEL}(?:,{_LABEL})*)?\}})? "
    r"(-?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)|\+Inf|-Inf|NaN)"
)
_PAIR = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"')

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def parse_exposition(text: str) -> tuple[dict[str, str], Samples]:
    """The families' types and every sample of an exposition text, checked line by line
    against the format's grammar: HELP then TYPE before a family's samples, each family
    once, each sample once, a histogram's buckets cumulative up to +Inf = its count."""
    assert text.endswith("\n"), "the text must end with a line feed"
    types: dict[str, str] = {}
    helped: set[str] = set()
    samples: Samples = {}
    current = ""
    for line in text[:-1].split("\n"):
        if line.startswith("# HELP "):
            name = line.split(" ", 3)[2]
            assert re.fullmatch(_NAME, name) and name not in helped, line
            helped.add(name)
            current = name
            continue
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ")
            assert name == current and name not in types, line
            assert kind in ("counter", "gauge", "histogram", "summary", "untyped"), line
            types[name] = kind
            continue
        assert not line.startswith("#") and line.strip() == line and line, repr(line)
        match = _SAMPLE.fullmatch(line)
        assert match is not None, f"not a sample line: {line!r}"
        name, labels, value = match.groups()
        family = current
        suffix = name[len(family) :]
        if types.get(family) == "histogram":
            assert suffix in ("_bucket", "_sum", "_count"), line
        else:
            assert suffix == "", f"{name} outside its family {family}"
        pairs = frozenset(_PAIR.findall(labels or ""))
        assert len(pairs) == len(_PAIR.findall(labels or "")), f"a label twice: {line}"
        key = (name, pairs)
        assert key not in samples, f"sample twice: {line}"
        samples[key] = float(value.replace("+Inf", "inf").replace("-Inf", "-inf"))
    for family, kind in types.items():
        if kind != "histogram":
            continue
        series: dict[frozenset[tuple[str, str]], list[tuple[float, float]]] = {}
        for (name, pairs), value in samples.items():
            if name == family + "_bucket":
                le = dict(pairs)["le"]
                rest = frozenset(p for p in pairs if p[0] != "le")
                series.setdefault(rest, []).append((float(le.replace("+Inf", "inf")), value))
        for rest, buckets in series.items():
            buckets.sort()
            counts = [c for _, c in buckets]
            assert counts == sorted(counts), f"{family} buckets not cumulative"
            assert buckets[-1][0] == float("inf")
            assert samples[(family + "_count", rest)] == counts[-1]
            assert (family + "_sum", rest) in samples
    return types, samples


def value(samples: Samples, name: str, **labels: str) -> float:
    """One sample's value (0 when the series is not there yet)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """A server with a metrics token."""
    running = start_server(settings_in(tmp_path_factory.mktemp("metrics"), metrics_token=TOKEN))
    yield running
    running.stop()


@pytest.fixture
def guarded_players(guarded: RunningServer) -> Iterator[Callable[[], Player]]:
    made: list[Player] = []

    def make() -> Player:
        made.append(Player(guarded).guest())
        return made[-1]

    yield make
    for p in made:
        p.close()


def scrape(server: RunningServer) -> tuple[dict[str, str], Samples]:
    r = httpx.get(f"{server.url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    return parse_exposition(r.text)


def test_without_a_token_setting_metrics_is_not_there(server: RunningServer) -> None:
    assert server.settings.metrics_token is None
    r = httpx.get(f"{server.url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 404
    assert "gammon_" not in r.text


@pytest.mark.parametrize(
    "header",
    [None, "Bearer wrong-token-of-some-length", f"Basic {TOKEN}", f"Bearer {TOKEN}x", "Bearer"],
)
def test_a_wrong_or_missing_token_is_refused(guarded: RunningServer, header: str | None) -> None:
    r = httpx.get(f"{guarded.url}/metrics", headers={"Authorization": header} if header else None)
    assert r.status_code == 401
    assert r.headers["www-authenticate"].startswith("Bearer")
    assert "gammon_" not in r.text


def test_the_text_parses_and_holds_every_family(guarded: RunningServer) -> None:
    types, samples = scrape(guarded)
    for name, kind in {
        "gammon_table_actions_total": "counter",
        "gammon_action_seconds": "histogram",
        "gammon_http_request_seconds": "histogram",
        "gammon_websockets": "gauge",
        "gammon_workqueue_waiting": "gauge",
        "gammon_workqueue_busy": "gauge",
        "gammon_workqueue_workers": "gauge",
        "gammon_db_writes_total": "counter",
        "gammon_live_tables": "gauge",
        "gammon_event_loop_lag_seconds": "histogram",
        "process_resident_memory_bytes": "gauge",
        "process_cpu_seconds_total": "counter",
        "process_open_fds": "gauge",
    }.items():
        assert types[name] == kind, name
    # the queues of the site's services, each by its name
    for queue in ("gammon-rules", "gammon-bot", "gammon-export", "gammon-steps"):
        assert value(samples, "gammon_workqueue_workers", queue=queue) >= 1, queue
    assert value(samples, "process_resident_memory_bytes") > 10_000_000
    assert value(samples, "process_open_fds") > 3
    assert value(samples, "gammon_websockets", socket="table") == 0
    assert value(samples, "gammon_event_loop_lag_seconds_count") > 0  # the heartbeat beats


def test_a_move_counts_an_action_its_latency_and_open_sockets(
    guarded: RunningServer, guarded_players: Callable[[], Player]
) -> None:
    _, before = scrape(guarded)
    pair = start_pair(guarded_players, match_length=3)
    _, seated = scrape(guarded)
    assert (
        value(seated, "gammon_websockets", socket="table")
        == value(before, "gammon_websockets", socket="table") + 2
    )
    assert value(seated, "gammon_live_tables") >= 1
    play_move(pair)
    _, after = scrape(guarded)
    assert (
        value(after, "gammon_table_actions_total", kind="move")
        == value(before, "gammon_table_actions_total", kind="move") + 1
    )
    assert value(after, "gammon_table_actions_total", kind="start") > value(
        before, "gammon_table_actions_total", kind="start"
    )
    moved = value(after, "gammon_action_seconds_count", type="move")
    assert moved == value(before, "gammon_action_seconds_count", type="move") + 1
    assert 0 < value(after, "gammon_action_seconds_sum", type="move") < 10
    # a journal append: at once or on the database thread
    writes = sum(value(after, "gammon_db_writes_total", path=p) for p in ("now", "deferred"))
    assert writes > sum(
        value(before, "gammon_db_writes_total", path=p) for p in ("now", "deferred")
    )
    # a third socket to the table is counted, and uncounted once closed
    watcher = guarded_players()
    ws = watcher.connect(pair.table)
    _, watched = scrape(guarded)
    assert (
        value(watched, "gammon_websockets", socket="table")
        == value(seated, "gammon_websockets", socket="table") + 1
    )
    ws.close()
    deadline = time.monotonic() + 5
    while value(scrape(guarded)[1], "gammon_websockets", socket="table") != value(
        seated, "gammon_websockets", socket="table"
    ):
        assert time.monotonic() < deadline, "the closed socket is still counted"
        time.sleep(0.05)


def test_http_requests_are_timed_by_route_template(
    guarded: RunningServer, guarded_players: Callable[[], Player]
) -> None:
    player = guarded_players()
    table = player.create()["id"]
    for _ in range(3):
        assert player.http.get(f"/api/tables/{table}").status_code == 200
    assert player.http.get("/no/such/page").status_code == 404
    _, samples = scrape(guarded)
    route = "/api/tables/{table_id}"
    assert (
        value(samples, "gammon_http_request_seconds_count", route=route, method="GET", status="2xx")
        >= 3
    )
    assert (
        value(
            samples,
            "gammon_http_request_seconds_count",
            route="unmatched",
            method="GET",
            status="4xx",
        )
        >= 1
    )
    routes = {dict(labels).get("route") for name, labels in samples if "route" in dict(labels)}
    assert table not in "".join(r or "" for r in routes), "a raw path became a label"


def test_healthz_and_readyz(guarded: RunningServer) -> None:
    assert httpx.get(f"{guarded.url}/healthz").status_code == 200
    r = httpx.get(f"{guarded.url}/readyz")
    assert r.status_code == 200, r.text
    assert r.json()["ready"] is True
    assert r.json()["checks"]["redis"] == "not used"
    assert r.json()["checks"]["database"].startswith("ok")


def test_readyz_says_503_when_the_schema_is_not_at_the_newest_migration(
    tmp_path: Path,
) -> None:
    running = start_server(settings_in(tmp_path))
    try:
        assert httpx.get(f"{running.url}/readyz").status_code == 200
        with sqlite3.connect(tmp_path / "gammon.db") as db:
            (head,) = db.execute("SELECT version_num FROM alembic_version").fetchone()
            db.execute("UPDATE alembic_version SET version_num = '0001'")
        deadline = time.monotonic() + 5
        while (r := httpx.get(f"{running.url}/readyz")).status_code == 200:
            assert time.monotonic() < deadline, "still ready with an old schema"
            time.sleep(0.2)
        assert r.status_code == 503
        assert r.json() == {
            "ready": False,
            "checks": {"database": f"schema at 0001, not at {head}", "redis": "not used"},
        }
        with sqlite3.connect(tmp_path / "gammon.db") as db:
            db.execute("UPDATE alembic_version SET version_num = ?", (head,))
        assert httpx.get(f"{running.url}/healthz").status_code == 200  # alive all along
    finally:
        running.stop()


def test_the_token_setting() -> None:
    assert Settings.from_env({"GAMMON_METRICS_TOKEN": TOKEN}).metrics_token == TOKEN
    assert Settings.from_env({"GAMMON_METRICS_TOKEN": ""}).metrics_token is None
    assert TOKEN not in repr(Settings(metrics_token=TOKEN))
    for bad in ("short", "x" * 15, "has a space in it!!", "é" * 20):
        with pytest.raises(SettingsError, match="metrics_token"):
            Settings(metrics_token=bad)


def test_families_are_bounded_and_checked() -> None:
    counter = Counter("demo_total", "Demo.", ("kind",))
    for i in range(MAX_SERIES + 50):
        counter.inc(f"k{i}")
    assert counter.value("other") == 50
    with pytest.raises(MetricsError, match="label value"):
        counter.inc()
    with pytest.raises(MetricsError, match="cannot go down"):
        counter.inc("k1", amount=-1)
    with pytest.raises(MetricsError, match="not a metric name"):
        Counter("2bad", "Bad.")
    with pytest.raises(MetricsError, match="increasing"):
        Histogram("demo_seconds", "Demo.", buckets=(1.0, 0.5))
    escaped = Counter("demo_escaped_total", "Demo.", ("v",))
    escaped.inc('a "quoted"\\ \nvalue')
    text = "\n".join(escaped.lines()) + "\n"
    _, samples = parse_exposition(text)
    assert value(samples, "demo_escaped_total", v='a \\"quoted\\"\\\\ \\nvalue') == 1


@pytest.mark.postgres
@pytest.mark.redis
def test_readyz_on_postgresql_and_redis(tmp_path: Path) -> None:
    from serverkit import REDIS_URL, postgres_schema

    with postgres_schema() as url:
        running = start_server(
            settings_in(tmp_path, database_url=url, redis_url=REDIS_URL, metrics_token=TOKEN)
        )
        try:
            r = httpx.get(f"{running.url}/readyz")
            assert r.status_code == 200, r.text
            assert r.json()["checks"]["redis"] == "ok"
            assert r.json()["checks"]["database"].startswith("ok")
            _, samples = scrape(running)
            # PostgreSQL's appends go to the database threads
            assert value(samples, "gammon_db_writes_total", path="now") == 0
        finally:
            running.stop()
