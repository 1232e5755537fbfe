"""Hostile match files (issue #30): every reader refuses them with a clear
:class:`~gammon.errors.InvalidNotationError` (a ``ValueError``), and reading them costs
bounded memory and time, whatever they claim.

Each case is read under :func:`tracemalloc` (every byte Python allocates, the inflated
parts included): before the bounds, the 73 KB ``.xg`` bomb below inflated its 64 MiB at
once (and the issue's many-member file, gigabytes), nested SGF raised
``RecursionError``, a 100,000-digit number ``ValueError`` from ``int``, and a long line of
spaces in a ``.mat`` file took minutes in a backtracking pattern.
"""

from __future__ import annotations

import struct
import time
import tracemalloc
import zlib
from pathlib import Path

import pytest

from gammon import InvalidNotationError
from gammon.match.formats import mat_to_record, read_match, record_to_xg
from gammon.match.formats.limits import ReadLimitError, ReadLimits, inflate, reading
from gammon.match.formats.xg import RECORD, read_archive
from hostilekit import Member, container, xg_bomb, xg_many, zeros

DATA = Path(__file__).resolve().parents[2] / "data"
#: Most bytes Python may hold at once while reading one hostile file.
PEAK: int = 64 << 20
#: Most seconds reading one may take (a loaded CI machine included).
SECONDS: float = 10.0


def _valid_xg() -> bytes:
    return record_to_xg(mat_to_record((DATA / "tiny.mat").read_text(encoding="utf-8")))


def _bogus_segment() -> bytes:
    """A valid-looking container whose ``temp.xg`` is not a zlib stream."""
    blob = bytes(range(256)) * 16
    return container(blob, [Member("temp.xg", 0, len(blob))])


def _cut_stream() -> bytes:
    """``temp.xg`` a zlib stream cut in the middle (the CRC-32 is right)."""
    whole = zlib.compress(bytes(range(256)) * 4096, 9)
    blob = whole[: len(whole) // 2]
    return container(blob, [Member("temp.xg", 0, len(blob))])


def _registry_bomb() -> bytes:
    """Two members, but a registry that inflates to 64 MiB."""
    blob = zlib.compress(b"x")
    return container(blob, [], count=2, registry=bytes(64 << 20))


def _negative_member() -> bytes:
    blob = zlib.compress(b"x")
    return container(blob, [Member("temp.xg", -5, len(blob))])


def _huge_xg_numbers() -> bytes:
    """A valid file whose first move says it rolled 2,147,483,647 and -2,147,483,648."""
    data = bytearray(read_archive(_valid_xg())["temp.xg"])
    first_move = next(i for i in range(0, len(data), RECORD) if data[i + 8] == 3)
    struct.pack_into("<2i", data, first_move + 100, 2**31 - 1, -(2**31))
    blob = zlib.compress(bytes(data))
    return container(blob, [Member("temp.xg", 0, len(blob))])


MAT_HEAD = " 1 point match\n\n Game 1\n Ann : 0          Bob : 0\n"

#: name, file, what the refusal says
CASES: list[tuple[str, str, bytes | str, str]] = [
    ("member bomb", "bomb.xg", xg_bomb(64 << 20), r"member 'temp.xg' inflates to more than"),
    ("many members", "many.xg", xg_many(5000, 1 << 20), r"holds 5000 members, more than the 64"),
    (
        "total bomb",
        "total.xg",
        xg_many(40, 15 << 20, same_name=True),
        r"inflates past what is left of the .* a file may inflate to",
    ),
    ("registry bomb", "reg.xg", _registry_bomb(), r"registry inflates to more than 1064 bytes"),
    ("bogus segment", "bogus.xg", _bogus_segment(), r"'temp.xg' does not inflate"),
    ("cut stream", "cut.xg", _cut_stream(), r"'temp.xg' is cut short"),
    ("truncated archive", "half.xg", _valid_xg()[:-100], r"trailer does not fit|CRC-32"),
    ("too short", "short.xg", b"RGMH" + bytes(100), r"is too short"),
    ("wrong magic", "magic.xg", b"PK\x03\x04" + bytes(9000), r"starts with b'PK\\x03\\x04'"),
    ("negative place", "neg.xg", _negative_member(), r"negative size or place"),
    ("huge XG dice", "dice.xg", _huge_xg_numbers(), r"dice 2147483647--2147483648"),
    ("garbage .xg", "junk.xg", bytes(range(256)) * 4000, r"not a valid XG file"),
    ("garbage .mat", "junk.mat", bytes(range(256)) * 4000, r"line 1: "),
    ("garbage .sgf", "junk.sgf", bytes(range(256)) * 4000, r"SGF line 1: expected '\('"),
    ("nested SGF", "deep.sgf", "(" * 60000, r"game trees nested more than 100 deep"),
    (
        "nested SGF nodes",
        "deep2.sgf",
        "(;GM[6]" + "(;W[31hefe]" * 60000 + ")" * 60001,
        r"game trees nested more than 100 deep",
    ),
    (
        "huge SGF length",
        "len.sgf",
        "(;GM[6]MI[length:" + "9" * 100_000 + "])",
        r"more than 9 digits",
    ),
    ("SGF digit", "dig.sgf", "(;GM[6]MI[length:\u00b2])", r"'\u00b2' is not a number"),
    (
        "huge SGF points",
        "pts.sgf",
        "(;GM[6]MI[length:3]RE[W+" + "9" * 5000 + "];W[31hefe])",
        r"the points: the number 9+\.\.\. has more than 9 digits",
    ),
    ("huge .mat length", "len.mat", " " + "9" * 100_000 + " point match\n", r"more than 9 digits"),
    (
        "huge .mat score",
        "score.mat",
        " 3 point match\n\n Game 1\n A : " + "9" * 5000 + "  B : 0\n",
        r"line 4: .*more than 9 digits",
    ),
    ("huge game number", "game.mat", " 3 point match\n\n Game " + "9" * 10_000 + "\n", r"line 3: "),
    # a backtracking pattern took minutes on these lines (cubic in their length)
    (
        "long line of spaces",
        "spaces.mat",
        MAT_HEAD + " " * 50_000 + "x\n",
        r"not a line of a \.mat file",
    ),
    (
        "long score line",
        "colons.mat",
        " 3 point match\n\n Game 1\n" + " :1" * 30_000 + "x\n",
        r"line 4",
    ),
    ("long tag", "tag.mat", ' 3 point match\n; [a "' + " " * 50_000 + "\n Game 1\n x\n", r"line 4"),
]


@pytest.mark.parametrize(("label", "name", "data", "says"), CASES, ids=[c[0] for c in CASES])
def test_a_hostile_file_is_refused_cheaply(
    label: str, name: str, data: bytes | str, says: str
) -> None:
    raw = data.encode() if isinstance(data, str) else data
    assert len(raw) <= 1 << 20  # what the site takes
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with (
            pytest.raises(InvalidNotationError, match=says) as refused,
            reading(ReadLimits(seconds=SECONDS)),
        ):
            read_match(name, raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    took = time.perf_counter() - started
    assert isinstance(refused.value, ValueError)  # the one hierarchy
    assert peak - len(raw) < PEAK, f"{label}: {peak >> 20} MiB"
    assert took < SECONDS, f"{label}: {took:.1f} s"
    message = str(refused.value)
    assert len(message) < 600 and "Traceback" not in message


def test_the_bounds_hold_outside_a_reading() -> None:
    """The readers are bounded with no :func:`reading` too (the CLI, the tests)."""
    with pytest.raises(ReadLimitError, match="inflates to more than"):
        read_match("bomb.xg", xg_bomb(20 << 20))
    with pytest.raises(ReadLimitError, match="nested more than"):
        read_match("deep.sgf", b"(" * 200)


def test_a_file_that_takes_too_long_is_refused() -> None:
    """The clock is looked at as each entry replays: past the bound the file is refused
    (a thread cannot be stopped from outside, the reader stops itself)."""
    text = (DATA / "mat" / "corpus" / "online_server_7pt.mat").read_bytes()
    read_match("ok.mat", text)  # in time without a bound
    with reading(ReadLimits(seconds=0.001)):
        time.sleep(0.002)
        with pytest.raises(ReadLimitError, match=r"took longer than 0\.001 s"):
            read_match("slow.mat", text)


def test_inflate_bounds_each_part_and_the_whole_file() -> None:
    eight = zlib.compress(bytes(8 << 20))
    with reading(ReadLimits(member_bytes=10 << 20, total_bytes=20 << 20)):
        assert len(inflate(eight, 10 << 20, "a")) == 8 << 20
        assert len(inflate(eight, 10 << 20, "b")) == 8 << 20
        with pytest.raises(ReadLimitError, match=r"c inflates past what is left of the 20971520"):
            inflate(eight, 10 << 20, "c")
    with reading():  # a new file counts from zero
        assert len(inflate(eight, 8 << 20, "d")) == 8 << 20
        with pytest.raises(ReadLimitError, match=r"more than 8388607 bytes"):
            inflate(eight, (8 << 20) - 1, "e")
    with pytest.raises(InvalidNotationError, match="f does not inflate"):
        inflate(b"not zlib", 100, "f")


def test_real_files_still_read() -> None:
    """The bounds leave room for what real files hold."""
    data = _valid_xg()
    with reading(ReadLimits(seconds=SECONDS)):
        assert read_match("ok.xg", data).players
    huge = zeros(10 << 20)
    with reading():
        assert inflate(huge, 16 << 20, "ten MiB") == bytes(10 << 20)
