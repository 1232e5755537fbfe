"""Converting match files: action logs, ``.mat``, SGF and ``.xg``, by their extensions."""

from __future__ import annotations

from pathlib import Path
from typing import Final, TextIO

from gammon.errors import InvalidNotationError
from gammon.match.formats.matread import mat_to_record
from gammon.match.formats.matwrite import match_to_mat
from gammon.match.formats.notes import import_warnings
from gammon.match.formats.sgf import match_to_sgf, sgf_to_record
from gammon.match.formats.xg import record_to_xg, xg_to_record
from gammon.match.record import MatchRecord, read_log, replay, write_log

__all__ = ["convert_file", "decode_text", "read_match", "read_text"]

_LOG_SUFFIXES: Final = (".jsonl", ".log")
_MAT_SUFFIXES: Final = (".mat", ".txt")


def read_text(path: Path) -> str:
    """A match file's text: UTF-8 (a byte-order mark dropped), else Latin-1 (older ``.mat`` exports)."""
    return decode_text(path.read_bytes())


def decode_text(data: bytes) -> str:
    """Text of a match file's bytes: UTF-8 (a byte-order mark dropped), else Latin-1."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_match(name: str, data: bytes, *, strict: bool = False) -> MatchRecord:
    """A match file's record, the format from the name's extension: an action log
    (``.jsonl``, ``.log``), ``.mat`` (``.mat``, ``.txt``), SGF (``.sgf``) or eXtreme
    Gammon (``.xg``).  ``strict`` refuses a ``.mat`` file that does not replay
    exactly (see :func:`~gammon.match.formats.matread.mat_to_record`)."""
    source = Path(name).suffix.lower()
    if source == ".xg":
        return xg_to_record(data)
    if source in _LOG_SUFFIXES:
        return read_log(decode_text(data))
    if source in _MAT_SUFFIXES:
        return mat_to_record(decode_text(data), strict=strict)
    if source == ".sgf":
        return sgf_to_record(decode_text(data))
    raise InvalidNotationError(
        f"cannot read {Path(name).name!r}: use .jsonl or .log (action log), .mat or .txt "
        "(.mat), .sgf or .xg"
    )


def convert_file(
    src_path: str | Path, dst_path: str | Path, *, strict: bool = False, warn: TextIO | None = None
) -> str:
    """Convert a match file; the direction comes from the extensions.

    Reads an action log (``.jsonl``, ``.log``), a ``.mat`` file (``.mat``,
    ``.txt``), SGF (``.sgf``) or eXtreme Gammon (``.xg``); writes any of them.
    Returns a one-line summary, which counts the reader's warnings (written one a
    line to ``warn`` when given).  Raises
    :class:`InvalidNotationError` for an unknown extension or a file that does
    not read (with ``strict``, a ``.mat`` file that does not replay exactly).
    """
    src, dst = Path(src_path), Path(dst_path)
    target = dst.suffix.lower()
    record = read_match(src.name, src.read_bytes(), strict=strict)
    out: str | bytes
    if target in _LOG_SUFFIXES:
        out = write_log(record)
    elif target in _MAT_SUFFIXES:
        out = match_to_mat(record)
    elif target == ".sgf":
        out = match_to_sgf(record)
    elif target == ".xg":
        out = record_to_xg(record)
    else:
        raise InvalidNotationError(
            f"cannot write {dst.name!r}: use .jsonl or .log (action log), .mat or .txt, .sgf or .xg"
        )
    final = replay(record)[-1]
    if isinstance(out, bytes):
        dst.write_bytes(out)
    else:
        dst.write_text(out, encoding="utf-8")
    notes = import_warnings(record)
    if warn is not None:
        for note in notes:
            print(f"warning: {src.name}: {note.message}", file=warn)
    warnings = len(notes)
    games = len(final.games)
    kind = (
        f"{record.options.match_length}-point match" if record.options.is_match else "money session"
    )
    return (
        f"{src} -> {dst}: {kind}, {record.players[0]} vs {record.players[1]}, "
        f"{games} game{'s' if games != 1 else ''} finished, score {final.score[0]}-{final.score[1]}, "
        f"{len(record.actions)} actions"
        + (f", {warnings} warning{'s' if warnings != 1 else ''}" if warnings else "")
    )
