"""Hostile match files for the tests: eXtreme Gammon containers that inflate without end,
hold thousands of members or a bogus compressed part, and what reading them may cost.

The container is the one :mod:`gammon.match.formats.xg` reads (rich header, compressed
members, a compressed registry of 532-byte entries, a 36-byte trailer whose CRC-32
covers members and registry), written here by hand so that each part can lie.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

from gammon.match.formats.xg import REGISTRY_ENTRY, RICH_HEADER, TRAILER, _crc


@dataclass(frozen=True)
class Member:
    """A registry entry: ``name``, the bytes it points at (``offset``/``size`` into the
    blobs), whether they are stored compressed, and the size it claims inflated."""

    name: str
    offset: int
    size: int
    compressed: bool = True
    claimed: int = 0


def container(
    blobs: bytes,
    members: list[Member],
    *,
    count: int | None = None,
    registry: bytes | None = None,
    packed: bool = True,
) -> bytes:
    """An XG file whose members are ``members`` (over ``blobs``); ``count`` and
    ``registry`` (raw, before compression) may lie.  The CRC-32 is right, so the reader
    gets as far as the parts themselves."""
    if registry is None:
        entries = bytearray()
        for m in members:
            entry = bytearray(REGISTRY_ENTRY)
            raw = m.name.encode("latin-1")
            entry[0] = len(raw)
            entry[1 : 1 + len(raw)] = raw
            struct.pack_into("<4i", entry, 512, m.claimed, m.size, m.offset, 0)
            entry[528] = 0 if m.compressed else 1
            entries += entry
        registry = bytes(entries)
    reg = zlib.compress(registry, 9) if packed else registry
    stream = blobs + reg
    n = len(members) if count is None else count
    trailer = struct.pack("<5i", _crc(stream), n, 1, len(reg), len(blobs))
    trailer += (b"\x01" if packed else b"\x00").ljust(TRAILER - len(trailer), b"\0")
    header = b"RGMH" + bytes(RICH_HEADER - 4)
    return header + stream + trailer


def zeros(size: int) -> bytes:
    """``size`` zero bytes compressed at level 9 (about 1,000 to 1), built a piece at a
    time so that making the bomb does not cost what it would cost to open it."""
    packer = zlib.compressobj(9)
    piece = bytes(1 << 20)
    out = [packer.compress(piece) for _ in range(size >> 20)]
    out.append(packer.compress(bytes(size & ((1 << 20) - 1))))
    out.append(packer.flush())
    return b"".join(out)


def xg_bomb(inflated: int = 60 << 20) -> bytes:
    """A one-member ``.xg`` file whose ``temp.xg`` inflates to ``inflated`` zero bytes
    (the issue's 60 KB file: 60 MiB of zeros)."""
    blob = zeros(inflated)
    return container(blob, [Member("temp.xg", 0, len(blob))])


def xg_many(members: int, inflated: int, *, same_name: bool = False) -> bytes:
    """``members`` registry entries (each its own name, or all ``temp.xg``) pointing at
    one blob that inflates to ``inflated`` bytes: few bytes on the wire, ``members x
    inflated`` opened."""
    blob = zeros(inflated)
    names = ["temp.xg" if same_name else f"m{i}.xg" for i in range(members)]
    return container(blob, [Member(name, 0, len(blob)) for name in names])
