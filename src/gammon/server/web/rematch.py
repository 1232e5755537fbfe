"""Rematches: a finished table's players meet again at a table whose id derives from
the old one, so both players' requests lead to the same table."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gammon.server.arranged import derived_id
from gammon.server.hub import TableRequest
from gammon.server.protocol import ServerError
from gammon.server.views import table_summary
from gammon.server.web.common import (
    actor_of,
    checked_form,
    context_of,
    may_create,
    need_session,
    redirect_to,
)
from gammon.storage import UserRow

__all__ = ["api_rematch", "rematch", "rematch_id"]


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
    hub = context_of(request).hub
    existing = await hub.get(new_id)
    if existing is None:
        may_create(request)  # a new table, rationed like any other (--create-limit)
        req = TableRequest(
            state.options,
            seat,
            "bot" if other is not None and other.kind == "bot" else "human",
            (other.level if other is not None and other.level else "intermediate"),
            state.private,
            table_id=new_id,
        )
        try:
            await hub.create_table(user, req)
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
    actor = await context_of(request).hub.get(rematch_id(request.path_params["table_id"]))
    state = actor.state if actor is not None else None
    return JSONResponse(
        {"table": table_summary(state) if state is not None else None},
        headers={"Cache-Control": "no-store"},
    )
