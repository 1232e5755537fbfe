"""eXtreme Gammon's container: the rich header and the zlib archive of its members.

An XG file (``.xg``, ``.xgp``) is an 8,232-byte rich header (magic ``RGMH``), an
optional JPEG thumbnail, then a zlib archive: compressed members, a compressed
registry of 532-byte entries and a 36-byte trailer whose CRC-32 covers members and
registry.  The members are ``temp.xg`` (the game records), ``temp.xgi`` (its first
and last record), and, only when they hold something, ``temp.xgr`` (rollouts) and
``temp.xgc`` (comments): XG leaves an empty one out, and stock xgdatatools refuses
an empty member.  Only the standard library is used.

>>> data = write_archive({"temp.xg": b"records"}, "Alice - Bob")
>>> data[:4], read_archive(data)
(b'RGMH', {'temp.xg': b'records'})
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Collection
from typing import Final

from gammon.errors import InvalidNotationError
from gammon.match.formats.limits import ReadLimitError, current_limits, inflate

__all__ = ["RICH_HEADER", "crc32", "read_archive", "write_archive"]

RICH_HEADER: Final = 8232
REGISTRY_ENTRY: Final = 532
TRAILER: Final = 36
MAGIC_RICH: Final = b"RGMH"


def bad(message: str) -> InvalidNotationError:
    """The error for a file that is not a valid XG file."""
    return InvalidNotationError(f"not a valid XG file: {message}")


def crc32(data: bytes) -> int:
    """CRC-32 as the signed 32-bit integer the archive stores.

    >>> crc32(b"xg"), crc32(b"\\xff\\xff")
    (1978209786, -65536)
    """
    crc = zlib.crc32(data) & 0xFFFFFFFF
    return crc - (1 << 32) if crc >= 1 << 31 else crc


def read_archive(data: bytes, only: Collection[str] | None = None) -> dict[str, bytes]:
    """The members of an XG file (``temp.xg``, ``temp.xgi``, ...), uncompressed (with
    ``only``, those members only: the others are not inflated).

    Each compressed part is inflated under the bounds of
    :func:`~gammon.match.formats.limits.current_limits` (a member, the whole file, the
    number of members): a file past them is refused with a
    :class:`~gammon.match.formats.limits.ReadLimitError`, however far it would inflate.

    >>> read_archive(b"RGMH")
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: not a valid XG file: 4 bytes is too short
    """
    if len(data) < RICH_HEADER + TRAILER:
        raise bad(f"{len(data)} bytes is too short")
    if data[:4] != MAGIC_RICH:
        raise bad(f"the file starts with {data[:4]!r}, not {MAGIC_RICH!r}")
    limits = current_limits()
    end = len(data) - TRAILER
    crc, count, _version, reg_size, data_size, packed = struct.unpack_from("<6i", data, end)
    reg_start = end - reg_size
    start = reg_start - data_size
    if min(count, reg_size, data_size) < 0 or start < RICH_HEADER:
        raise bad("the archive trailer does not fit the file")
    if count > limits.members:
        raise ReadLimitError(
            f"not a valid XG file: the archive says it holds {count} members, "
            f"more than the {limits.members} a file may hold: refused"
        )
    if crc32(data[start:end]) != crc:
        raise bad("the archive's CRC-32 does not match its content")
    registry = data[reg_start:end]
    if packed & 0xFF:
        registry = inflate(
            registry,
            min(limits.member_bytes, count * REGISTRY_ENTRY),
            "not a valid XG file: the archive registry",
        )
    members: dict[str, bytes] = {}
    for i in range(count):
        entry = registry[i * REGISTRY_ENTRY : (i + 1) * REGISTRY_ENTRY]
        if len(entry) < REGISTRY_ENTRY:
            raise bad("the archive registry is cut short")
        name = entry[1 : 1 + entry[0]].decode("latin-1")
        _size, csize, offset, _crc32 = struct.unpack_from("<4i", entry, 512)
        if csize < 0 or offset < 0:
            raise bad(f"the member {name!r} has a negative size or place")
        if only is not None and name not in only:
            continue
        blob = data[start + offset : start + offset + csize]
        if entry[528] == 0:
            what = f"not a valid XG file: the member {name!r}"
            members[name] = inflate(blob, limits.member_bytes, what)
        else:
            members[name] = blob
    return members


def _rich_header(name: str) -> bytes:
    """The 8,232-byte header: magic, version, size, no thumbnail, a zero GUID, names."""
    head = struct.pack("<4sIIqI16s", MAGIC_RICH, 1, RICH_HEADER, 0, 0, bytes(16))
    game = name.encode("utf-16-le")[:2046].ljust(2048, b"\0")
    return head + game + bytes(3 * 2048)


def write_archive(members: dict[str, bytes], name: str = "") -> bytes:
    """An XG file holding ``members`` (each compressed), with no thumbnail.  An empty
    member is left out, as XG leaves out ``temp.xgr`` without rollouts."""
    blobs = bytearray()
    registry = bytearray()
    kept = {member: content for member, content in members.items() if content}
    for member, content in kept.items():
        packed = zlib.compress(content)
        entry = bytearray(REGISTRY_ENTRY)
        raw = member.encode("latin-1")
        entry[0] = len(raw)
        entry[1 : 1 + len(raw)] = raw
        struct.pack_into("<4i", entry, 512, len(content), len(packed), len(blobs), crc32(content))
        entry[528], entry[529] = 0, 2  # compressed, default level
        registry += entry
        blobs += packed
    reg = zlib.compress(bytes(registry))
    stream = bytes(blobs) + reg
    trailer = struct.pack("<5i", crc32(stream), len(kept), 1, len(reg), len(blobs))
    trailer += b"\x01".ljust(TRAILER - len(trailer), b"\0")
    return _rich_header(name) + stream + trailer
