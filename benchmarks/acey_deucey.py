"""Acey-deucey's 1-2: time the generator of ``Position.legal_moves`` on 1-2 positions,
and the server's answers at a 1-2, which do without it.

The 1-2 is played in full (the 1 and the 2), then a double of the player's choice four
times, so one 1-2 can have tens of thousands of legal moves.  ``reference_plays`` is the
former generator (one search of each double from each board the 1 and the 2 leave), kept
as the slow reference: the test suite checks the fast one against it
(``tests/test_acey_deucey_bonus.py``), and this benchmark prints both times.

Then the server's paths at each 1-2, cold (every cache emptied), each timed both ways in
the same run: "full", the answers through the full list of plays (``lazy_plays``
switched off), and "lazy", through :class:`gammon.rules.bonus.BonusPlays`:

* state: ``moves_payload`` (the mover's moves, or its first click-to-move steps past
  ``MOVES_LIMIT``) after ``Position.can_move`` (the engine's check after the roll);
* validation: ``parse_move`` of a legal move's text, of the same without its ``*``, of
  the move with another double (illegal) and of its first five steps (illegal);
* pass: ``parse_move("pass")``, refused with the number of legal moves (all counted);
* steps: ``step_payload`` after 0, 1, 2, 3 and 5 of a legal move's steps, and after
  a 1-2 play and a step of a double its board plays only in part (if there is one).

Run:  PYTHONPATH=src .venv/bin/python benchmarks/acey_deucey.py [--games N] [--positions P]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import random
import statistics
import time
from collections.abc import Callable

from gammon import Position
from gammon.dice import Dice
from gammon.errors import GammonError
from gammon.position import forget_plays
from gammon.rules import track
from gammon.rules.bonus import BonusPlays
from gammon.sampling import game_positions
from gammon.server.table.steps import step_payload
from gammon.server.table.views import forget_moves, moves_payload

# the generator's board and a play's raw steps (gammon.rules.track's private types)
State = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int]
Raw = tuple[int, ...]


def reference_plays(gen: track._Generator, st: State) -> dict[int, Raw]:
    """The 1-2 as the former generator played it: every 1-2 play, then each double searched
    on its own from the board it leaves; a board keeps its longest play, the first found."""
    first = gen.plays(st, 2, 1)
    if any(len(raw) < 8 for raw in first.values()):
        return first
    out: dict[int, Raw] = {}
    for key, raw in first.items():
        mid = track._unpack(key)
        for n in range(1, 7):
            more = gen.plays(mid, n, n)
            if not more:
                out.setdefault(key, raw)
            for k2, raw2 in more.items():
                old = out.get(k2)
                if old is None or len(raw) + len(raw2) > len(old):
                    out[k2] = raw + raw2
    return out


def positions(games: int, count: int, seed: int) -> list[Position]:
    """Distinct positions of random acey-deucey games, ``count`` of them drawn at random."""
    rng = random.Random(seed)
    seen: dict[str, Position] = {}
    for position, _ in game_positions(rng, games, variant="acey-deucey"):
        seen.setdefault(position.position_id(), position)
    found = list(seen.values())
    return random.Random(seed + 1).sample(found, min(count, len(found)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="random games to draw from")
    parser.add_argument("--positions", type=int, default=40, help="1-2 positions timed")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--server-only", action="store_true", help="skip the generators")
    args = parser.parse_args()
    sample = positions(args.games, args.positions, args.seed)
    if not args.server_only:
        time_generators(sample)
    time_server(sample)


def time_generators(sample: list[Position]) -> None:
    """The former generator against ``Position.legal_moves``'s."""
    gen = track._Generator(sample[0].variant)
    times: dict[str, list[float]] = {"before": [], "after": []}
    cpu: dict[str, list[float]] = {"before": [], "after": []}
    sizes: list[int] = []
    for position in sample:
        st = track._state(position)
        got = {}
        for name, run in (("before", reference_plays), ("after", _generator)):
            track._all_plays.cache_clear()
            w, c = time.perf_counter(), time.process_time()
            got[name] = run(gen, st)
            cpu[name].append(1000 * (time.process_time() - c))
            times[name].append(1000 * (time.perf_counter() - w))
        if got["before"] != got["after"] or list(got["before"]) != list(got["after"]):
            raise SystemExit(f"the generators differ on {position.position_id()}")
        sizes.append(len(got["after"]))
    print(
        f"{len(sample)} acey-deucey positions rolling 1-2, legal moves: "
        f"median {statistics.median(sizes):.0f}, max {max(sizes)}"
    )
    print("ms per 1-2 position (wall clock; CPU time of this process in brackets, which a")
    print("machine shared with other work does not inflate):")
    for name, label in (("before", "before (reference)"), ("after", "after (generator)")):
        w, c = times[name], cpu[name]
        print(
            f"{label:>20}: mean {statistics.fmean(w):.1f} [{statistics.fmean(c):.1f}], "
            f"median {statistics.median(w):.1f} [{statistics.median(c):.1f}], "
            f"max {max(w):.1f} [{max(c):.1f}]"
        )


ROLL = Dice(1, 2)
PATHS = ("state", "validation", "pass", "steps")


def _cold(run: Callable[[], object]) -> float:
    """CPU milliseconds of ``run``, every cache of the 1-2 emptied first."""
    track._all_plays.cache_clear()
    track._bonus.cache_clear()
    forget_plays()
    forget_moves()
    gc.collect()  # not the garbage of the question before
    c = time.process_time()
    with contextlib.suppress(GammonError):  # an illegal text or step: answered with an error
        run()
    return 1000 * (time.process_time() - c)


def _text(steps: list[tuple[int, int]]) -> str:
    def point(p: int) -> str:
        return "bar" if p == 25 else "off" if p <= 0 else str(p)

    return " ".join(f"{point(s)}/{point(t)}" for s, t in steps)


def server_jobs(position: Position) -> dict[str, list[Callable[[], object]]]:
    """The server's questions at this 1-2, by path (see the module's docstring)."""
    jobs: dict[str, list[Callable[[], object]]] = {
        "state": [lambda: position.can_move(ROLL) and moves_payload(position, (1, 2))]
    }
    moves = position.legal_moves(ROLL)
    if not moves:
        return jobs
    move = max(moves[:: max(1, len(moves) // 50)], key=len)
    text = str(move)
    route = [(s.from_point, s.to_point) for s in move]
    n = move[-1].die % 6 + 1  # another double than the move's
    wrong = route[:2] + [(s, s - n) for s, _ in route[2:]]
    texts = [text, text.replace("*", ""), _text(wrong), _text(route[:-1])]
    jobs["validation"] = [lambda t=t: position.parse_move(t, ROLL) for t in texts]
    jobs["pass"] = [lambda: position.parse_move("pass", ROLL)]
    played = [(s.from_point, s.to_point, s.die) for s in move]
    prefixes = [tuple(played[:k]) for k in (0, 1, 2, 3, 5)]
    part = _part_double(position)
    if part:
        prefixes.append(part)
    jobs["steps"] = [lambda p=p: step_payload(position, ROLL, p) for p in prefixes]
    return jobs


def _part_double(position: Position) -> tuple[tuple[int, int, int], ...]:
    """A 1-2 play and the first step of a double its board plays only in part, if there
    is one (the click-to-move search then looks further than with a full double)."""
    gen = track._Generator(position.variant)
    lazy = position.rules.lazy_plays(position, ROLL)
    if not isinstance(lazy, BonusPlays):
        return ()  # the 1 and the 2 cannot both be played: no double
    for rank, (key, raw) in enumerate(lazy._first.items()):
        for n in range(6, 0, -1):
            if 0 < lazy.depth(rank, n) < 4:
                s, t, _ = gen.steps(track._unpack(key), n, 4)[0]
                return (raw[0:3], raw[4:7], (s, t, n))
    return ()


def time_server(sample: list[Position]) -> None:
    """Time each server path, through the full list and lazily, on every 1-2 position."""
    lazy_plays = track.TrackRules.lazy_plays
    cpu: dict[tuple[str, str], list[tuple[float, str]]] = {}
    for position in sample:
        for path, runs in server_jobs(position).items():
            for run in runs:
                for way in ("full", "lazy"):
                    track.TrackRules.lazy_plays = (  # type: ignore[method-assign]
                        lazy_plays if way == "lazy" else lambda self, pos, dice: None
                    )
                    try:
                        ms = _cold(run)
                    finally:
                        track.TrackRules.lazy_plays = lazy_plays  # type: ignore[method-assign]
                    cpu.setdefault((path, way), []).append((ms, position.position_id()))
    print("server paths at a 1-2, CPU ms per question (cold), full list against lazy:")
    for path in PATHS:
        full, lazy = cpu[path, "full"], cpu[path, "lazy"]
        fm, lm = statistics.fmean(x for x, _ in full), statistics.fmean(x for x, _ in lazy)
        fx, lx = max(full), max(lazy)
        print(
            f"{path:>11} ({len(lazy)} questions): full mean {fm:.1f} max {fx[0]:.1f}; "
            f"lazy mean {lm:.2f} max {lx[0]:.1f} ({lx[1]}); "
            f"full/lazy: mean {fm / lm:.0f}x, max {fx[0] / lx[0]:.0f}x"
        )


def _generator(gen: track._Generator, st: State) -> dict[int, Raw]:
    return gen.all_plays(st, 2, 1)


if __name__ == "__main__":
    main()
