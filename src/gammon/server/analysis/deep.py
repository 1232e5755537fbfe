"""Deep work on a finished match, on demand: the grandmaster analysis and single-decision
rollouts, off the event loop, one job per person at a time, with progress and cancel.

The analysis page offers both (docs/analysis.md, "Deeper analysis" and "Rollouts").  They
take from seconds (a rollout of a few candidates) to minutes (a whole match at 4-ply),
so they run in a fair queue of their own (:class:`~gammon.server.infra.workqueue.WorkQueue`,
:data:`DEEP_WORKERS` worker process at a lower priority, a thread when
``--bot-workers`` is 0), never in the bot pool or the analysis worker: bots and the
default analysis go on meanwhile.  Each *owner* (a signed-in user, else, and for a
guest, the client address) has at most one job queued or running (a second is refused
with ``busy``), at most :data:`MAX_JOBS` jobs wait or run on the whole site, and at most
:data:`MAX_ANONYMOUS_JOBS` of them for owners without an account (past that,
``rate_limited``): guests from many addresses cannot hold every place.  The worker takes
the next job of the owner it served least lately.  Two people asking for the same work
share one job.

The worker writes its progress to shared memory (job, stage, done, total) and reads a
cancel slot there: the grandmaster analysis stops at its next progress report (a chunk of
positions), a rollout at its next finished trial.  A finished grandmaster analysis is
stored beside the other levels (``analyses``, level ``grandmaster``), a rollout in
``rollouts``; a cancelled or failed job stores nothing, and says so to whoever polls.

>>> decision_key(12, "checker"), parse_decision("31:response")
('12:checker', (31, 'response'))
>>> parse_decision("12:resign")
Traceback (most recent call last):
...
gammon.server.protocol.ServerError: decision must be written ACTION:KIND (kind checker, cube or response), not '12:resign'
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import multiprocessing
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from gammon.match.record import read_log
from gammon.server.analysis.registry import analyser_for
from gammon.server.analysis.runner import STAGES, progress_fraction
from gammon.server.infra.workqueue import WorkQueue
from gammon.server.protocol import ServerError

if TYPE_CHECKING:
    from multiprocessing.sharedctypes import SynchronizedArray

__all__ = [
    "DEEP_LEVEL",
    "DEEP_WORKERS",
    "MAX_ANONYMOUS_JOBS",
    "MAX_JOBS",
    "ROLLOUT_CANDIDATES",
    "ROLLOUT_TRIALS",
    "DeepCancelledError",
    "DeepRunner",
    "decision_key",
    "deep_analysis_in_worker",
    "parse_decision",
    "rollout_in_worker",
    "rollout_reported",
]

log = logging.getLogger(__name__)

#: The level of the deeper analysis (the bot's strongest: 4-ply on the close plays).
DEEP_LEVEL: Final = "grandmaster"
#: Worker processes for deep work on the whole site (the machine has two cores: the
#: other one answers the sockets and plays the bots).
DEEP_WORKERS: Final = 1
#: Jobs queued or running at once on the whole site.
MAX_JOBS: Final = 8
#: Of which, at most, jobs of owners without an account (visitors, guests).
MAX_ANONYMOUS_JOBS: Final = 2
#: Trials per rolled-out candidate (a multiple of 36 stratifies the first roll): a few
#: seconds per candidate on one core here, so a decision takes well under a minute.
ROLLOUT_TRIALS: Final = 144
#: The checker candidates rolled out besides the move played: the best of a 1-ply ranking.
ROLLOUT_CANDIDATES: Final = 3
#: How far below the best a candidate may be (normalised equity) to be rolled out.
ROLLOUT_THRESHOLD: Final = 0.5
#: C++ threads of a rollout on the site.  Two, although the machine has two cores: bgsage's
#: single-threaded rollout does not stop on ``cancel()`` until the candidate is done (tens
#: of seconds), its threaded one stops at once; the worker runs at a lower priority
#: (``WORKER_NICENESS``), so the event loop still gets a core first.
ROLLOUT_THREADS: Final = 2
#: A job's state kept after it ends (cancelled, failed), for those who poll it.
_ENDED_KEPT: Final = 256
_DECISION: Final = re.compile(r"(\d{1,6}):(checker|cube|response)")
_STAGE_NAMES: Final = list(STAGES)

# the worker's shared memory: [job, stage index, done, total, job to cancel]
_SLOTS: Final = 5
_WORKER: dict[str, SynchronizedArray[float]] = {}


class DeepCancelledError(Exception):
    """A deep job stopped because its owner cancelled it (nothing is stored)."""


def decision_key(action_index: int, kind: str) -> str:
    """The key of a decision of a match: the record's action that made it, and its kind."""
    return f"{action_index}:{kind}"


def parse_decision(text: object) -> tuple[int, str]:
    """``(action index, kind)`` of a decision key, or ``bad_message``."""
    found = _DECISION.fullmatch(text) if isinstance(text, str) else None
    if found is None:
        shown = repr(text[:40]) if isinstance(text, str) else type(text).__name__
        raise ServerError(
            "bad_message",
            f"decision must be written ACTION:KIND (kind checker, cube or response), not {shown}",
        )
    return int(found.group(1)), found.group(2)


# ---------------------------------------------------------------------- in the worker


def _init_worker(shared: SynchronizedArray[float]) -> None:
    _WORKER["progress"] = shared


def _report(job: int, stage: int, done: int, total: int) -> bool:
    """Write a job's progress; whether its owner asked to cancel it."""
    shared = _WORKER.get("progress")
    if shared is None:
        return False
    with shared.get_lock():
        cancel = int(shared[4]) == job
        shared[0:4] = [job, stage, done, total]
    return cancel


def deep_analysis_in_worker(job: int, log_text: str) -> dict[str, Any]:
    """Run in a worker: the grandmaster analysis of an action log (JSON-ready data).

    Raises :class:`DeepCancelledError` at the first progress report after a cancel.
    """
    record = read_log(log_text)
    analyser = analyser_for(record.options.variant)
    if analyser is None:  # checked by the routes before: the registry is the same here
        raise ValueError(f"no analyser for {record.options.variant}")

    def report(stage: str, done: int, total: int) -> None:
        index = _STAGE_NAMES.index(stage) if stage in _STAGE_NAMES else 0
        if _report(job, index, done, total):
            raise DeepCancelledError(f"cancelled at {stage} {done}/{total}")

    if _report(job, 0, 0, 0):
        raise DeepCancelledError("cancelled before it began")
    return analyser.run(record, DEEP_LEVEL, report)


def rollout_in_worker(
    job: int, log_text: str, action_index: int, kind: str, trials: int
) -> dict[str, Any]:
    """Run in a worker: the rollout of one decision of a match (JSON-ready, see
    :func:`rollout_json`).  A checker play rolls out the move played and the best
    :data:`ROLLOUT_CANDIDATES` of a 1-ply ranking; a cube decision or an answer rolls
    out the doubler's no double / double, take / double, pass.

    Raises ``ValueError`` when the record has no such decision, and
    :class:`DeepCancelledError` when its owner cancelled it.
    """
    from gammon.bots.analysis.walk import walk_record

    walk = walk_record(read_log(log_text))
    if kind == "checker":
        checker = next((c for c in walk.checkers if c.action_index == action_index), None)
        if checker is None:
            raise ValueError(f"no checker play at action {action_index}")
        position, ctx, dice, played = checker.position, checker.ctx, checker.dice, checker.text
    else:
        cube = next(
            (c for c in walk.cubes if c.action_index == action_index and c.kind == kind), None
        )
        if cube is None:
            raise ValueError(f"no {kind} decision at action {action_index}")
        position, ctx, dice, played = cube.position, cube.ctx, None, cube.played
    result = rollout_reported(job, trials, position, ctx, dice, played if dice is not None else "")
    return rollout_json(result, decision_key(action_index, kind), played)


def rollout_reported(
    job: int, trials: int, position: Any, ctx: Any, dice: Any, include: str = ""
) -> Any:
    """Run in a worker: one decision's rollout (``rollout_decision``), its progress
    reported as job ``job``'s and cancelled when its owner cancels it (then
    :class:`DeepCancelledError`); shared by a match's decisions and ``/analysis``'s
    positions.  ``include``: a move rolled out besides the best candidates."""
    from gammon.bots.rollout import RolloutSettings, rollout_decision

    cancel = threading.Event()

    def progress(done: int, total: int) -> None:
        if _report(job, 0, done, total):
            cancel.set()

    if _report(job, 0, 0, trials):
        raise DeepCancelledError("cancelled before it began")
    settings = RolloutSettings(
        trials=trials,
        candidates=ROLLOUT_CANDIDATES,
        threshold=ROLLOUT_THRESHOLD,
        threads=ROLLOUT_THREADS,
    )
    result = rollout_decision(
        position, ctx, dice, settings=settings, include=include, progress=progress, cancel=cancel
    )
    if result.cancelled:
        raise DeepCancelledError(f"cancelled after {result.trials_done} trials")
    return result


def rollout_json(result: Any, decision: str, played: str) -> dict[str, Any]:
    """A :class:`~gammon.bots.rollout.RolloutResult` as the page shows it: each
    candidate's equity with its 95% interval (± 1.96 standard errors), or the cube's."""
    settings = result.settings
    out: dict[str, Any] = {
        "decision": decision,
        "kind": result.kind,
        "played": played,
        "trials": settings.trials,
        "trials_done": result.trials_done,
        "truncation": settings.truncation,
        "seconds": round(result.seconds, 2),
        "moves": [
            {
                "move": m.move,
                "equity": round(m.equity, 4),
                "ci": round(1.96 * m.std_error, 4),
                "cubeless": round(m.cubeless, 4),
                "win": round(m.probs[0], 4),
            }
            for m in result.moves
        ],
        "cube": None,
    }
    cube = result.cube
    if cube is not None:
        out["cube"] = {
            "no_double": round(cube.no_double, 4),
            "double_take": round(cube.double_take, 4),
            "double_pass": round(cube.double_pass, 4),
            "ci": round(1.96 * cube.std_error, 4),
            "action": cube.action,
            "win": round(cube.probs[0], 4),
        }
    return out


# ---------------------------------------------------------------------- in the server


@dataclass(slots=True)
class _Job:
    number: int
    owner: Hashable
    kind: str  # "analysis" or "rollout"
    anonymous: bool = False  # an owner without an account
    task: asyncio.Task[dict[str, Any]] | None = None


class DeepRunner:
    """The deep jobs of the site: started, polled, cancelled by key ``(subject, what)``
    (``what``: :data:`DEEP_LEVEL`, or a decision key for a rollout)."""

    def __init__(self, processes: bool) -> None:
        self.processes = processes
        # the shared memory and the queue, made with the first job (most servers never
        # start one: no semaphore, no worker until then)
        self._parts: tuple[SynchronizedArray[float], WorkQueue] | None = None
        self._jobs: dict[tuple[str, str], _Job] = {}
        self._owners: dict[Hashable, tuple[str, str]] = {}
        self._ended: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
        self._next = 1

    def _made(self) -> tuple[SynchronizedArray[float], WorkQueue]:
        if self._parts is None:
            shared = multiprocessing.get_context("spawn").Array("d", _SLOTS)
            shared[4] = -1
            queue = WorkQueue(
                "gammon-deep",
                DEEP_WORKERS,
                per_key=1,
                processes=self.processes,
                initializer=_init_worker,
                initargs=(shared,),
            )
            self._parts = (shared, queue)
        return self._parts

    @property
    def _shared(self) -> SynchronizedArray[float]:
        return self._made()[0]

    @property
    def queue(self) -> WorkQueue:
        """The fair queue the jobs wait in (one line per owner)."""
        return self._made()[1]

    @property
    def jobs(self) -> int:
        """Jobs queued or running."""
        return len(self._jobs)

    def start(
        self,
        key: tuple[str, str],
        owner: Hashable,
        kind: str,
        fn: Callable[..., dict[str, Any]],
        args: tuple[Any, ...],
        keep: Callable[[dict[str, Any]], Awaitable[None]],
        *,
        anonymous: bool = False,
    ) -> dict[str, Any]:
        """Start ``fn(job, *args)`` in the queue for ``key`` (or join the job already
        doing it), then ``keep`` its result; the job's status.  ``anonymous``: the owner
        has no account (a visitor, a guest), and takes one of the few places of those."""
        if key in self._jobs:
            return self.status(key)
        mine = self._owners.get(owner)
        if mine is not None:
            raise ServerError(
                "busy",
                "you have deep work running already (a grandmaster analysis or a rollout): "
                "wait for it or cancel it",
            )
        if len(self._jobs) >= MAX_JOBS:
            raise ServerError("rate_limited", "the site is busy with deep work: try again later")
        if anonymous and sum(j.anonymous for j in self._jobs.values()) >= MAX_ANONYMOUS_JOBS:
            raise ServerError(
                "rate_limited",
                "the site is busy with deep work for visitors without an account: "
                "try again later, or sign in",
            )
        job = _Job(self._next, owner, kind, anonymous)
        self._next += 1
        self._jobs[key] = job
        self._owners[owner] = key
        self._ended.pop(key, None)
        job.task = asyncio.get_running_loop().create_task(
            self._run(key, job, fn, args, keep), name=f"deep {kind} {key[0]} {key[1]}"
        )
        job.task.add_done_callback(functools.partial(self._ended_job, key, job))
        return self.status(key)

    async def _run(
        self,
        key: tuple[str, str],
        job: _Job,
        fn: Callable[..., dict[str, Any]],
        args: tuple[Any, ...],
        keep: Callable[[dict[str, Any]], Awaitable[None]],
    ) -> dict[str, Any]:
        try:
            data = await self.queue.run(job.owner, fn, job.number, *args)
            await keep(data)
        except DeepCancelledError:
            return {"status": "cancelled", "fraction": 0.0}
        except ServerError as exc:
            return {"status": "failed", "fraction": 0.0, "message": str(exc)}
        except Exception as exc:  # the worker failed: said to whoever polls, and logged
            log.warning("deep %s of %s failed: %r", job.kind, key, exc)
            return {"status": "failed", "fraction": 0.0, "message": str(exc)[:200]}
        return {"status": "done", "fraction": 1.0}

    def _ended_job(self, key: tuple[str, str], job: _Job, task: asyncio.Task[Any]) -> None:
        """A job ended (a task cancelled before it began included): forget it, keep how."""
        if self._jobs.get(key) is job:
            del self._jobs[key]
        if self._owners.get(job.owner) == key:
            del self._owners[job.owner]
        cancelled = {"status": "cancelled", "fraction": 0.0}
        self._ended[key] = cancelled if task.cancelled() else dict(task.result())
        while len(self._ended) > _ENDED_KEPT:
            self._ended.popitem(last=False)

    def status(self, key: tuple[str, str]) -> dict[str, Any]:
        """``{"status": "queued" | "running" | "done" | "cancelled" | "failed" | "none",
        "fraction", ...}``: ``running`` has ``done`` and ``total`` (and ``stage`` for an
        analysis); ``done`` and the others are about the last job of ``key`` (whether a
        result is stored is the caller's to say)."""
        job = self._jobs.get(key)
        if job is None:
            return dict(self._ended.get(key, {"status": "none", "fraction": 0.0}))
        with self._shared.get_lock():
            now_job, stage_index, done, total, _cancel = self._shared[:]
        if int(now_job) != job.number:
            return {"status": "queued", "fraction": 0.0, "waiting": self.queue.waiting}
        out: dict[str, Any] = {"status": "running", "done": int(done), "total": int(total)}
        if job.kind == "analysis":
            stage = _STAGE_NAMES[int(stage_index)]
            out["stage"] = stage
            out["fraction"] = progress_fraction(stage, int(done), int(total), DEEP_LEVEL)
        else:
            out["fraction"] = round(done / total, 6) if total else 0.0
        return out

    def owner_of(self, key: tuple[str, str]) -> Hashable | None:
        """Who started the job of ``key`` (None when none is queued or running)."""
        job = self._jobs.get(key)
        return None if job is None else job.owner

    def cancel(self, key: tuple[str, str], owner: Hashable) -> dict[str, Any]:
        """Stop the job of ``key`` if ``owner`` started it: a queued job is dropped, a
        running one stops at its next progress report.  Its status."""
        job = self._jobs.get(key)
        if job is None:
            return self.status(key)
        if job.owner != owner:
            raise ServerError("forbidden", "only who started this work may cancel it")
        with self._shared.get_lock():
            self._shared[4] = job.number
            started = int(self._shared[0]) == job.number
        if not started and job.task is not None:
            job.task.cancel()  # still waiting in the queue: the queue skips it
        return {"status": "cancelling", "fraction": 0.0}

    async def wait(self, key: tuple[str, str]) -> None:
        """Until the job of ``key`` (if any) ends (for tests and shutdown)."""
        job = self._jobs.get(key)
        if job is not None and job.task is not None:
            await asyncio.wait([job.task])

    def close(self) -> None:
        """Stop taking jobs and tell the running one to stop."""
        if self._parts is None:
            return
        with self._shared.get_lock():
            self._shared[4] = self._shared[0]
        for job in self._jobs.values():
            if job.task is not None:
                job.task.cancel()
        self.queue.close()


def stored_json(text: str | None) -> dict[str, Any] | None:
    """A stored result's JSON text as data."""
    return None if text is None else dict(json.loads(text))


def now_ms() -> int:
    """Milliseconds since the epoch (the rows' ``created_at``)."""
    return int(time.time() * 1000)
