"""Legal move generation (rules.md R6-R11, §6; D14 for the Caucasian rule).

Internal module: the public entry point is :meth:`gammon.Position.legal_moves`.

Boards here are mutable lists seen from the mover: ``m[p]`` is the mover's count on
point ``p`` (0 = borne off, 1..24, 25 = bar) and ``o[p]`` the opponent's count on the
mover's point ``p`` (1..24; ``o[0]`` and ``o[25]`` are never read).

A play is identified by an integer *key*: the sum over its steps of
``W[to] - W[from]`` plus ``H[to]`` for each hit.  Counts take 8 bits per point
and every point is hit at most once per turn, so two plays from one position have
the same key exactly when they reach the same position, and
``int.from_bytes(bytes(m), "little") + key`` holds the mover's final counts in its
low 208 bits (one byte per point) and the hit points above them.

:func:`play_keys` answers "which positions can this roll reach": fast paths cover
the common standard cases and return keys only.  :func:`generic_plays` is the
reference: it tries every order of every die, checks each step on the board
reached so far, applies the hitter rules, keeps the plays that use the most dice
(and the larger die when only one can be played), and returns each play with its
steps.  The test suite checks the two against each other and against gnubg.
"""

from __future__ import annotations

from typing import Final

from gammon.variants import ENTRY

__all__ = ["BOARD_BITS", "H", "W", "generic_plays", "play_keys", "step_sources"]

#: Bits used by the mover's counts in a key (8 per point, 26 points).
BOARD_BITS: Final = 208
#: Key weight of one mover checker on each point (0 = off, 25 = bar).
W: Final[tuple[int, ...]] = tuple(1 << (8 * p) for p in range(26))
#: Key weight of a hit on each point.
H: Final[tuple[int, ...]] = tuple(1 << (BOARD_BITS + p) for p in range(26))


def play_keys(m: list[int], o: list[int], d1: int, d2: int, hitter_rule: str = "none") -> list[int]:
    """The key of every legal play, one per distinct resulting position, in a stable order."""
    if hitter_rule != "none":
        return list(generic_plays(m, o, d1, d2, hitter_rule))
    if d1 == d2:
        if m[25] or sum(m[7:25]) >= 4:
            return _doubles(m, o, d1)
        return _doubles_home(m, o, d1)
    a, b = (d1, d2) if d1 > d2 else (d2, d1)
    if m[25]:
        return _from_bar(m, o, a, b)
    if sum(m[7:25]) >= 2:
        return _two_dice(m, o, a, b)
    return _two_dice_home(m, o, a, b)


# --------------------------------------------------------------------------- fast paths


def _two_dice(m: list[int], o: list[int], a: int, b: int) -> list[int]:
    """Non-doubles, no bar, two or more checkers outside home: no bear-off this turn."""
    w, h = W, H
    steps_a = []
    steps_b = []
    for s in range(24, b, -1):
        if m[s]:
            t = s - b
            if o[t] < 2:
                steps_b.append((s, t, w[t] - w[s] + h[t] if o[t] == 1 else w[t] - w[s]))
            t = s - a
            if t > 0 and o[t] < 2:
                steps_a.append((s, t, w[t] - w[s] + h[t] if o[t] == 1 else w[t] - w[s]))
    found: dict[int, int] = {}
    for s1, t1, k1 in steps_a:
        single = m[s1] == 1
        hit1 = o[t1] == 1
        for s2, t2, k2 in steps_b:
            if s2 == s1 and single:
                continue
            if t2 == t1 and hit1:
                found[k1 + k2 - h[t1]] = 0
            else:
                found[k1 + k2] = 0
        # the same checker goes on with the small die (also when t1 held no checker)
        t2 = t1 - b
        if t2 > 0 and o[t2] < 2:
            found[k1 + w[t2] - w[t1] + h[t2] if o[t2] == 1 else k1 + w[t2] - w[t1]] = 0
    # Small die first matters only for one checker using both dice: any other order
    # of two independent steps is legal large-die-first too and reaches the same position.
    for _, t1, k1 in steps_b:
        t2 = t1 - a
        if t2 > 0 and o[t2] < 2:
            found[k1 + w[t2] - w[t1] + h[t2] if o[t2] == 1 else k1 + w[t2] - w[t1]] = 0
    if found:
        return list(found)
    # at most one die can be played: the larger if possible (R10.3)
    return [k for _, _, k in steps_a] or [k for _, _, k in steps_b]


def _step_key(s: int, t: int, o: list[int]) -> int:
    return W[t] - W[s] + H[t] if t and o[t] == 1 else W[t] - W[s]


def _from_bar(m: list[int], o: list[int], a: int, b: int) -> list[int]:
    """Non-doubles with checkers on the bar (no bear-off is possible this turn)."""
    ea, eb = ENTRY[a], ENTRY[b]
    open_a, open_b = o[ea] < 2, o[eb] < 2
    if m[25] >= 2:
        if open_a and open_b:
            return [_step_key(25, ea, o) + _step_key(25, eb, o)]
        if open_a:
            return [_step_key(25, ea, o)]
        if open_b:
            return [_step_key(25, eb, o)]
        return []
    found: dict[int, int] = {}
    w, h = W, H
    for t1, second in ((ea, b), (eb, a)):
        if o[t1] >= 2:
            continue
        hit1 = o[t1] == 1
        k1 = _step_key(25, t1, o)
        m[t1] += 1
        for s2 in range(24, second, -1):
            if m[s2]:
                t2 = s2 - second
                if o[t2] < 2:
                    if o[t2] == 1 and not (t2 == t1 and hit1):
                        found[k1 + w[t2] - w[s2] + h[t2]] = 0
                    else:
                        found[k1 + w[t2] - w[s2]] = 0
        m[t1] -= 1
    if found:
        return list(found)
    if open_a:
        return [_step_key(25, ea, o)]
    if open_b:
        return [_step_key(25, eb, o)]
    return []


def _doubles(m: list[int], o: list[int], d: int) -> list[int]:
    """Doubles when no bear-off can happen this turn (bar, or four or more checkers out).

    The steps of a double can always be reordered so that their source points
    never rise, so each play is found once by choosing the next step's source
    among the sources at or below the previous one.  No bear-off can follow a
    bar entry: the entered checker cannot get home and leave steps to spare.
    """
    bar = m[25]
    base = 0
    if bar:
        e = ENTRY[d]
        if o[e] >= 2:
            return []
        if bar >= 4:
            return [4 * (W[e] - W[25]) + (H[e] if o[e] == 1 else 0)]
        base = bar * (W[e] - W[25]) + (H[e] if o[e] == 1 else 0)
    avail = m[:]
    if bar:
        avail[ENTRY[d]] += bar
    # sources that can ever hold a checker: occupied, or fed from the source above
    sources = []
    fed = 0  # bit mask of points a source above can feed
    for p in range(24, d, -1):
        if (avail[p] or fed >> p & 1) and o[p - d] < 2:
            sources.append(p)
            fed |= 1 << (p - d)
    # the greedy maximum number of steps (moving more never blocks later steps)
    total = bar
    arrivals = [0] * 26
    for p in sources:
        n = avail[p] + arrivals[p]
        if n:
            k = min(n, 4 - total)
            arrivals[p - d] += k
            total += k
            if total == 4:
                break
    need = total - bar
    if need == 0:
        return [base] if bar else []
    w, h = W, H
    n_sources = len(sources)
    targets = [p - d for p in sources]
    keys = [w[p - d] - w[p] for p in sources]
    hit_keys = [w[p - d] - w[p] + h[p - d] for p in sources]
    blots = [o[t] == 1 for t in targets]
    landed = [0] * 26
    result: list[int] = []

    if need == 4:
        # the common case, unrolled: four nested loops instead of recursive calls
        for i1 in range(n_sources):
            p1 = sources[i1]
            if not avail[p1]:
                continue
            t1 = targets[i1]
            k1 = base + hit_keys[i1] if blots[i1] and not landed[t1] else base + keys[i1]
            avail[p1] -= 1
            avail[t1] += 1
            landed[t1] += 1
            for i2 in range(i1, n_sources):
                p2 = sources[i2]
                if not avail[p2]:
                    continue
                t2 = targets[i2]
                k2 = k1 + hit_keys[i2] if blots[i2] and not landed[t2] else k1 + keys[i2]
                avail[p2] -= 1
                avail[t2] += 1
                landed[t2] += 1
                for i3 in range(i2, n_sources):
                    p3 = sources[i3]
                    if not avail[p3]:
                        continue
                    t3 = targets[i3]
                    k3 = k2 + hit_keys[i3] if blots[i3] and not landed[t3] else k2 + keys[i3]
                    avail[p3] -= 1
                    avail[t3] += 1
                    landed[t3] += 1
                    for i4 in range(i3, n_sources):
                        if avail[sources[i4]]:
                            if blots[i4] and not landed[targets[i4]]:
                                result.append(k3 + hit_keys[i4])
                            else:
                                result.append(k3 + keys[i4])
                    landed[t3] -= 1
                    avail[t3] -= 1
                    avail[p3] += 1
                landed[t2] -= 1
                avail[t2] -= 1
                avail[p2] += 1
            landed[t1] -= 1
            avail[t1] -= 1
            avail[p1] += 1
        return result

    def walk(j: int, left: int, key: int) -> None:
        append = result.append
        for i in range(j, n_sources):
            p = sources[i]
            if not avail[p]:
                continue
            t = targets[i]
            k = key + hit_keys[i] if blots[i] and not landed[t] else key + keys[i]
            if left == 1:
                append(k)
                continue
            avail[p] -= 1
            avail[t] += 1
            landed[t] += 1
            if left == 2:
                # the last step, inlined: every source still holding a checker ends a play
                for i2 in range(i, n_sources):
                    if avail[sources[i2]]:
                        if blots[i2] and not landed[targets[i2]]:
                            append(k + hit_keys[i2])
                        else:
                            append(k + keys[i2])
            else:
                walk(i, left - 1, k)  # noqa: F821 (del below)
            landed[t] -= 1
            avail[t] -= 1
            avail[p] += 1

    walk(0, need, base)
    del walk  # its closure refers to itself: free it now, not in a garbage collection
    return result


def _two_dice_home(m: list[int], o: list[int], a: int, b: int) -> list[int]:
    """Non-doubles, no bar, at most one checker outside home: bear-offs may happen."""
    found: dict[int, int] = {}
    singles_a: list[int] = []
    singles_b: list[int] = []
    for first, second, singles in ((a, b, singles_a), (b, a, singles_b)):
        for s, t in step_sources(m, o, first):
            hit = t > 0 and o[t] == 1
            k1 = W[t] - W[s] + H[t] if hit else W[t] - W[s]
            m[s] -= 1
            m[t] += 1
            if hit:
                o[t] = 0
            seconds = step_sources(m, o, second)
            for s2, t2 in seconds:
                found[k1 + _step_key(s2, t2, o)] = 0
            if not seconds:
                singles.append(k1)
            if hit:
                o[t] = 1
            m[t] -= 1
            m[s] += 1
    if found:
        return list(found)
    return list(dict.fromkeys(singles_a or singles_b))


def _doubles_home(m: list[int], o: list[int], d: int) -> list[int]:
    """Doubles, no bar, at most three checkers outside home: bear-offs may happen."""
    found: dict[int, int] = {}
    most = [0]

    def walk(top: int, left: int, key: int, used: int, out: int) -> None:
        moved = False
        for s in range(top, 0, -1):
            if not m[s]:
                continue
            t = s - d
            if t > 0:
                if o[t] >= 2:
                    continue
            elif out or (t < 0 and any(m[s + 1 : 7])):
                continue
            else:
                t = 0
            hit = t > 0 and o[t] == 1
            k = key + W[t] - W[s] + H[t] if hit else key + W[t] - W[s]
            moved = True
            if left == 1:
                found[k] = used + 1
                most[0] = max(most[0], used + 1)
                continue
            m[s] -= 1
            m[t] += 1
            if hit:
                o[t] = 0
            walk(s, left - 1, k, used + 1, out - 1 if s > 6 >= t else out)  # noqa: F821 (del below)
            if hit:
                o[t] = 1
            m[t] -= 1
            m[s] += 1
        if not moved and used:
            found[key] = used
            most[0] = max(most[0], used)

    walk(24, 4, 0, 0, sum(m[7:25]))
    del walk  # a closure that refers to itself: free it now
    return [k for k, used in found.items() if used == most[0]]


# --------------------------------------------------------------------------- reference


def generic_plays(
    m: list[int], o: list[int], d1: int, d2: int, hitter_rule: str = "none"
) -> dict[int, tuple[int, ...]]:
    """Reference generator: every step order, every rule, then R10's maximisation.

    Returns ``{key: raw}`` where ``raw`` is a flat tuple of ``(from, to, die, hit)``
    quadruples in the order the steps are played.
    """
    m = list(m)
    o = list(o)
    hitters = [0] * 26
    orders = [(d1, d1, d1, d1)] if d1 == d2 else [(d1, d2), (d2, d1)]
    if d1 < d2:
        orders.reverse()
    # key -> (dice used, first die, raw); the best (most dice, larger die) wins
    leaves: dict[int, tuple[int, int, tuple[int, ...]]] = {}
    seen: set[tuple[int, int, int, tuple[int, ...]]] = set()
    restricted = hitter_rule != "none"

    def record(used: int, key: int, raw: tuple[int, ...]) -> None:
        first = raw[2] if raw else 0
        old = leaves.get(key)
        if old is None or (used, first) > (old[0], old[1]):
            leaves[key] = (used, first, raw)

    # Without hitter rules the steps of a double can be reordered so that their
    # sources never rise (see _doubles), which spares most of the search.
    descending = d1 == d2 and not restricted

    def walk(order_i: int, seq: tuple[int, ...], i: int, key: int, raw: tuple[int, ...]) -> None:
        top = raw[-4] if descending and raw else 25
        state = (order_i, i, key, tuple(hitters) if restricted else (top,))
        if state in seen:
            return
        seen.add(state)
        if i == len(seq):
            record(i, key, raw)
            return
        d = seq[i]
        moved = False
        for s, t in step_sources(m, o, d):
            if s > top:
                continue
            hit = t > 0 and o[t] == 1
            # which kinds of checker can leave s: plain ones and/or hitters
            kinds = [False]
            if restricted:
                kinds = []
                if m[s] > hitters[s]:
                    kinds.append(False)
                if hitters[s]:
                    kinds.append(True)
            for is_hitter in kinds:
                if is_hitter and (hitter_rule == "frozen_in_home" or (t > 0 and m[t] > 0)):
                    continue
                becomes_hitter = is_hitter or (restricted and hit and 1 <= t <= 6)
                m[s] -= 1
                m[t] += 1
                if hit:
                    o[t] = 0
                if is_hitter:
                    hitters[s] -= 1
                if becomes_hitter and t > 0:
                    hitters[t] += 1
                step_key = W[t] - W[s] + (H[t] if hit else 0)
                raw_next = (*raw, s, t, d, int(hit))
                walk(order_i, seq, i + 1, key + step_key, raw_next)  # noqa: F821 (del below)
                if becomes_hitter and t > 0:
                    hitters[t] -= 1
                if is_hitter:
                    hitters[s] += 1
                if hit:
                    o[t] = 1
                m[t] -= 1
                m[s] += 1
                moved = True
        if not moved:
            record(i, key, raw)

    for order_i, seq in enumerate(orders):
        walk(order_i, seq, 0, 0, ())
    del walk  # a closure that refers to itself: free it now
    most = max((used for used, _, _ in leaves.values()), default=0)
    if most == 0:
        return {}
    best = [(k, v) for k, v in leaves.items() if v[0] == most]
    if most == 1 and d1 != d2:
        high = max(d1, d2)
        if any(v[1] == high for _, v in best):
            best = [(k, v) for k, v in best if v[1] == high]
    return {k: v[2] for k, v in best}


def step_sources(m: list[int], o: list[int], d: int) -> list[tuple[int, int]]:
    """Legal single steps ``(from, to)`` with die ``d`` on the board as it is now."""
    if m[25]:
        t = ENTRY[d]
        return [(25, t)] if o[t] < 2 else []
    steps = []
    all_home = not any(m[7:25])
    for s in range(24, 0, -1):
        if not m[s]:
            continue
        t = s - d
        if t > 0:
            if o[t] < 2:
                steps.append((s, t))
        elif all_home and (t == 0 or not any(m[s + 1 : 7])):
            steps.append((s, 0))
    return steps
