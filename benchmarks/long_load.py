"""Another table's latency while a long finished table is loaded: the journal folded on
the loader thread against a worker process, in one run.

    .venv/bin/python benchmarks/long_load.py [--games 85] [--loads 4] [--rounds 2]

Writes a money session of ``--games`` finished games (journalkit, as the attack of
``server_attack.py``), starts an in-process server with worker processes (``bot_workers=1``,
the default of ``gammon serve``, with the serving runtime), sits two guests at a live
table and pings it every 5 ms while a spectator opens the long table ``--loads`` times
(each after it was forgotten). Each mode runs in a process of its own: ``thread`` folds
every journal on the loader thread (``loader.LONG_JOURNAL`` set past any journal), ``process``
folds the long one in the loader process (gammon's default). Prints the ping p50/p99/max of
each and the ratios (process / thread); the reference is the thread. The pinging client
runs in the server's process, so its own wait for the interpreter lock is in the figures,
the same for both modes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"


def measure(mode: str, games: int, loads: int) -> dict[str, float]:
    """One mode's figures (run in a fresh process: ``--mode``)."""
    sys.path[:0] = [str(TESTS), str(TESTS / "server")]
    from gammon.server.community.auth import SESSION_COOKIE
    from gammon.server.run import serving_runtime
    from gammon.server.table.actor import loader
    from journalkit import write_long_session  # type: ignore[import-not-found]
    from serverkit import (  # type: ignore[import-not-found]
        Player,
        start_pair,
        start_server,
        wait_state,
    )
    from serverkit import test_settings as settings_for

    if mode == "thread":
        loader.LONG_JOURNAL = 10**9  # type: ignore[misc]
    tmp = Path(tempfile.mkdtemp())
    url = f"sqlite:///{tmp / 'gammon.db'}"
    long = write_long_session(url, games)
    server = start_server(settings_for(tmp, database_url=url, bot_workers=1))
    made: list[Player] = []

    def guest() -> Player:
        made.append(Player(server).guest())
        return made[-1]

    try:
        owner = Player(server)
        owner.http.cookies.set(SESSION_COOKIE, long.tokens[0])
        owner.csrf = long.csrf[0]
        assert owner.post(f"/api/tables/{long.table_id}/leave", {}).status_code == 200
        owner.close()
        hub = server.app.state.gammon.table.hub
        hub.evict_after = 0.3
        ws = start_pair(guest).ws(0)

        def ping() -> float:
            started = time.perf_counter()
            assert ws.reply({"type": "ping"}, timeout=60)["type"] == "pong"
            return time.perf_counter() - started

        waits: list[float] = []
        done = threading.Event()

        def pinging() -> None:
            while not done.is_set():
                waits.append(ping())
                time.sleep(0.005)

        watcher = guest()
        took: list[float] = []
        pinger = threading.Thread(target=pinging)
        with serving_runtime():
            pinger.start()
            try:
                for _ in range(loads):
                    while long.table_id in hub.actors:
                        time.sleep(0.02)
                    started = time.perf_counter()
                    spectator = watcher.connect(long.table_id, seed=None)
                    wait_state(spectator, lambda s: s["table"]["status"] == "finished", 60)
                    took.append(time.perf_counter() - started)
                    spectator.close()
            finally:
                done.set()
                pinger.join()
        waits.sort()
        return {
            "p50": statistics.median(waits) * 1000,
            "p99": waits[int(len(waits) * 0.99)] * 1000,
            "max": waits[-1] * 1000,
            "load": statistics.median(took),
        }
    finally:
        for p in made:
            p.close()
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=85, help="games of the long session")
    parser.add_argument("--loads", type=int, default=4, help="loads of it per mode")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each mode, alternated")
    parser.add_argument("--mode", choices=("thread", "process"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.mode:
        print(json.dumps(measure(args.mode, args.games, args.loads)))
        return 0
    print(f"a finished session of {args.games} games opened {args.loads} times per run")
    found: dict[str, list[dict[str, float]]] = {"thread": [], "process": []}
    for _ in range(args.rounds):
        for mode, runs in found.items():
            cmd = [sys.executable, __file__, "--mode", mode]
            cmd += ["--games", str(args.games), "--loads", str(args.loads)]
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            figures = json.loads(out.strip().splitlines()[-1])
            runs.append(figures)
            print(
                f"  {mode:7}  ping p50 {figures['p50']:.1f} ms, p99 {figures['p99']:.1f} ms, "
                f"max {figures['max']:.1f} ms; a load {figures['load']:.2f} s"
            )
    for key in ("p50", "p99", "max", "load"):
        ref = statistics.median(f[key] for f in found["thread"])
        ours = statistics.median(f[key] for f in found["process"])
        print(f"  {key}: thread {ref:.2f}, process {ours:.2f}, ratio {ours / ref:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
