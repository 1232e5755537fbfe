"""The server's own metrics, served at ``/metrics`` in Prometheus' text format (0.0.4).

A small registry of our own (no dependency): :class:`Counter`, :class:`Gauge` and
:class:`Histogram` with fixed buckets, each a *family* of series told apart by label
values.  Every family keeps at most :data:`MAX_SERIES` series: past that, new label
values are counted under ``other``, so no visitor can grow the registry (the HTTP
routes are labelled by their template, ``/table/{table_id}``, never by the raw path).

Metrics are per process: with several processes, Prometheus scrapes each one (its
own port), and every series of :class:`ServerMetrics` can be told apart by the
``instance`` Prometheus adds (docs/deploy.md, "Metrics").

>>> registry = Registry()
>>> hits = registry.counter("demo_hits_total", "Hits.", ("page",))
>>> hits.inc("home")
>>> hits.inc("home", amount=2)
>>> print(registry.render(), end="")
# HELP demo_hits_total Hits.
# TYPE demo_hits_total counter
demo_hits_total{page="home"} 3
"""

from __future__ import annotations

import math
import os
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "ACTION_BUCKETS",
    "CONTENT_TYPE",
    "HTTP_BUCKETS",
    "LAG_BUCKETS",
    "MAX_SERIES",
    "Counter",
    "Gauge",
    "Histogram",
    "HttpMetrics",
    "MetricsError",
    "Registry",
    "ServerMetrics",
    "process_sample",
]

#: The ``Content-Type`` of the text exposition format.
CONTENT_TYPE: Final = "text/plain; version=0.0.4; charset=utf-8"
#: Series one family keeps; label values past that are counted as ``other``.
MAX_SERIES: Final = 500
#: Seconds: a table action, from the message's arrival to its broadcast.
#: Buckets of the event loop's lateness (seconds).
LAG_BUCKETS: Final = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)
ACTION_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: Seconds: an HTTP request, from its arrival to the end of its answer.
HTTP_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)

_NAME: Final = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
_LABEL: Final = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")


class MetricsError(ValueError):
    """A metric defined or used the wrong way (a bad name, the wrong labels)."""


def _number(value: float) -> str:
    """A sample value as the format writes it.

    >>> [_number(3.0), _number(0.25), _number(math.inf), _number(-math.inf), _number(math.nan)]
    ['3', '0.25', '+Inf', '-Inf', 'NaN']
    """
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


def _escape(value: str) -> str:
    r"""A label value escaped (backslash, double quote, new line).

    >>> _escape('a"b\\c\nd')
    'a\\"b\\\\c\\nd'
    """
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _labels(names: Sequence[str], values: Sequence[str]) -> str:
    if not names:
        return ""
    inner = ",".join(f'{n}="{_escape(v)}"' for n, v in zip(names, values, strict=True))
    return "{" + inner + "}"


class _Family(ABC):
    """One metric name, its help, its label names, and its series."""

    kind: ClassVar[str] = "untyped"

    def __init__(self, name: str, help_text: str, labels: Sequence[str] = ()) -> None:
        if not _NAME.fullmatch(name):
            raise MetricsError(f"not a metric name: {name!r}")
        for label in labels:
            if not _LABEL.fullmatch(label) or label.startswith("__") or label == "le":
                raise MetricsError(f"not a label name for {name}: {label!r}")
        self.name = name
        self.help = help_text
        self.labels = tuple(labels)

    def _key(self, values: Sequence[str], known: Collection[tuple[str, ...]]) -> tuple[str, ...]:
        if len(values) != len(self.labels):
            raise MetricsError(
                f"{self.name} takes {len(self.labels)} label value(s) "
                f"({', '.join(self.labels) or 'none'}), got {len(values)}"
            )
        key = tuple(str(v) for v in values)
        if key not in known and len(known) >= MAX_SERIES:
            return tuple("other" for _ in key)
        return key

    def lines(self) -> Iterator[str]:
        """The family's lines of the exposition format."""
        help_text = self.help.replace("\\", "\\\\").replace("\n", "\\n")
        yield f"# HELP {self.name} {help_text}"
        yield f"# TYPE {self.name} {self.kind}"
        yield from self._samples()

    @abstractmethod
    def _samples(self) -> Iterator[str]:
        """The family's sample lines (each kind writes its own)."""


class Counter(_Family):
    """A total that only grows (by label values)."""

    kind: ClassVar[str] = "counter"

    def __init__(self, name: str, help_text: str, labels: Sequence[str] = ()) -> None:
        super().__init__(name, help_text, labels)
        self._values: dict[tuple[str, ...], float] = {}

    def inc(self, *values: str, amount: float = 1.0) -> None:
        """Add ``amount`` (>= 0) to the series of ``values``."""
        if amount < 0:
            raise MetricsError(f"{self.name} is a counter: it cannot go down by {amount}")
        key = self._key(values, self._values)
        self._values[key] = self._values.get(key, 0.0) + amount

    def set_total(self, *values: str, total: float) -> None:
        """Set the series of ``values`` to a total counted elsewhere (read when scraped)."""
        key = self._key(values, self._values)
        self._values[key] = float(total)

    def value(self, *values: str) -> float:
        """The series' total now (0 before anything was counted)."""
        return self._values.get(tuple(values), 0.0)

    def _samples(self) -> Iterator[str]:
        if not self.labels and not self._values:
            yield f"{self.name} 0"
        for key, value in sorted(self._values.items()):
            yield f"{self.name}{_labels(self.labels, key)} {_number(value)}"


class Gauge(_Family):
    """A value that goes up and down (by label values)."""

    kind: ClassVar[str] = "gauge"

    def __init__(self, name: str, help_text: str, labels: Sequence[str] = ()) -> None:
        super().__init__(name, help_text, labels)
        self._values: dict[tuple[str, ...], float] = {}

    def set(self, *values: str, value: float) -> None:
        """Set the series of ``values``."""
        key = self._key(values, self._values)
        self._values[key] = float(value)

    def value(self, *values: str) -> float:
        """The series' value now (0 if never set)."""
        return self._values.get(tuple(values), 0.0)

    def clear(self) -> None:
        """Forget every series (before they are set again when scraped)."""
        self._values.clear()

    def _samples(self) -> Iterator[str]:
        if not self.labels and not self._values:
            yield f"{self.name} 0"
        for key, value in sorted(self._values.items()):
            yield f"{self.name}{_labels(self.labels, key)} {_number(value)}"


class _Series:
    __slots__ = ("counts", "sum")

    def __init__(self, size: int) -> None:
        self.counts = [0] * size
        self.sum = 0.0


class Histogram(_Family):
    """Observations counted in fixed buckets (by label values), with their sum and count.

    >>> h = Histogram("demo_seconds", "Demo.", buckets=(0.1, 1.0))
    >>> h.observe(0.05); h.observe(0.5); h.observe(7.0)
    >>> list(h.lines())[2:]
    ['demo_seconds_bucket{le="0.1"} 1', 'demo_seconds_bucket{le="1"} 2', 'demo_seconds_bucket{le="+Inf"} 3', 'demo_seconds_sum 7.55', 'demo_seconds_count 3']
    """

    kind: ClassVar[str] = "histogram"

    def __init__(
        self,
        name: str,
        help_text: str,
        labels: Sequence[str] = (),
        buckets: Sequence[float] = ACTION_BUCKETS,
    ) -> None:
        super().__init__(name, help_text, labels)
        bounds = [float(b) for b in buckets]
        if not bounds or bounds != sorted(set(bounds)) or math.isinf(bounds[-1]):
            raise MetricsError(f"{name}: buckets must be finite and increasing, got {buckets}")
        self.buckets = tuple(bounds)
        self._series: dict[tuple[str, ...], _Series] = {}

    def observe(self, value: float, *values: str) -> None:
        """Count one observation of ``value`` in the series of ``values``."""
        key = self._key(values, self._series)
        series = self._series.get(key)
        if series is None:
            series = self._series[key] = _Series(len(self.buckets) + 1)
        index = len(self.buckets)
        for i, bound in enumerate(self.buckets):
            if value <= bound:
                index = i
                break
        series.counts[index] += 1
        series.sum += value

    def count(self, *values: str) -> int:
        """Observations counted in the series of ``values``."""
        series = self._series.get(tuple(values))
        return 0 if series is None else sum(series.counts)

    def _samples(self) -> Iterator[str]:
        for key, series in sorted(self._series.items()):
            running = 0
            bounds = [*(_number(b) for b in self.buckets), "+Inf"]
            for bound, count in zip(bounds, series.counts, strict=True):
                running += count
                labels = _labels((*self.labels, "le"), (*key, bound))
                yield f"{self.name}_bucket{labels} {running}"
            plain = _labels(self.labels, key)
            yield f"{self.name}_sum{plain} {_number(series.sum)}"
            yield f"{self.name}_count{plain} {running}"


class Registry:
    """The families of one process, and what sets the scraped values (:meth:`on_collect`)."""

    def __init__(self) -> None:
        self._families: dict[str, _Family] = {}
        self._collectors: list[Callable[[], None]] = []

    def _add(self, family: _Family) -> None:
        if family.name in self._families:
            raise MetricsError(f"metric {family.name} is defined twice")
        self._families[family.name] = family

    def counter(self, name: str, help_text: str, labels: Sequence[str] = ()) -> Counter:
        """A new counter."""
        family = Counter(name, help_text, labels)
        self._add(family)
        return family

    def gauge(self, name: str, help_text: str, labels: Sequence[str] = ()) -> Gauge:
        """A new gauge."""
        family = Gauge(name, help_text, labels)
        self._add(family)
        return family

    def histogram(
        self,
        name: str,
        help_text: str,
        labels: Sequence[str] = (),
        buckets: Sequence[float] = ACTION_BUCKETS,
    ) -> Histogram:
        """A new histogram."""
        family = Histogram(name, help_text, labels, buckets)
        self._add(family)
        return family

    def on_collect(self, collector: Callable[[], None]) -> None:
        """Call ``collector`` before each rendering (it sets gauges read at that moment)."""
        self._collectors.append(collector)

    def render(self) -> str:
        """Every family in the text exposition format (0.0.4)."""
        for collect in self._collectors:
            collect()
        lines = [line for family in self._families.values() for line in family.lines()]
        return "\n".join(lines) + "\n"


def process_sample() -> dict[str, float]:
    """This process's resident memory (bytes), CPU seconds, open file descriptors and
    start time (Unix seconds), from ``/proc/self`` where there is one.

    >>> sorted(process_sample())  # doctest: +ELLIPSIS
    [...'process_cpu_seconds_total'...]
    """
    times = os.times()
    sample = {"process_cpu_seconds_total": times.user + times.system}
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
        sample["process_resident_memory_bytes"] = float(pages * os.sysconf("SC_PAGE_SIZE"))
        sample["process_open_fds"] = float(len(os.listdir("/proc/self/fd")))
        with open("/proc/self/stat", encoding="ascii") as stat:
            fields = stat.read().rpartition(")")[2].split()
        with open("/proc/stat", encoding="ascii") as system:
            boot = next(float(line.split()[1]) for line in system if line.startswith("btime "))
        sample["process_start_time_seconds"] = boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):  # not Linux: what os.times gives
        pass
    return sample


class ServerMetrics:
    """The metrics of one server process (``ctx.infra.metrics``): what the tables and the HTTP
    routes count as they go, and gauges read when ``/metrics`` is scraped."""

    def __init__(self) -> None:
        self.registry = r = Registry()
        self.started = time.time()
        self.actions = r.counter(
            "gammon_table_actions_total",
            "Journal entries committed by this process's tables: engine actions by type "
            "(roll, move, double...; players', bots' and the server's own), other entries "
            "by kind (sit, start, chat...); rate() gives actions per second.",
            ("kind",),
        )
        self.action_seconds = r.histogram(
            "gammon_action_seconds",
            "Seconds from a client's table message arriving to its result being broadcast "
            "(the table's queue, the rules, the database write), by message type.",
            ("type",),
            ACTION_BUCKETS,
        )
        self.http_seconds = r.histogram(
            "gammon_http_request_seconds",
            "Seconds from an HTTP request arriving to the end of its answer, by route "
            "template, method and status class.",
            ("route", "method", "status"),
            HTTP_BUCKETS,
        )
        self.sockets = r.gauge(
            "gammon_websockets", "Open WebSockets, table and user sockets.", ("socket",)
        )
        self.queue_waiting = r.gauge(
            "gammon_workqueue_waiting", "Jobs waiting for a worker, by queue.", ("queue",)
        )
        self.queue_busy = r.gauge(
            "gammon_workqueue_busy", "Workers running a job, by queue.", ("queue",)
        )
        self.queue_workers = r.gauge(
            "gammon_workqueue_workers",
            "Workers of each queue (quick workers included).",
            ("queue",),
        )
        self.jobs = r.gauge(
            "gammon_jobs",
            "Analyses (analysis) and grandmaster analyses and rollouts (deep) queued or running.",
            ("work",),
        )
        self.db_writes = r.counter(
            "gammon_db_writes_total",
            "Short writes (journal appends): run at once (now) or on the database thread "
            "(deferred).",
            ("path",),
        )
        self.loop_lag = r.histogram(
            "gammon_event_loop_lag_seconds",
            "How late the event loop ran a heartbeat due every 10 ms: work holding the loop "
            "delays every socket of the process by as much.",
            (),
            LAG_BUCKETS,
        )
        self.live_tables = r.gauge("gammon_live_tables", "Tables held in this process's hub.")
        self.up_seconds = r.gauge("gammon_uptime_seconds", "Seconds since this process started.")
        self.process = {
            "process_resident_memory_bytes": r.gauge(
                "process_resident_memory_bytes", "Resident memory size in bytes."
            ),
            "process_cpu_seconds_total": r.counter(
                "process_cpu_seconds_total", "User and system CPU time spent in seconds."
            ),
            "process_open_fds": r.gauge("process_open_fds", "Open file descriptors."),
            "process_start_time_seconds": r.gauge(
                "process_start_time_seconds", "Start time of the process (Unix seconds)."
            ),
        }
        r.on_collect(self._collect_process)

    def _collect_process(self) -> None:
        self.up_seconds.set(value=time.time() - self.started)
        for name, value in process_sample().items():
            family = self.process[name]
            if isinstance(family, Counter):
                family.set_total(total=value)
            else:
                assert isinstance(family, Gauge)
                family.set(value=value)

    def committed(self, kind: str, data: Mapping[str, Any]) -> None:
        """A table committed an entry of ``kind``: an engine action counts by its type
        (``roll``, ``move``...), another entry by its kind (``sit``, ``start``...)."""
        if kind == "action":
            action = data.get("action")
            name = action.get("type") if isinstance(action, Mapping) else None
            kind = name if isinstance(name, str) and name.isidentifier() else "action"
        self.actions.inc(kind)

    def answered(self, kind: str, seconds: float) -> None:
        """A client's ``kind`` message was applied and broadcast ``seconds`` after it came."""
        self.action_seconds.observe(seconds, kind)

    def request(self, route: str, method: str, status: int, seconds: float) -> None:
        """An HTTP request to ``route`` (its template) was answered."""
        self.http_seconds.observe(seconds, route, method, f"{status // 100}xx")

    def render(self) -> str:
        """The exposition text (the collectors run first)."""
        return self.registry.render()


#: The methods counted by name (others as ``other``: a visitor cannot add series).
_METHODS: Final = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class HttpMetrics:
    """ASGI middleware: times every HTTP request into :attr:`ServerMetrics.http_seconds`,
    labelled by the route's template (``scope["route"]``, set by the router), not the
    raw path; requests no route matched are counted as ``unmatched``."""

    def __init__(self, app: ASGIApp, metrics: ServerMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            route = scope.get("route")
            template = getattr(route, "path", None) if route is not None else None
            method = scope.get("method", "GET")
            self.metrics.request(
                template if isinstance(template, str) and template else "unmatched",
                method if method in _METHODS else "other",
                status,
                time.perf_counter() - started,
            )
