"""Regenerate tests/data/perft-variants.json (perft counts of every variant).

Run from the repository root:  PYTHONPATH=src:tests python tests/data/make_perft_variants.py

The rolls are the first plies of a seeded sequence (1-2 left out: acey-deucey's bonus
roll would make a ply mean two turns).  The backgammon board is followed for 4 plies,
the track games (smaller trees) for 6.  The counts come from our generators;
tests/oracle/test_gnubg_perft.py recounts standard, nackgammon, hypergammon and portes
with gnubg-nn's generator.  The table guards every variant's generator against
unintended change.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from gammon import VARIANTS
from perft import perft

SEED = 15
PLIES = {"board": 4, "track": 6}


def rolls(seed: int, count: int) -> list[str]:
    """The first ``count`` rolls of the seeded sequence, 1-2 left out, high die first."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if {a, b} != {1, 2}:
            out.append(f"{max(a, b)}{min(a, b)}")
    return out


def table() -> dict[str, object]:
    sequence = rolls(SEED, max(PLIES.values()))
    variants = {}
    for name in sorted(VARIANTS):
        used = sequence[: PLIES[VARIANTS[name].family]]
        variants[name] = {"rolls": used, "counts": perft(name, used)}
    return {
        "description": (
            "Distinct positions reached after each ply from each variant's start, one "
            "fixed roll per ply (tests/data/make_perft_variants.py, seed "
            f"{SEED}); a roll with no legal move passes the turn."
        ),
        "variants": variants,
    }


def main() -> None:
    path = Path(__file__).with_name("perft-variants.json")
    path.write_text(json.dumps(table(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
