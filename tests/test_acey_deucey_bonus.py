"""Acey-deucey's 1-2: the breadth-first generator gives exactly the former one's plays.

The former generator (``reference_plays`` in ``benchmarks/acey_deucey.py``) searched each
double on its own from each board the 1 and the 2 leave; the new one shares the boards
they have in common.  Both must give the same boards, in the same order, each with the same steps.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from gammon import Position
from gammon.rules import track

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "acey_deucey.py"


def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("acey_deucey_benchmark", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


BENCH = _benchmark()
# small 1-2 trees (a few hundred to a few thousand moves), so the slow reference is quick
SAMPLE = [p for p in BENCH.positions(3, 60, 7) if len(p.legal_moves((1, 2))) <= 4000][:24]


def test_sample_is_varied() -> None:
    sizes = {len(p.legal_moves((1, 2))) for p in SAMPLE}
    assert len(SAMPLE) >= 15 and len(sizes) >= 10
    assert any(p.waiting[0] for p in SAMPLE) and any(not p.waiting[0] for p in SAMPLE)


@pytest.mark.parametrize("position", SAMPLE, ids=[p.position_id() for p in SAMPLE])
def test_same_plays_as_the_reference(position: Position) -> None:
    gen = track._Generator(position.variant)
    st = track._state(position)
    expected = BENCH.reference_plays(gen, st)
    got = gen.all_plays(st, 1, 2)
    assert list(got) == list(expected)  # the same boards, in the same order
    assert got == expected  # with the same steps
