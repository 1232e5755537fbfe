"""What a reader could not replay exactly: warnings kept in the record it returns.

The lenient readers (``mat_to_record`` without ``strict``) keep what a file
writes when the rules cannot replay it exactly, as gnubg does, and say so: each
:class:`ImportWarning` names the line and the game.  A game with a warning that
is not ``exact`` was not rule-checked: :func:`unchecked_games` lists them.  The
warnings live in ``MatchRecord.meta["warnings"]``, so the action log keeps them.

>>> from gammon.match import MatchRecord, TableOptions
>>> record = with_warnings(MatchRecord(TableOptions()), [ImportWarning(7, 1, "line 7: ...")])
>>> import_warnings(record), unchecked_games(record)
((ImportWarning(line=7, game=1, message='line 7: ...', exact=False),), frozenset({1}))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from gammon.match.record import MatchRecord

__all__ = ["ImportWarning", "import_warnings", "unchecked_games", "with_warnings"]


@dataclass(frozen=True, slots=True)
class ImportWarning:
    """Something a file wrote that the record holds differently.

    ``game`` is the record's game number (1 for its first game), None for the
    whole file; ``exact`` is True when the game was still replayed exactly (a
    money session's score line, say).
    """

    line: int
    game: int | None
    message: str
    exact: bool = False


def with_warnings(record: MatchRecord, warnings: Iterable[ImportWarning]) -> MatchRecord:
    """The record with ``warnings`` in its ``meta`` (and the games they leave unchecked)."""
    items = list(warnings)
    if not items:
        return record
    meta = dict(record.meta)
    meta["warnings"] = [
        {"line": w.line, "game": w.game, "message": w.message, "exact": w.exact} for w in items
    ]
    meta["unchecked_games"] = sorted({w.game for w in items if w.game and not w.exact})
    return replace(record, meta=meta)


def import_warnings(record: MatchRecord) -> tuple[ImportWarning, ...]:
    """The warnings a reader attached to ``record`` (none for a file replayed exactly)."""
    out = []
    for item in record.meta.get("warnings", ()):
        out.append(
            ImportWarning(
                int(item["line"]),
                None if item.get("game") is None else int(item["game"]),
                str(item["message"]),
                bool(item.get("exact", False)),
            )
        )
    return tuple(out)


def unchecked_games(record: MatchRecord) -> frozenset[int]:
    """The games of ``record`` that were not replayed exactly (so not rule-checked)."""
    return frozenset(int(n) for n in record.meta.get("unchecked_games", ()))
