"""Rematches: a finished table's players meet again at a table whose id derives from
the old one, so both players' requests lead to the same table.

The rematch keeps its free seat for the previous opponent (:class:`SeatHold`) for
:data:`REMATCH_HOLD` seconds: anyone else is refused (``seat_reserved``) meanwhile.
The opponent may sit (asking for the rematch too, or from the table) or decline
(``POST /api/tables/{id}/rematch/decline``: the rematch table is closed).  Once the hold
has run out, the seat is free for anyone, like any table's.  Two players one of whom
blocks the other (a block made during or after the match) get no rematch
(``forbidden``, docs/moderation.md).
"""

from __future__ import annotations

from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gammon.server.infra.clock import now_ms
from gammon.server.play.arranged import derived_id
from gammon.server.protocol import ServerError
from gammon.server.table.actor.seating import SeatHold
from gammon.server.table.hub import TableRequest
from gammon.server.table.results import check_unblocked
from gammon.server.table.views import table_summary
from gammon.server.web.common import (
    actor_of,
    checked_form,
    context_of,
    json_body,
    may_create,
    need_session,
    redirect_to,
)
from gammon.storage import UserRow

__all__ = ["REMATCH_HOLD", "api_decline_rematch", "api_rematch", "rematch", "rematch_id"]

#: Seconds a rematch keeps its free seat for the previous opponent.
REMATCH_HOLD: Final = 120.0


def rematch_id(table_id: str) -> str:
    """The id of the rematch table of ``table_id``: the same for both players, so whoever asks
    second sits at the table the first one made.

    >>> rematch_id("Ab3dE5fG7hJ9")
    'T88GQJXoU58v'
    """
    return derived_id(f"gammon-rematch:{table_id}")


async def _rematch(request: Request, user: UserRow, table_id: str) -> str:
    """Create (or join) the rematch of a finished table; returns the new table's id."""
    actor = await actor_of(request, table_id)
    state = actor.state
    assert state is not None
    if state.status != "finished":
        raise ServerError("not_finished", "a rematch is offered once the match is over")
    seat = state.seat_of(user.id)
    if seat is None:
        raise ServerError("not_seated", "only the players of a table may ask for its rematch")
    other = state.seats[1 - seat]
    new_id = rematch_id(table_id)
    hub = context_of(request).table.hub
    if other is not None and other.user_id is not None:  # a block since the match holds
        await check_unblocked(hub.db, user, other.user_id, other.name)
    existing = await hub.get(new_id)
    if existing is None:
        await may_create(request)  # a new table, rationed like any other (--create-limit)
        hold = None
        if other is not None and other.kind != "bot":  # kept for them a while
            hold = SeatHold(1 - seat, other.name, now_ms() + round(REMATCH_HOLD * 1000))
        req = TableRequest(
            state.options,
            seat,
            "bot" if other is not None and other.kind == "bot" else "human",
            (other.level if other is not None and other.level else "intermediate"),
            state.private,
            table_id=new_id,
            hold=hold,
        )
        try:
            await hub.create_table(user, req)
            if hold is not None and other is not None and other.user_id is not None:
                notice = {"table": new_id, "from": user.name}  # docs/notifications.md
                context_of(request).community.notices.later(other.user_id, "rematch", notice)
            return new_id
        except ServerError:
            raise
        except Exception:  # the other player made it at the same moment: join it
            existing = await hub.get(new_id)
            if existing is None:
                raise
    new_state = existing.state
    assert new_state is not None
    if new_state.seat_of(user.id) is None:
        free = [s for s in (seat, 1 - seat) if new_state.seats[s] is None]
        if not free:
            raise ServerError("seat_taken", "the rematch table is full")
        await existing.call(lambda: existing.seating.sit_user(user, free[0]))
    return new_id


async def rematch(request: Request) -> Response:
    await checked_form(request)
    session = await need_session(request)
    new_id = await _rematch(request, session.user, request.path_params["table_id"])
    return redirect_to(f"/table/{new_id}")


async def api_rematch(request: Request) -> Response:
    """``GET``: the rematch table of a table once a player asked for it, else ``null`` (not a
    404: the game page polls this, and browsers log every 404 as an error)."""
    await actor_of(request, request.path_params["table_id"])
    actor = await context_of(request).table.hub.get(rematch_id(request.path_params["table_id"]))
    state = actor.state if actor is not None else None
    return JSONResponse(
        {"table": table_summary(state) if state is not None else None},
        headers={"Cache-Control": "no-store"},
    )


async def api_decline_rematch(request: Request) -> Response:
    """``POST`` (body ``{}``): the previous opponent declines the rematch a player asked for
    at this finished table; the rematch table, which kept their seat, is closed."""
    if await json_body(request):
        raise ServerError("bad_message", "the body is {}")
    session = await need_session(request)
    await actor_of(request, request.path_params["table_id"])
    hub = context_of(request).table.hub
    actor = await hub.get(rematch_id(request.path_params["table_id"]))
    if actor is not None and actor.stopped:  # forgotten just now: load it again
        actor = await hub.get(rematch_id(request.path_params["table_id"]))
    if actor is None:
        raise ServerError("not_found", "nobody asked for a rematch of this table")
    await actor.call(lambda: actor.seating.decline_hold(session.user))
    assert actor.state is not None
    return JSONResponse({"table": table_summary(actor.state)})
