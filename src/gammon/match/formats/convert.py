"""Converting match files: action logs, ``.mat`` and SGF, by their extensions."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from gammon.errors import InvalidNotationError
from gammon.match.formats.matread import mat_to_record
from gammon.match.formats.matwrite import match_to_mat
from gammon.match.formats.sgf import match_to_sgf, sgf_to_record
from gammon.match.record import read_log, replay, write_log

__all__ = ["convert_file", "read_text"]

_LOG_SUFFIXES: Final = (".jsonl", ".log")
_MAT_SUFFIXES: Final = (".mat", ".txt")


def read_text(path: Path) -> str:
    """A match file's text: UTF-8 (a byte-order mark dropped), else Latin-1 (older ``.mat`` exports)."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def convert_file(src_path: str | Path, dst_path: str | Path) -> str:
    """Convert a match file; the direction comes from the extensions.

    Reads an action log (``.jsonl``, ``.log``) or a ``.mat`` file (``.mat``,
    ``.txt``) or SGF (``.sgf``); writes any of them.  Returns a
    one-line summary.  Raises :class:`InvalidNotationError` for an unknown
    extension or a file that does not read.
    """
    src, dst = Path(src_path), Path(dst_path)
    source = src.suffix.lower()
    target = dst.suffix.lower()
    if source in _LOG_SUFFIXES:
        record = read_log(read_text(src))
    elif source in _MAT_SUFFIXES:
        record = mat_to_record(read_text(src))
    elif source == ".sgf":
        record = sgf_to_record(read_text(src))
    else:
        raise InvalidNotationError(
            f"cannot read {src.name!r}: use .jsonl or .log (action log), .mat or .txt (.mat), .sgf"
        )
    if target in _LOG_SUFFIXES:
        out = write_log(record)
    elif target in _MAT_SUFFIXES:
        out = match_to_mat(record)
    elif target == ".sgf":
        out = match_to_sgf(record)
    else:
        raise InvalidNotationError(
            f"cannot write {dst.name!r}: use .jsonl or .log (action log), .mat or .txt, or .sgf"
        )
    final = replay(record)[-1]
    dst.write_text(out, encoding="utf-8")
    games = len(final.games)
    kind = (
        f"{record.options.match_length}-point match" if record.options.is_match else "money session"
    )
    return (
        f"{src} -> {dst}: {kind}, {record.players[0]} vs {record.players[1]}, "
        f"{games} game{'s' if games != 1 else ''} finished, score {final.score[0]}-{final.score[1]}, "
        f"{len(record.actions)} actions"
    )
