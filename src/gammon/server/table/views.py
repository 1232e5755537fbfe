"""What each viewer is sent: the ``state`` object and ``event`` data (docs/protocol.md).

A viewer is a seat (0 or 1) or a spectator (``None``).  Nothing here ever reads
the server seed before the table is finished: :class:`TableState` does not even
hold it until the ``end`` entry reveals it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any, Final

from gammon.match import MatchState, TableOptions, allowed_actions, dead_cube, to_act
from gammon.match.fairdice import DICE_SCHEME
from gammon.position import Position
from gammon.server.table.state import TableState, clock_deadline
from gammon.variants import ROTATIONS, get_variant, rotation

__all__ = [
    "MOVES_LIMIT",
    "NO_MOVES",
    "entry_view",
    "forget_moves",
    "keep_moves",
    "list_moves",
    "moves_for",
    "moves_payload",
    "public_view",
    "seat_boards",
    "state_view",
    "table_summary",
    "you_view",
    "your_seed",
]

#: Above this many legal moves (an acey-deucey 1-2 followed by a double of the player's
#: choice gives thousands, megabytes of JSON) ``moves`` is sent as null with
#: ``moves_omitted: true``: the client plays by ``step_options`` and ``steps``.
MOVES_LIMIT: Final = 1000
#: Move lists kept by :func:`moves_payload` (least recently used go first).
MOVES_KEPT: Final = 256


def seat_boards(
    position: Position, turn: int
) -> tuple[list[list[int]], list[list[int]] | None, list[int] | None]:
    """A position seen from seat ``turn`` as the clients draw it: each seat's checkers in its
    own numbering (index 0 borne off, 25 the bar), plakoto's pinned checkers (the points, per
    seat) and acey-deucey's checkers still to enter (per seat); the last two ``None`` on the
    backgammon board."""
    own = [list(position.player), list(position.opponent)]
    pinned: list[list[int]] | None = None
    waiting: list[int] | None = None
    if position.variant.family != "board":
        pinned = [[p for p in range(1, 25) if mask >> p & 1] for mask in position.pinned]
        waiting = list(position.waiting)
    if turn == 1:
        own.reverse()
        if pinned is not None and waiting is not None:
            pinned.reverse()
            waiting.reverse()
    return own, pinned, waiting


def _board(match: MatchState) -> tuple[list[list[int]], list[int], str]:
    g = match.game
    pos = g.position
    turn = g.turn if g.turn is not None else 0
    own = seat_boards(pos, turn)[0]
    pips = list(pos.pip_count())
    if turn == 1:
        pips.reverse()
    return own, pips, pos.position_id()


def _pins_and_waiting(match: MatchState) -> tuple[list[list[int]] | None, list[int] | None]:
    """Plakoto's pinned checkers and acey-deucey's checkers still to enter (see
    :func:`seat_boards`); ``None`` on the backgammon board."""
    g = match.game
    _own, pinned, waiting = seat_boards(g.position, g.turn if g.turn is not None else 0)
    return pinned, waiting


@lru_cache(maxsize=64)
def variant_view(name: str) -> dict[str, Any]:
    """``Variant.describe()`` plus the point mapping as a list (shared: only serialised).

    ``other_point[p]`` (p = 1..24; index 0 and 25 unused, 0) is the other seat's number
    for a seat's point ``p``; ``mat``: whether a ``.mat`` file (and SGF) can describe the
    variant (the backgammon board: not pins, same-direction games or entering from off).
    """
    v = get_variant(name)
    return v.describe() | {
        "other_point": list(v.point_map),
        "mat": v.standard_geometry,
    }


_kept_moves: OrderedDict[tuple[Position, tuple[int, int]], dict[str, Any]] = OrderedDict()
_kept_lock = threading.Lock()  # the rules' worker threads keep answers too


def moves_payload(position: Position, dice: tuple[int, int]) -> dict[str, Any]:
    """The legal moves for the player to move, as the state carries them to the mover:
    :func:`list_moves`, kept for the last :data:`MOVES_KEPT` positions and rolls asked
    about across tables (every game's first roll is played from the same position).  The
    result is shared, so callers only serialise it; a list worked out elsewhere (in a
    rules worker process) is kept with :func:`keep_moves`.

    >>> from gammon import Position
    >>> moves_payload(Position.initial(), (2, 1)) is moves_payload(Position.initial(), (2, 1))
    True
    """
    name = (position, dice)
    with _kept_lock:
        found = _kept_moves.get(name)
        if found is not None:
            _kept_moves.move_to_end(name)
            return found
    found = list_moves(position, dice)
    keep_moves(position, dice, found)
    return found


def keep_moves(position: Position, dice: tuple[int, int], payload: dict[str, Any]) -> None:
    """Keep ``payload`` (:func:`list_moves` of ``position`` and ``dice``) for
    :func:`moves_payload`."""
    with _kept_lock:
        _kept_moves[(position, dice)] = payload
        _kept_moves.move_to_end((position, dice))
        while len(_kept_moves) > MOVES_KEPT:
            _kept_moves.popitem(last=False)


def forget_moves() -> None:
    """Forget every kept move list (tests that change :data:`MOVES_LIMIT` call it)."""
    with _kept_lock:
        _kept_moves.clear()


def list_moves(position: Position, dice: tuple[int, int]) -> dict[str, Any]:
    """The legal moves for the player to move, as the state carries them to the mover.

    Each move is its text (what the client sends back) and its steps (what the page's
    move builder answers clicks from); ``step_options`` (the first click-to-move steps)
    only when the moves are left out (over :data:`MOVES_LIMIT`), since the listed moves'
    steps already answer every click.  A pure function of its arguments: the server may
    work it out in another process.

    >>> from gammon import Position
    >>> payload = list_moves(Position.initial(), (2, 1))
    >>> payload["moves"][0], payload["step_options"], payload["forced"]
    ({'move': '24/23 24/22', 'steps': [[24, 22, 2, False], [24, 23, 1, False]]}, None, False)
    """
    plays = position.plays(dice)  # the turn's one list, the engine's too
    if plays.count(MOVES_LIMIT) > MOVES_LIMIT:  # counted (an acey-deucey 1-2) before listed
        options = plays.step_options()
        return {
            "moves": None,
            "moves_omitted": True,
            "forced": False,
            "step_options": {
                "steps": [[s.from_point, s.to_point, s.die, s.hit] for s in options.steps],
                "complete": options.complete,
                "dice_left": list(options.dice_left),
            },
        }
    moves = plays.texts()
    return {
        "moves": [{"move": text, "steps": m.step_rows()} for text, m in moves.items()],
        "moves_omitted": False,
        "forced": len(moves) == 1,
        "step_options": None,
    }


def _match_view(state: TableState, match: MatchState) -> dict[str, Any]:
    g = match.game
    board, pips, position_id = _board(match)
    pinned, waiting = _pins_and_waiting(match)
    opts = match.options
    return {
        "match_id": state.id,
        "length": opts.match_length,
        "score": list(match.score),
        "crawford": g.crawford,
        "post_crawford": match.post_crawford,
        "over": match.over,
        "winner": match.winner,
        "game": {
            "number": g.number,
            "phase": g.phase,
            "turn": g.turn,
            "starter": g.starter,
            "dice": [g.dice.d1, g.dice.d2] if g.dice is not None else None,
            "cube": {"value": g.cube.value, "owner": g.cube.owner},
            "last_roll": g.last_roll,
            "plies": g.plies,
            "resign": {"level": g.resign_level, "by": g.resigned_by}
            if g.phase == "resigning"
            else None,
            "doubled_by": g.doubler if g.phase in ("doubled", "beavered", "raccooned") else None,
            "rejected": list(g.rejected),
            "board": board,
            "pinned": pinned,
            "waiting": waiting,
            "position_id": position_id,
            "pips": pips,
        },
        "to_act": list(to_act(match)),
        "moves": None,
        "moves_omitted": False,
        "forced": False,
        "step_options": None,
        "rotation": [v.name for v in rotation(opts.variant)] if opts.variant in ROTATIONS else None,
        "games": [
            {
                "number": o.number,
                "variant": opts.game_variant(o.number).name,
                "winner": o.winner,
                "points": o.points,
                "result": o.result,
                "reason": o.reason,
                "cube": o.cube,
            }
            for o in match.games
        ],
        "stake": opts.stake,
        "balances": list(match.balances) if match.balances is not None else None,
        "ledger": [{"game": e.game, "player": e.player, "amount": e.amount} for e in match.ledger],
    }


@lru_cache(maxsize=256)
def _options(options: TableOptions) -> dict[str, Any]:
    """``options.to_dict()``, built once per set of options (shared: only serialised)."""
    return options.to_dict()


#: The move fields of ``match`` for a viewer who is not sent the moves.
NO_MOVES: Final[dict[str, Any]] = {
    "moves": None,
    "moves_omitted": False,
    "forced": False,
    "step_options": None,
}


def you_view(
    state: TableState, seat: int | None, *, signed_in: bool, auto_roll: bool = False
) -> dict[str, Any]:
    """The state's ``you``: what this viewer may do (see :func:`state_view`)."""
    match = state.match
    playing = state.status == "playing" and match is not None and not match.over
    allowed: list[str] = []
    if playing and seat is not None:
        assert match is not None
        allowed = [
            a
            for a in allowed_actions(match).get(seat, ())
            if a != "timeout"
            and not (auto_roll and a == "roll")
            and not (a == "double" and dead_cube(match))
        ]
    return {
        "seat": seat,
        "allowed": allowed,
        "can_sit": [
            state.status == "waiting" and signed_in and seat is None and state.seats[i] is None
            for i in (0, 1)
        ],
        "can_leave": seat is not None and state.status != "finished",
        "can_chat": signed_in and (seat is not None or bool(state.options.spectator_chat)),
        "seed_needed": seat is not None and state.status == "playing" and not state.locked,
    }


def public_view(
    state: TableState,
    *,
    online: tuple[bool, bool],
    spectators: tuple[int, tuple[str, ...]] = (0, ()),
    chat: bool = True,
    idle: int | None = None,
) -> dict[str, Any]:
    """What every viewer of the state sees alike: the state without ``you``, without
    the move fields of ``match`` and without ``dice.your_seed`` (see :func:`state_view`;
    built once per version and shared by the viewers)."""
    match = state.match
    view: dict[str, Any] = {
        "version": state.version,
        "table": {
            "id": state.id,
            "status": state.status,
            "private": state.private,
            "options": _options(state.options),
            # the current game's variant (a rotation such as tavli changes it every game)
            "variant": variant_view(
                match.game.position.variant.name
                if match is not None
                else state.options.game_variant(1).name
            ),
            "seats": [
                s.public() | {"online": online[i]} if s is not None else None
                for i, s in enumerate(state.seats)
            ],
            "created_by": state.created_by,
            "result": state.result,
            "escrow": list(state.escrow),
        },
        "match": None,
        "dice": None,
        "clock": None,
        "inactivity": {"seat": state.clock_seat, "deadline": idle} if idle is not None else None,
        "spectators": {"count": spectators[0], "names": list(spectators[1])},
    }
    if chat:
        view["chat"] = list(state.chat)
    if match is not None:
        mv = _match_view(state, match)
        for name in NO_MOVES:
            del mv[name]
        view["match"] = mv
        view["dice"] = {
            "scheme": DICE_SCHEME,
            "match_id": state.id,
            "commitment": state.commitment,
            "locked": state.locked,
            "seeds_given": [s is not None for s in state.seeds],
            "client_seeds": list(state.seeds_locked) if state.locked else None,
            "server_seed": state.result.get("server_seed")
            if state.status == "finished" and state.result is not None
            else None,
        }
    clock = state.options.clock
    if clock is not None and match is not None:
        view["clock"] = {
            "delay": clock.delay,
            "reserve": [r / 1000 for r in state.reserves],
            "running": state.clock_seat,
            "since": state.clock_since,
            "deadline": clock_deadline(state),
        }
    return view


def moves_for(state: TableState, seat: int | None, moves: dict[str, Any] | None) -> dict[str, Any]:
    """The move fields of ``match`` for ``seat``: ``moves`` (:func:`moves_payload`) only when
    ``seat`` is the one moving, else :data:`NO_MOVES`."""
    match = state.match
    if moves is not None and seat is not None and match is not None:
        g = match.game
        if g.phase == "moving" and g.turn == seat:
            return NO_MOVES | moves
    return NO_MOVES


def your_seed(state: TableState, seat: int | None) -> dict[str, Any]:
    """``dice.your_seed`` for a seated viewer (nothing for a spectator)."""
    return {"your_seed": state.seeds[seat]} if seat is not None else {}


def state_view(
    state: TableState,
    seat: int | None,
    *,
    signed_in: bool,
    online: tuple[bool, bool],
    moves: dict[str, Any] | None,
    auto_roll: bool = False,
    spectators: tuple[int, tuple[str, ...]] = (0, ()),
    chat: bool = True,
    idle: int | None = None,
) -> dict[str, Any]:
    """The ``state`` object for one viewer (without ``type`` and ``now``).

    ``moves`` is :func:`moves_payload` for the seat to move; it is included only
    when ``seat`` is that seat.  ``auto_roll``: the server is about to roll, so
    ``roll`` is not offered.  ``spectators``: how many connections watch without
    a seat, and the names of those with a session.  ``chat=False`` leaves the
    recent chat lines out (the state inside an ``event``: chat lines come as
    their own events).  ``idle``: when the seat on turn at a table without a clock
    forfeits if it still has not acted (``--idle-limit``).  (The server builds the
    same from its parts, :func:`public_view` once per version and the rest per viewer.)
    """
    view = public_view(state, online=online, spectators=spectators, chat=chat, idle=idle)
    view["you"] = you_view(state, seat, signed_in=signed_in, auto_roll=auto_roll)
    if view["match"] is not None:
        view["match"] |= moves_for(state, seat, moves)
        view["dice"] |= your_seed(state, seat)
    return view


def entry_view(kind: str, data: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """An entry's ``data`` as one viewer may see it."""
    if kind == "sit":
        return {k: v for k, v in data.items() if k != "user"}
    if kind == "chat":
        return {k: v for k, v in data.items() if k != "user"}
    if kind == "seed" and data.get("seat") != seat:
        return {"seat": data.get("seat")}
    if kind == "start" and "seeds" in data:
        # client seeds stay private until the dice are locked: each seat sees its own
        seeds = data["seeds"]
        view = {k: v for k, v in data.items() if k != "seeds"}
        view["seeds_given"] = [s is not None for s in seeds]
        if seat is not None:
            view["your_seed"] = seeds[seat]
        return view
    return data


def table_summary(state: TableState) -> dict[str, Any]:
    """A table for the lobby and the JSON API."""
    return {
        "id": state.id,
        "status": state.status,
        "private": state.private,
        "options": state.options.to_dict(),
        "seats": [s.public() if s is not None else None for s in state.seats],
        "created_at": state.created_at,
        "version": state.version,
        "url": f"/table/{state.id}",
    }
