"""A count of points in words, one or many, in every language (issue #33: never "1 points").

Templates write ``{{ n|points(t) }}`` ("1 point", "3 points"; "1 punto", "3 punti") and
``{{ n|match_points(t) }}`` for a match's length ("1 point match", "5 point match"; in French
"1 point", "5 points").  The browser's texts get both forms (``t("1 point")`` and
``t("%d points")``) and choose the same way.

>>> from gammon.server.i18n import translator
>>> points(1, translator("it")), points(3, translator("it")), points(1, translator("fr"))
('1 punto', '3 punti', '1 point')
>>> match_points(1, translator("fr")), match_points(5, translator("en"))
('1 point', '5 point match')
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["match_points", "points"]


def points(n: int, t: Callable[[str], str]) -> str:
    """``n`` points in the language of ``t``: one or many."""
    return t("1 point") if n == 1 else t("%d points").replace("%d", str(n))


def match_points(n: int, t: Callable[[str], str]) -> str:
    """A match to ``n`` points in the language of ``t``: one or many."""
    return t("1 point match") if n == 1 else t("%d point match").replace("%d", str(n))
