"""The training pages (docs/training.md): ``/training`` (one's puzzle rating, one's own
mistakes waiting, the shared set per variant), ``/training/next`` (the next puzzle of a
set), and ``/training/{id}``: a puzzle (its board and answers), answered by a form post
that shows the analysis' answer, the equity of each answer judged and the one chosen.

Nothing of the answer is on the puzzle's page: only the answer posted shows it, and every
answer is rationed (kind ``puzzle`` of ``ctx.infra.limits``, per account and address), so the
shared set's answers cannot be read off cheaply; the pages are a ration (``training``)
per address and for the whole site.  A visitor without an account may answer the shared
puzzles (a guest account is made, as for a table: rationed as one); one's own mistakes
are a registered player's, and nobody else's to see.
"""

from __future__ import annotations

import time
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gammon import VARIANTS
from gammon.server.analysis.training import choices, judge, picture
from gammon.server.protocol import ServerError
from gammon.server.web.common import (
    checked_form,
    context_of,
    form_text,
    may_create,
    may_read,
    redirect_to,
    render_page,
    session_of,
    set_session_cookie,
    user_or_guest,
)
from gammon.storage import UserRow
from gammon.storage.puzzles import START_RATING, PuzzleRow, Puzzles

__all__ = ["training_routes"]

_SETS: Final = ("mine", "shared")


def _puzzles(request: Request) -> Puzzles:
    return Puzzles(context_of(request).infra.db.engine)


def _variant(request: Request) -> str | None:
    variant = request.query_params.get("variant") or None
    if variant is not None and variant not in VARIANTS:
        raise ServerError("bad_message", "unknown variant")
    return variant


async def training_page(request: Request) -> Response:
    """``/training``: where the player stands and what waits."""
    await may_read(request, "training")
    ctx = context_of(request)
    session = await session_of(request)
    user = session.user if session is not None else None
    puzzles = _puzzles(request)
    user_id = user.id if user is not None else None
    waiting, total, shared = await ctx.infra.db.run(puzzles.counts, user_id)
    rating, answered, solved = (
        await ctx.infra.db.run(puzzles.player, user.id)
        if user is not None
        else (START_RATING, 0, 0)
    )
    none = request.query_params.get("none")
    return await render_page(
        request,
        "training.html",
        {
            "waiting": waiting,
            "total": total,
            "shared": shared,
            "rating": rating,
            "answered": answered,
            "solved": solved,
            "none": none if none in _SETS else None,
            "chosen": request.query_params.get("variant") or "",
        },
    )


async def next_puzzle(request: Request) -> Response:
    """``/training/next?set=mine|shared&variant=``: to the next puzzle of a set."""
    await may_read(request, "training")
    which = request.query_params.get("set", "shared")
    if which not in _SETS:
        raise ServerError("bad_message", "set is mine or shared")
    variant = _variant(request)
    ctx = context_of(request)
    session = await session_of(request)
    puzzles = _puzzles(request)
    found: PuzzleRow | None
    if which == "mine":
        if session is None or session.user.guest:
            raise ServerError("auth_required", "sign up: your own mistakes become your puzzles")
        found = await ctx.infra.db.run(puzzles.next_mine, session.user.id)
    else:
        user_id = session.user.id if session is not None else None
        rating = (await ctx.infra.db.run(puzzles.player, user_id))[0] if user_id else START_RATING
        found = await ctx.infra.db.run(puzzles.next_shared, user_id, rating, variant)
    if found is None:
        suffix = f"&variant={variant}" if variant else ""
        return redirect_to(f"/training?none={which}{suffix}")
    suffix = f"?variant={variant}" if variant else ""
    return redirect_to(f"/training/{found.id}{suffix}")


async def _visible(request: Request, user: UserRow | None) -> PuzzleRow:
    """The path's puzzle, if this visitor may see it (one's own mistakes are one's own)."""
    puzzle_id = int(request.path_params["puzzle_id"])
    found = await context_of(request).infra.db.run(_puzzles(request).get, puzzle_id)
    if found is None or (not found.shared and (user is None or found.owner_id != user.id)):
        raise ServerError("not_found", "no such puzzle")
    return found


def _view(p: PuzzleRow) -> dict[str, Any]:
    """What the page shows of a puzzle besides its answers' equities."""
    return {
        "p": p,
        "svg": picture(p),
        "choices": choices(p),
        "set": "shared" if p.shared else "mine",
        "dice": "-".join(p.dice) if p.dice else "",
    }


async def puzzle_page(request: Request) -> Response:
    """``/training/{id}``: a puzzle to answer."""
    await may_read(request, "training")
    session = await session_of(request)
    p = await _visible(request, session.user if session is not None else None)
    return await render_page(
        request,
        "training_puzzle.html",
        {**_view(p), "result": None, "variant": request.query_params.get("variant") or ""},
    )


async def answer_puzzle(request: Request) -> Response:
    """``POST /training/{id}`` (``answer``): the answer judged and kept, the analysis shown."""
    form = await checked_form(request)
    session = await session_of(request)
    # before anything: a refusal costs next to nothing
    await may_create(request, "puzzle")
    p = await _visible(request, session.user if session is not None else None)
    judged = judge(p, form_text(form, "answer")[:120])
    user, token = await user_or_guest(request)
    ctx = context_of(request)
    now = int(time.time() * 1000)
    answered = await ctx.infra.db.run(
        _puzzles(request).answer, user.id, p.id, judged.answer, judged.correct, judged.error, now
    )
    best = p.candidates[0][1]
    rows = [
        {"answer": a, "equity": e, "lost": best - e, "best": i == 0, "chosen": a == judged.answer}
        for i, (a, e) in enumerate(p.candidates)
    ]
    if token is not None:  # a guest made for this answer: its page shows who answered
        request.scope["gammon_session"] = await ctx.community.auth.session(token)
    response = await render_page(
        request,
        "training_puzzle.html",
        {
            **_view(p),
            "result": {"judged": judged, "answered": answered, "rows": rows},
            "variant": form_text(form, "variant")[:20],
        },
    )
    if token is not None:
        set_session_cookie(request, response, token)
    return response


def training_routes() -> list[Route]:
    """The training's routes."""
    return [
        Route("/training", training_page, methods=["GET"]),
        Route("/training/next", next_puzzle, methods=["GET"]),
        Route("/training/{puzzle_id:int}", puzzle_page, methods=["GET"]),
        Route("/training/{puzzle_id:int}", answer_puzzle, methods=["POST"]),
    ]
