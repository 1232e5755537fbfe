"""Any position, without a match: read from an XGID, a gnubg ID or the board editor,
written back in each form, and judged by the bot (ranked moves or the cube decision) or
rolled out, in a worker (the ``/analysis`` page, :mod:`gammon.server.web.position`).

A :class:`Setup` is a position as the board editor shows it: seat 0 at the bottom,
seat 1 at the top, the seat on roll, the dice (or none: a cube decision), the cube,
the score and the match length.  In an XGID the bottom player is turn 1; in a gnubg
ID the bottom player is gnubg's player 1 and the top player player 0 (as
:func:`gammon.notation.matchid.xgid_to_gnubg_id` seats them).

>>> s = setup_from_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:3:0:7:10")
>>> s.seat, s.dice, s.cube_value, s.cube_owner, s.score, s.match_length
(0, (5, 2), 2, 0, (2, 3), 7)
>>> s.xgid()
'XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:3:0:7:10'
>>> s.gnuid() == setup_from_ids(s.position_id(), s.match_id()).gnuid()
True
>>> setup_from_xgid("XGID=nonsense")
Traceback (most recent call last):
...
gammon.server.protocol.ServerError: not a valid XGID: invalid XGID 'XGID=nonsense': expected 10 fields separated by ':', got 1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from gammon.errors import GammonError
from gammon.notation.matchid import MatchIDRecord, decode_match_id, encode_match_id
from gammon.notation.xgid import format_xgid, read_xgid
from gammon.position import Position
from gammon.server.protocol import ServerError
from gammon.variants import VARIANTS, get_variant

__all__ = [
    "MOVES_SHOWN",
    "Setup",
    "analyse_in_worker",
    "analyse_position",
    "position_rollout_in_worker",
    "setup_from_board",
    "setup_from_body",
    "setup_from_gnuid",
    "setup_from_ids",
    "setup_from_xgid",
]

#: The ranked moves an analysis lists (best first).
MOVES_SHOWN: Final = 10
#: The longest match a setup may have (the Match ID holds 15 bits; nobody plays longer).
MAX_LENGTH: Final = 99
#: The largest cube a setup may have.
MAX_CUBE: Final = 4096


@dataclass(frozen=True, slots=True)
class Setup:
    """A position as the board editor shows it (see the module notes).

    ``position`` is seen from the seat on roll (``seat``: 0 bottom, 1 top); ``cube_owner``
    and ``score`` are by seat; ``dice`` ``None`` asks for the cube decision.
    """

    position: Position
    seat: int = 0
    dice: tuple[int, int] | None = None
    cube_value: int = 1
    cube_owner: int | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    #: The XGID's largest cube (kept so that an XGID reads back the same).
    max_cube: int = 1024

    def __post_init__(self) -> None:
        if self.seat not in (0, 1) or self.cube_owner not in (None, 0, 1):
            raise ServerError("invalid_position", "the seats are 0 (bottom) and 1 (top)")
        v = self.cube_value
        if v < 1 or v > MAX_CUBE or v & (v - 1):
            raise ServerError("invalid_position", f"the cube is a power of two up to {MAX_CUBE}")
        m = self.max_cube
        if m < 1 or m & (m - 1):
            raise ServerError("invalid_position", "the largest cube is a power of two")
        if not 0 <= self.match_length <= MAX_LENGTH:
            raise ServerError("invalid_position", f"the match length is 0 (money) to {MAX_LENGTH}")
        if self.match_length and any(not 0 <= s < self.match_length for s in self.score):
            raise ServerError(
                "invalid_position", "each score is below the match length (0 when it is money)"
            )
        if self.crawford and 1 not in (self.match_length - s for s in self.score):
            raise ServerError("invalid_position", "the Crawford game needs a player 1-away")
        if self.crawford and (self.cube_value != 1 or self.cube_owner is not None):
            # gnubg resets such a cube to 1: nobody doubles in the Crawford game
            raise ServerError(
                "invalid_position", "nobody doubles in the Crawford game: the cube is 1, centred"
            )
        if self.dice is not None and any(not 1 <= d <= 6 for d in self.dice):
            raise ServerError("invalid_position", "the dice are from 1 to 6")

    @property
    def variant(self) -> str:
        """The variant's name."""
        return self.position.variant.name

    def sides(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Each seat's 26 counts in its own numbering (bottom first)."""
        p = self.position
        return (p.player, p.opponent) if self.seat == 0 else (p.opponent, p.player)

    def xgid(self) -> str | None:
        """The XGID (None off the backgammon board)."""
        if not self.position.variant.standard_geometry:
            return None
        owner = {None: 0, 0: 1, 1: -1}[self.cube_owner]
        if self.match_length:
            rules = int(self.crawford)
        else:
            rules = int(self.jacoby)
        return format_xgid(
            self.position,
            turn=1 if self.seat == 0 else -1,
            cube_value=self.cube_value,
            cube_owner=owner,
            dice="00" if self.dice is None else f"{self.dice[0]}{self.dice[1]}",
            score_bottom=self.score[0],
            score_top=self.score[1],
            rules=rules,
            match_length=self.match_length,
            max_cube=max(self.max_cube, self.cube_value),
        )

    def position_id(self) -> str:
        """gnubg's Position ID (with plakoto's pins or acey-deucey's waiting checkers)."""
        return self.position.position_id()

    def match_id(self) -> str:
        """gnubg's Match ID (the bottom seat is gnubg's player 1)."""
        return encode_match_id(
            MatchIDRecord(
                cube_value=self.cube_value,
                cube_owner=None if self.cube_owner is None else 1 - self.cube_owner,
                player_on_roll=1 - self.seat,
                crawford=self.crawford,
                dice=self.dice,
                match_length=self.match_length,
                score=(self.score[1], self.score[0]),
                jacoby=self.jacoby,
            )
        )

    def gnuid(self) -> str:
        """``PositionID:MatchID`` (the Position ID with its suffix, off the backgammon board)."""
        return f"{self.position_id()}:{self.match_id()}"

    def to_json(self) -> dict[str, Any]:
        """What the page draws and the share link carries: the boards per seat, the
        fields, and every ID.

        >>> setup_from_board({"variant": "standard", "board": [[0, 2], [0, 0, 3]]}).to_json()["board"][1][:3]
        [12, 0, 3]
        """
        p = self.position
        pinned = [[q for q in range(1, 25) if mask >> q & 1] for mask in p.pinned]
        waiting = list(p.waiting)
        if self.seat == 1:
            pinned.reverse()
            waiting.reverse()
        return {
            "variant": self.variant,
            "board": [list(side) for side in self.sides()],
            "pinned": pinned,
            "waiting": waiting,
            "turn": self.seat,
            "dice": list(self.dice) if self.dice else None,
            "cube": {"value": self.cube_value, "owner": self.cube_owner},
            "length": self.match_length,
            "score": list(self.score),
            "crawford": self.crawford,
            "jacoby": self.jacoby,
            "max_cube": self.max_cube,
            "xgid": self.xgid(),
            "position_id": self.position_id(),
            "match_id": self.match_id(),
        }

    def cache_key(self) -> str:
        """The same position in the same situation has the same key."""
        return f"{self.variant}|{self.gnuid()}"


def _bad(what: str, exc: Exception) -> ServerError:
    return ServerError("invalid_position", f"not a valid {what}: {str(exc)[:240]}")


def _variant(name: object) -> str:
    if not isinstance(name, str) or name not in VARIANTS:
        raise ServerError("invalid_position", f"unknown variant {str(name)[:40]!r}")
    return name


def setup_from_xgid(text: object, variant: object = "standard") -> Setup:
    """A setup from an XGID (a double pending, ``D``, ``B`` or ``R``, is read as the cube
    decision before it); ``invalid_position`` for anything else."""
    if not isinstance(text, str) or len(text) > 200:
        raise ServerError("invalid_position", "not a valid XGID: expected text")
    name = _variant(variant)
    try:
        rec = read_xgid(text, name)
        position = Position(rec.player, rec.opponent, get_variant(name))
        dice = None if rec.dice in ("00", "D", "B", "R") else (int(rec.dice[0]), int(rec.dice[1]))
        return Setup(
            position,
            0 if rec.turn == 1 else 1,
            dice,
            rec.cube_value,
            {0: None, 1: 0, -1: 1}[rec.cube_owner],
            rec.match_length,
            (rec.score_bottom, rec.score_top),
            rec.is_crawford,
            rec.jacoby,
            min(rec.max_cube, 1 << 15),
        )
    except GammonError as exc:
        if isinstance(exc, ServerError):
            raise
        raise _bad("XGID", exc) from None


def setup_from_ids(position_id: object, match_id: object, variant: object = "standard") -> Setup:
    """A setup from a Position ID (with its suffix off the backgammon board) and a
    Match ID (an empty one: money, the bottom seat on roll, no dice)."""
    name = _variant(variant)
    if not isinstance(position_id, str) or not isinstance(match_id, str):
        raise ServerError("invalid_position", "not a valid gnubg ID: expected text")
    try:
        position = Position.from_position_id(position_id.strip(), name)
        rec = decode_match_id(match_id.strip()) if match_id.strip() else MatchIDRecord()
        seat = 1 - rec.player_on_roll
        if not match_id.strip():
            seat = 0
        return Setup(
            position,
            seat,
            rec.dice,
            rec.cube_value,
            None if rec.cube_owner is None else 1 - rec.cube_owner,
            rec.match_length,
            (rec.score[1], rec.score[0]),
            rec.crawford,
            rec.jacoby,
        )
    except GammonError as exc:
        if isinstance(exc, ServerError):
            raise
        raise _bad("gnubg ID", exc) from None


def setup_from_gnuid(text: object, variant: object = "standard") -> Setup:
    """A setup from gnubg's ``PositionID:MatchID`` (``PositionID:suffix:MatchID`` for
    plakoto's pins and acey-deucey's waiting checkers)."""
    if not isinstance(text, str) or len(text) > 200:
        raise ServerError("invalid_position", "not a valid gnubg ID: expected text")
    body = text.strip()
    for prefix in ("GNUBGID", "GNUID"):
        if body.upper().startswith(prefix):
            body = body[len(prefix) :].lstrip(" =:")
    pid, sep, mid = body.rpartition(":")
    if not sep:
        raise ServerError("invalid_position", "not a valid gnubg ID: expected PositionID:MatchID")
    return setup_from_ids(pid, mid, variant)


def _count(value: object, what: str, hi: int) -> int:
    if type(value) is not int or not 0 <= value <= hi:
        raise ServerError("invalid_position", f"{what} must be a whole number from 0 to {hi}")
    return value


def setup_from_board(data: object) -> Setup:
    """A setup from the board editor's JSON (:meth:`Setup.to_json`'s fields; the IDs are
    not read).  The borne-off counts are what the points and the bar leave.

    >>> setup_from_board({"variant": "standard", "board": [[0, 9, 7], []]})
    Traceback (most recent call last):
    ...
    gammon.server.protocol.ServerError: 16 checkers for one side: at most 15
    """
    if not isinstance(data, dict):
        raise ServerError("invalid_position", "the position is a JSON object")
    v = get_variant(_variant(data.get("variant", "standard")))
    board = data.get("board")
    if not isinstance(board, list) or len(board) != 2:
        raise ServerError("invalid_position", "board is two lists of 26 counts (bottom, top)")
    sides = []
    for side in board:
        if not isinstance(side, list) or len(side) > 26:
            raise ServerError("invalid_position", "board is two lists of 26 counts (bottom, top)")
        counts = [0] + [_count(n, "a point's checkers", v.checkers) for n in side[1:]]
        counts += [0] * (26 - len(counts))
        if sum(counts) > v.checkers:
            raise ServerError(
                "invalid_position",
                f"{sum(counts)} checkers for one side: at most {v.checkers}",
            )
        sides.append(counts)
    seat = _count(data.get("turn", 0), "turn", 1)
    raw_pins = data.get("pinned") or [[], []]
    raw_wait = data.get("waiting") or [0, 0]
    if not (isinstance(raw_pins, list) and len(raw_pins) == 2 and isinstance(raw_wait, list)):
        raise ServerError("invalid_position", "pinned is two lists of points, waiting two counts")
    masks = [sum(1 << _count(q, "a pinned point", 24) for q in pins) for pins in raw_pins]
    waits = [_count(n, "waiting checkers", v.checkers) for n in raw_wait[:2]] + [0, 0]
    for i in (0, 1):
        sides[i][0] = v.checkers - sum(sides[i]) - waits[i]
        if sides[i][0] < 0:
            raise ServerError("invalid_position", f"too many checkers: at most {v.checkers}")
    order = (0, 1) if seat == 0 else (1, 0)
    dice_in = data.get("dice")
    dice = None
    if dice_in:
        if not isinstance(dice_in, list) or len(dice_in) != 2:
            raise ServerError("invalid_position", "dice are two numbers from 1 to 6, or null")
        dice = (_count(dice_in[0], "a die", 6), _count(dice_in[1], "a die", 6))
    cube = data.get("cube") or {}
    if not isinstance(cube, dict):
        raise ServerError("invalid_position", "cube is {value, owner}")
    owner = cube.get("owner")
    score = data.get("score") or [0, 0]
    if not isinstance(score, list) or len(score) != 2:
        raise ServerError("invalid_position", "score is two numbers")
    try:
        position = Position(
            tuple(sides[order[0]]),
            tuple(sides[order[1]]),
            v,
            (masks[order[0]], masks[order[1]]),
            (waits[order[0]], waits[order[1]]),
        )
    except GammonError as exc:
        raise _bad("position", exc) from None
    return Setup(
        position,
        seat,
        dice,
        _count(cube.get("value", 1), "the cube", MAX_CUBE),
        None if owner is None else _count(owner, "the cube's owner", 1),
        _count(data.get("length", 0), "the match length", MAX_LENGTH),
        (_count(score[0], "a score", MAX_LENGTH), _count(score[1], "a score", MAX_LENGTH)),
        data.get("crawford") is True,
        data.get("jacoby") is True,
        _count(data.get("max_cube", 1024), "the largest cube", 1 << 15),
    )


def setup_from_body(body: dict[str, Any]) -> Setup:
    """The setup a request names: ``board`` (the editor's), else ``xgid``, ``gnuid`` or
    ``position_id`` (with ``match_id``), each with an optional ``variant``."""
    variant = body.get("variant", "standard")
    if body.get("board"):
        return setup_from_board(body)
    if body.get("xgid"):
        return setup_from_xgid(body["xgid"], variant)
    if body.get("gnuid"):
        return setup_from_gnuid(body["gnuid"], variant)
    if body.get("position_id"):
        return setup_from_ids(body["position_id"], body.get("match_id") or "", variant)
    raise ServerError("invalid_position", "name a position: xgid, gnuid, position_id or board")


# ---------------------------------------------------------------------- in a worker


def _context(setup: Setup) -> Any:
    """The bot's :class:`~gammon.bots.equity.ScoreContext` of the seat on roll."""
    from gammon.bots.equity import ScoreContext

    me, them = setup.seat, 1 - setup.seat
    owner = setup.cube_owner
    common: dict[str, Any] = {
        "cube_value": setup.cube_value,
        "cube_owner": "centered" if owner is None else "me" if owner == me else "opponent",
        "cube_enabled": setup.position.variant.cube,
        "max_result": setup.position.variant.max_result,
    }
    if not setup.match_length:
        return ScoreContext(jacoby=setup.jacoby, **common)
    n = setup.match_length
    one_away = 1 in (n - s for s in setup.score)
    return ScoreContext(
        match_length=n,
        away_me=n - setup.score[me],
        away_opp=n - setup.score[them],
        crawford_game=setup.crawford,
        post_crawford=one_away and not setup.crawford,
        **common,
    )


def analyse_position(setup: Setup, level: str) -> dict[str, Any]:
    """The bot's judgement of a setup (CPU-bound: run it off the event loop).

    With dice, ``{"kind": "moves", "moves": [{"move", "equity", "cubeless"}...]}`` best
    first (:data:`MOVES_SHOWN`); without, ``{"kind": "cube", "cube": {...}}`` (on the
    backgammon board, with a cube).  Off the backgammon board the variant's trained net
    (or the hand-made bot) ranks the moves.  ``invalid_position`` when there is nothing
    to judge.
    """
    position = setup.position
    if position.is_game_over():
        raise ServerError("invalid_position", "the game is over in this position")
    out: dict[str, Any] = {"level": level, "setup": setup.to_json()}
    standard = position.variant.standard_geometry
    if setup.dice is None:
        if not (standard and position.variant.cube):
            raise ServerError("invalid_position", "roll the dice: this variant has no cube")
        from gammon.bots.seat import bot_for_level

        d = bot_for_level(level).cube_decision(position, _context(setup))
        out |= {"kind": "cube", "engine": "bgsage"}
        out["cube"] = {
            "action": str(d.action),
            "no_double": round(d.no_double, 4),
            "double_take": round(d.double_take, 4),
            "double_pass": round(d.double_pass, 4),
            "cubeless": round(d.cubeless, 4),
            "should_double": d.should_double,
            "response": d.response,
        }
        return out
    if not standard:
        from gammon.bots.advice import variant_advice

        advice = variant_advice(position, setup.dice, MOVES_SHOWN)
        moves = [{"move": str(m), "equity": round(e, 4)} for e, m in advice.moves]
        return out | {"kind": "moves", "engine": advice.engine, "moves": moves}
    from gammon.bots.seat import bot_for_level

    ranked = bot_for_level(level).rank_moves(position, setup.dice, _context(setup))
    moves = [
        {"move": str(r.move), "equity": round(r.equity, 4), "cubeless": round(r.cubeless, 4)}
        for r in ranked[:MOVES_SHOWN]
    ]
    return out | {"kind": "moves", "engine": "bgsage", "moves": moves}


def analyse_in_worker(setup: Setup, level: str) -> dict[str, Any]:
    """:func:`analyse_position` in a worker process: a refusal comes back as
    ``{"error": [code, message]}`` (a :class:`ServerError` does not cross processes)."""
    try:
        return analyse_position(setup, level)
    except ServerError as exc:
        return {"error": [exc.code, str(exc)]}
    except GammonError as exc:
        return {"error": ["invalid_position", str(exc)[:240]]}


def position_rollout_in_worker(job: int, setup: Setup, trials: int) -> dict[str, Any]:
    """Run in the deep worker (:class:`gammon.server.analysis.deep.DeepRunner`): the rollout of a
    setup's checker play (with dice) or cube decision, reported and cancelled like a
    match's (``DeepCancelledError``)."""
    from gammon.server.analysis.deep import rollout_json, rollout_reported

    try:
        result = rollout_reported(job, trials, setup.position, _context(setup), setup.dice)
    except GammonError as exc:
        raise ServerError("invalid_position", str(exc)[:240]) from None
    kind = "cube" if setup.dice is None else "checker"
    return rollout_json(result, kind, "")
