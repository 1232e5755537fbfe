"""How late the event loop runs, and where it was held when it ran late.

Every socket of a server process is answered by one event loop: a callback that holds it
for 100 ms delays every table's next message by as much.  :class:`LoopWatchdog` measures
it two ways:

- a *heartbeat* task on the loop wakes every :data:`TICK` seconds and records how late it
  woke (``gammon_event_loop_lag_seconds`` on ``/metrics``);
- a *watcher* thread looks at the heartbeat; when the loop has not beaten for
  ``threshold`` seconds it takes the loop thread's stack at that moment (``sys._current_frames``)
  and, once the loop beats again, logs a warning with the stall's length and that stack
  (``--stall-log``; 0 turns the stacks off).  The stacks are also counted by where they
  were (:meth:`LoopWatchdog.report`): benchmarks/server_load.py prints the top ones.

>>> import asyncio, time
>>> async def demo() -> list[str]:
...     dog = LoopWatchdog(threshold=0.05)
...     dog.start()
...     await asyncio.sleep(0.05)
...     time.sleep(0.3)                      # holds the loop
...     await asyncio.sleep(0.05)
...     await dog.stop()
...     return [where for where, _, _ in dog.report()]
>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(1) as thread:   # a loop of its own, whatever runs here
...     stalls = thread.submit(asyncio.run, demo()).result()
>>> any("demo" in where for where in stalls)
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any, Final

__all__ = ["TICK", "LoopWatchdog"]

log = logging.getLogger(__name__)

#: Seconds between two heartbeats of the loop.
TICK: Final = 0.01
#: Frames kept of a stalled loop's stack (the innermost).
FRAMES: Final = 40
#: Distinct stall places remembered (the rest are counted as ``other``).
PLACES: Final = 200


class LoopWatchdog:
    """Watches the running loop (started on it with :meth:`start`): ``observe`` gets each
    heartbeat's lateness in seconds; a stall of ``threshold`` seconds or more is logged
    with where the loop was (``threshold`` 0: lateness only, no watcher thread)."""

    def __init__(
        self, threshold: float = 0.5, observe: Callable[[float], None] | None = None
    ) -> None:
        if threshold < 0:
            raise ValueError(f"a stall threshold is 0 (off) or more seconds, not {threshold!r}")
        self.threshold = threshold
        self.observe = observe
        self._beat = time.monotonic()
        self._task: asyncio.Task[None] | None = None
        self._thread: threading.Thread | None = None
        self._halt = threading.Event()
        self._loop_thread = 0
        self._lock = threading.Lock()
        #: where (a formatted stack) -> (stalls, seconds held)
        self._places: dict[str, tuple[int, float]] = {}

    def start(self) -> None:
        """Start beating on the running loop (and watching, with a threshold)."""
        self._loop_thread = threading.get_ident()
        self._beat = time.monotonic()
        self._task = asyncio.get_running_loop().create_task(self._heartbeat())
        if self.threshold > 0:
            self._thread = threading.Thread(target=self._watch, name="gammon-watchdog", daemon=True)
            self._thread.start()

    async def stop(self) -> None:
        """Stop the heartbeat and the watcher."""
        self._halt.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 1.0)

    def report(self) -> list[tuple[str, int, float]]:
        """The places the loop stalled at: ``(where, stalls, seconds)``, longest first."""
        with self._lock:
            rows = [(where, n, held) for where, (n, held) in self._places.items()]
        return sorted(rows, key=lambda row: -row[2])

    async def _heartbeat(self) -> None:
        while True:
            due = time.monotonic() + TICK
            await asyncio.sleep(TICK)
            now = time.monotonic()
            self._beat = now
            if self.observe is not None:
                self.observe(max(0.0, now - due))

    def _watch(self) -> None:
        """The watcher thread: a stack for each stall, logged once the loop beats again."""
        pending: tuple[float, str] | None = None  # the stalled beat, and where
        while not self._halt.wait(self.threshold / 4):
            beat = self._beat
            held = time.monotonic() - beat
            if pending is not None and pending[0] != beat:  # the loop came back
                self._record(pending[1], time.monotonic() - pending[0] - TICK)
                pending = None
            if pending is None and held >= self.threshold + TICK:
                frames = sys._current_frames()
                frame = frames.get(self._loop_thread)
                if frame is not None:
                    pending = (beat, _where(frame) + _others(frames, self._loop_thread))

    def _record(self, where: str, held: float) -> None:
        with self._lock:
            if where not in self._places and len(self._places) >= PLACES:
                where = "other"
            n, total = self._places.get(where, (0, 0.0))
            self._places[where] = (n + 1, total + held)
        log.warning("event loop held %.0f ms in:\n%s", held * 1000, where)


def _others(frames: dict[int, Any], loop_thread: int) -> str:
    """The other threads' innermost frames, those not waiting on a lock or a queue: one
    of them may hold the interpreter lock the loop waits for."""
    names = {t.ident: t.name for t in threading.enumerate()}
    lines = []
    for ident, frame in frames.items():
        if ident in (loop_thread, threading.get_ident()):
            continue
        top = traceback.extract_stack(frame)[-1]
        if top.filename.endswith(("threading.py", "queue.py", "selectors.py")):
            continue  # waiting, not running
        lines.append(f"  [{names.get(ident, ident)}] {top.filename}:{top.lineno} {top.name}")
    return "\n  other threads:\n" + "\n".join(lines) if lines else ""


def _where(frame: object) -> str:
    """The innermost frames of a stack, as text (file:line function)."""
    stack = traceback.extract_stack(frame)[-FRAMES:]  # type: ignore[arg-type]
    return "\n".join(f"  {f.filename}:{f.lineno} {f.name}" for f in stack)
