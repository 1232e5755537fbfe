"""Match equity tables (METs): the chance of winning a match from a score.

A player "n-away" needs n more points.  The default table is Neil Kazaross's
Kazaross-XG2 (2011), shipped as ``gammon/bots/data/Kazaross-XG2.xml`` in gnubg's
XML format with its permissive notice kept.

>>> met = MatchEquityTable.default()
>>> met.name, met.length
('Kazaross XG2 25 point MET', 25)
>>> met.pre_crawford(1, 2)          # Crawford game, 1-away against 2-away
0.67736
>>> met.post_crawford(2)            # post-Crawford, the trailer is 2-away
0.48803
>>> met.match_winning_chance(1, 2, crawford_game=False, post_crawford=True)
0.51197
>>> met.match_winning_chance(0, 3, crawford_game=False, post_crawford=False)
1.0

How a score is valued (formats.md, "Crawford handling"):

* Entries of the pre-Crawford table with a 1-away player are the chance at the
  *start of the Crawford game*: the leader has just reached 1-away and the next
  game is played without a cube.
* Once the Crawford game is over, the post-Crawford vector applies (the cube is
  live again; the trailer doubles at once).  A match played without the Crawford
  rule uses the post-Crawford vector at every 1-away score, as its cube is live.
* A player 0-away (or less) has won: chance 1 (and 0 for the other).

:meth:`MatchEquityTable.after_game` turns the result of the game being played
into the chance of winning the match, choosing the table of the *next* game.

Scores beyond the table (matches are allowed up to 255 points) are extrapolated.
Pre-Crawford, a normal model fitted to Kazaross-XG2 between 8- and 25-away
(largest error 0.005 there), ``Phi((b - a) / (1.78 * sqrt(a + b)))`` for a
player ``a``-away against ``b``-away, continues the table from its nearest edge
(shifted on the probit scale so that the two meet).  Post-Crawford, the
trailer's chance keeps falling at the average rate of the table's last five
entries.

>>> met.pre_crawford(31, 31), round(met.pre_crawford(27, 31), 3), round(met.pre_crawford(1, 40), 5)
(0.5, 0.616, 0.99995)
>>> round(met.post_crawford(30), 5)
0.0003
"""

from __future__ import annotations

import functools
import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from statistics import NormalDist
from typing import Final

__all__ = ["DEFAULT_MET", "MatchEquityTable", "score_after_game"]

#: The file name of the default table inside ``gammon/bots/data``.
DEFAULT_MET: Final = "Kazaross-XG2.xml"


def score_after_game(
    away_me: int,
    away_opp: int,
    points_won_by_me: int,
    *,
    crawford_game: bool,
    post_crawford: bool,
    crawford_rule: bool = True,
) -> tuple[int, int, bool, bool]:
    """The score after a game: ``(away_me, away_opp, crawford_game, post_crawford)``.

    ``points_won_by_me`` is positive when "me" won the game, negative when the
    opponent did (0 for a drawn game).  The flags describe the *next* game: the
    Crawford game comes right after a player first reaches 1-away (when the
    Crawford rule is on), and every game after it is post-Crawford.  A finished
    match returns an away count of 0 or less for the winner.

    >>> score_after_game(3, 2, 2, crawford_game=False, post_crawford=False)
    (1, 2, True, False)
    >>> score_after_game(1, 2, -1, crawford_game=True, post_crawford=False)
    (1, 1, False, True)
    >>> score_after_game(3, 2, 2, crawford_game=False, post_crawford=False, crawford_rule=False)
    (1, 2, False, True)
    """
    _check_flags(crawford_game, post_crawford)
    if points_won_by_me > 0:
        away_me -= points_won_by_me
    else:
        away_opp += points_won_by_me
    if away_me <= 0 or away_opp <= 0:
        return away_me, away_opp, False, False
    one_away = away_me == 1 or away_opp == 1
    if crawford_game or post_crawford:
        return away_me, away_opp, False, True
    if one_away:
        return away_me, away_opp, crawford_rule, not crawford_rule
    return away_me, away_opp, False, False


#: The spread of the normal model that extrapolates a table (fitted to Kazaross-XG2).
_SPREAD: Final = 1.78
_NORMAL: Final = NormalDist()


def _model_z(away_me: int, away_opp: int) -> float:
    """The probit of "me" winning from ``away_me`` against ``away_opp`` in the normal model."""
    return (away_opp - away_me) / (_SPREAD * math.sqrt(away_me + away_opp))


def _check_flags(crawford_game: bool, post_crawford: bool) -> None:
    if crawford_game and post_crawford:
        raise ValueError("a game cannot be both the Crawford game and post-Crawford")


class MatchEquityTable:
    """A match equity table: a pre-Crawford square table and a post-Crawford vector.

    ``pre[i][j]`` is the chance of a player ``i+1``-away against ``j+1``-away;
    ``post[j]`` the chance of the trailer ``j+1``-away once the Crawford game is
    over (the leader is 1-away).  Build one with :meth:`default`, :meth:`from_xml`
    or :meth:`from_file`.
    """

    __slots__ = ("_post", "_pre", "description", "name")

    def __init__(
        self,
        pre: Sequence[Sequence[float]],
        post: Sequence[float],
        *,
        name: str = "",
        description: str = "",
    ) -> None:
        n = len(pre)
        if n == 0 or any(len(row) != n for row in pre):
            raise ValueError("the pre-Crawford table must be square and not empty")
        if len(post) < n:
            raise ValueError(f"the post-Crawford vector needs {n} entries, got {len(post)}")
        for value in (*(v for row in pre for v in row), *post):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"match winning chance {value!r} is not in 0..1")
        self._pre: tuple[tuple[float, ...], ...] = tuple(tuple(map(float, row)) for row in pre)
        self._post: tuple[float, ...] = tuple(map(float, post[:n]))
        self.name = name
        self.description = description

    # ------------------------------------------------------------------ constructors

    @classmethod
    def default(cls) -> MatchEquityTable:
        """The Kazaross-XG2 table shipped with gammon (loaded once, then shared)."""
        return _default()

    @classmethod
    def from_file(cls, path: str | Path) -> MatchEquityTable:
        """Read a table in gnubg's XML format from a file."""
        return cls.from_xml(Path(path).read_text(encoding="utf-8"))

    @classmethod
    def from_xml(cls, text: str) -> MatchEquityTable:
        """Parse a table in gnubg's XML format (``met.dtd``, "explicit" tables only).

        >>> xml = '''<met><info><name>tiny</name></info>
        ... <pre-crawford-table type="explicit"><row><me>0.5</me><me>0.7</me></row>
        ... <row><me>0.3</me><me>0.5</me></row></pre-crawford-table>
        ... <post-crawford-table type="explicit" player="both">
        ... <row><me>0.5</me><me>0.49</me></row></post-crawford-table></met>'''
        >>> t = MatchEquityTable.from_xml(xml)
        >>> t.length, t.pre_crawford(2, 1), t.post_crawford(2)
        (2, 0.3, 0.49)
        """
        root = ET.fromstring(text)
        if root.tag != "met":
            raise ValueError(f"not a match equity table: root element <{root.tag}>")
        name = (root.findtext("info/name") or "").strip()
        description = (root.findtext("info/description") or "").strip()
        pre_el = root.find("pre-crawford-table")
        post_el = root.find("post-crawford-table")
        if pre_el is None or post_el is None:
            raise ValueError("a match equity table needs a pre- and a post-Crawford table")
        for el in (pre_el, post_el):
            kind = el.get("type", "explicit")
            if kind != "explicit":
                raise ValueError(f"only explicit tables are supported, not type={kind!r}")
        pre = [_row(row) for row in pre_el.findall("row")]
        post_rows = post_el.findall("row")
        if not post_rows:
            raise ValueError("the post-Crawford table has no row")
        return cls(pre, _row(post_rows[0]), name=name, description=description)

    # ------------------------------------------------------------------ look-ups

    @property
    def length(self) -> int:
        """The longest away count the table holds (longer ones are extrapolated)."""
        return len(self._pre)

    @staticmethod
    def _check_away(*aways: int) -> None:
        for away in aways:
            if isinstance(away, bool) or not isinstance(away, int) or away < 1:
                raise ValueError(f"an away count is a whole number of at least 1, not {away!r}")

    def pre_crawford(self, away_me: int, away_opp: int) -> float:
        """The pre-Crawford entry: ``away_me``-away against ``away_opp``-away.

        Beyond the table it is extrapolated (see the module notes).

        >>> MatchEquityTable.default().pre_crawford(2, 3)
        0.59947
        """
        self._check_away(away_me, away_opp)
        n = len(self._pre)
        if away_me <= n and away_opp <= n:
            return self._pre[away_me - 1][away_opp - 1]
        edge_me, edge_opp = min(away_me, n), min(away_opp, n)
        edge = min(1.0 - 1e-12, max(1e-12, self._pre[edge_me - 1][edge_opp - 1]))
        z = _NORMAL.inv_cdf(edge) - _model_z(edge_me, edge_opp) + _model_z(away_me, away_opp)
        return _NORMAL.cdf(z)

    def post_crawford(self, away_trailer: int) -> float:
        """The trailer's chance after the Crawford game (the leader is 1-away).

        Beyond the table it keeps falling at the rate of the table's last
        entries (a table of a single entry cannot be extrapolated).

        >>> MatchEquityTable.default().post_crawford(1)
        0.5
        """
        self._check_away(away_trailer)
        n = len(self._post)
        if away_trailer <= n:
            return self._post[away_trailer - 1]
        if n < 2:
            raise ValueError(f"away count {away_trailer} is beyond this 1-away table")
        k = min(5, n - 1)
        last, earlier = self._post[n - 1], self._post[n - 1 - k]
        rate = (last / earlier) ** (1.0 / k) if earlier > 0 else 0.0
        return last * rate ** (away_trailer - n)

    def match_winning_chance(
        self,
        away_me: int,
        away_opp: int,
        *,
        crawford_game: bool,
        post_crawford: bool,
        crawford_rule: bool = True,
    ) -> float:
        """The chance that "me" wins the match, at the start of a game at this score.

        ``crawford_game``: this game is the Crawford game (someone is 1-away, no
        cube).  ``post_crawford``: the Crawford game has been played.  With the
        Crawford rule on, a 1-away score must say which of the two it is; with
        ``crawford_rule=False`` a 1-away score is valued with the post-Crawford
        vector (the cube is live).  An away count of 0 or less has won.

        >>> met = MatchEquityTable.default()
        >>> met.match_winning_chance(1, 2, crawford_game=True, post_crawford=False)
        0.67736
        >>> met.match_winning_chance(3, 1, crawford_game=False, post_crawford=True)
        0.32264
        >>> met.match_winning_chance(2, -1, crawford_game=False, post_crawford=False)
        0.0
        """
        _check_flags(crawford_game, post_crawford)
        if away_me <= 0 and away_opp <= 0:
            raise ValueError("both players cannot have won the match")
        if away_me <= 0:
            return 1.0
        if away_opp <= 0:
            return 0.0
        one_away = away_me == 1 or away_opp == 1
        if crawford_game:
            if not one_away:
                raise ValueError(
                    f"the Crawford game needs a 1-away player, not {away_me}-away {away_opp}-away"
                )
            return self.pre_crawford(away_me, away_opp)
        if one_away:
            if not post_crawford and crawford_rule:
                raise ValueError(
                    f"score {away_me}-away {away_opp}-away: say whether this is the "
                    "Crawford game or post-Crawford"
                )
            if away_me == 1 and away_opp == 1:
                return self.post_crawford(1)
            if away_me == 1:
                return 1.0 - self.post_crawford(away_opp)
            return self.post_crawford(away_me)
        if post_crawford:
            raise ValueError(
                f"post-Crawford needs a 1-away player, not {away_me}-away {away_opp}-away"
            )
        return self.pre_crawford(away_me, away_opp)

    def after_game(
        self,
        away_me: int,
        away_opp: int,
        points_won_by_me: int,
        *,
        crawford_game: bool = False,
        post_crawford: bool = False,
        crawford_rule: bool = True,
    ) -> float:
        """The chance of winning the match once the current game ends.

        ``points_won_by_me`` is positive when "me" wins the game (result x cube),
        negative when the opponent does.  The flags describe the game being played.

        >>> met = MatchEquityTable.default()
        >>> met.after_game(3, 2, 2)      # 1-away against 2-away: Crawford game next
        0.67736
        >>> met.after_game(2, 1, 2, post_crawford=True)
        1.0
        >>> met.after_game(3, 3, -1)     # the opponent wins a single game
        0.40053
        """
        a, b, crawford, post = score_after_game(
            away_me,
            away_opp,
            points_won_by_me,
            crawford_game=crawford_game,
            post_crawford=post_crawford,
            crawford_rule=crawford_rule,
        )
        return self.match_winning_chance(
            a, b, crawford_game=crawford, post_crawford=post, crawford_rule=crawford_rule
        )

    def __repr__(self) -> str:
        return f"<MatchEquityTable {self.name!r}, {self.length} points>"


def _row(row: ET.Element) -> list[float]:
    values = []
    for me in row.findall("me"):
        text = (me.text or "").strip()
        try:
            values.append(float(text))
        except ValueError:
            raise ValueError(f"bad match winning chance {text!r}") from None
    return values


@functools.cache
def _default() -> MatchEquityTable:
    text = resources.files("gammon.bots").joinpath("data", DEFAULT_MET).read_text(encoding="utf-8")
    return MatchEquityTable.from_xml(text)
