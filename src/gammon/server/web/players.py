"""Players' pages: the public profile ``/@/<name>``, the leaderboards, and the history and
grouped ledger of the account page (docs/ratings.md, "Pages").

A profile shows the player's ratings per pool, each with a graph drawn on the
server (:mod:`gammon.server.community.ratinggraph`), the wins and losses, the average error
rate of the analysed matches, and the list of matches, newest first, filtered by
variant, opponent or result and paginated by a keyset cursor (``before``:
``<ended_at>.<result id>`` of the last row shown), so a deep page costs what the
first one does.
"""

from __future__ import annotations

import re
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gammon import VARIANTS
from gammon.match.ratings import BACKGAMMON_POOL, POOLS
from gammon.server.analysis.training import error_trend
from gammon.server.community.ratinggraph import rating_graph
from gammon.server.i18n import translator
from gammon.server.infra.room import InfraRoom
from gammon.server.protocol import ServerError
from gammon.server.table.results import BOT_RATINGS
from gammon.server.web.common import context_of, format_time, lang_of, render_page, session_of
from gammon.storage import HistoryRow, LedgerLine, Standings
from gammon.storage.puzzles import Puzzles
from gammon.variants import ROTATIONS, rotation

__all__ = [
    "account_extras",
    "group_ledger",
    "keep_error_rates",
    "leaderboard",
    "player_routes",
    "profile",
]

#: Matches per page of a profile's list.
PAGE: Final = 20
_CURSOR: Final = re.compile(r"(\d{1,15})\.(\d{1,12})")
_OUTCOMES: Final = ("win", "loss")


def _standings(request: Request) -> Standings:
    return Standings(context_of(request).infra.db)


def _cursor(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    found = _CURSOR.fullmatch(text)
    if found is None:
        raise ServerError("bad_message", "before is <time>.<id>, as the next-page link gives it")
    return int(found.group(1)), int(found.group(2))


def _row(row: HistoryRow) -> dict[str, Any]:
    """A history row with what the page needs besides the row itself."""
    board = all(v.standard_geometry for v in rotation(row.variant))
    return {"h": row, "when": format_time(row.ended_at), "files": board}


async def _history(
    request: Request, user_id: int, filters: dict[str, Any], limit: int = PAGE
) -> tuple[list[dict[str, Any]], str | None]:
    """A page of a player's matches and the cursor of the next page (None: the last)."""
    ctx = context_of(request)
    rows = await ctx.infra.db.run(
        lambda: _standings(request).history(user_id, limit=limit + 1, **filters)
    )
    more = len(rows) > limit
    rows = rows[:limit]
    cursor = f"{rows[-1].ended_at}.{rows[-1].result_id}" if more and rows else None
    return [_row(r) for r in rows], cursor


async def profile(request: Request) -> Response:
    """``/@/<name>``: a player's public page."""
    ctx = context_of(request)
    q = request.query_params
    variant = q.get("variant") or None
    if variant is not None and variant not in VARIANTS and variant not in ROTATIONS:
        raise ServerError("bad_message", "unknown variant")
    outcome = q.get("result") or None
    if outcome is not None and outcome not in _OUTCOMES:
        raise ServerError("bad_message", "result is win or loss")
    opponent = (q.get("opponent") or "").strip()[:40]
    before = _cursor(q.get("before"))
    found = await ctx.infra.db.run(
        lambda: _standings(request).profile(
            request.path_params["name"][:40],
            opponent=opponent or None,
            variant=variant,
            outcome=outcome,
            before=before,
            limit=PAGE + 1,
        )
    )
    if found is None:
        raise ServerError("not_found", "no such player")
    rows = found.history
    cursor = f"{rows[PAGE - 1].ended_at}.{rows[PAGE - 1].result_id}" if len(rows) > PAGE else None
    t = translator(lang_of(request))
    pools = []
    for r in found.ratings:
        series = found.series[r.pool]
        title = f"{t('Rating')} · {t('pool.' + r.pool)}"
        desc = t("{n} rated matches: from {first} to {last}").format(
            n=len(series) - 1, first=round(series[0][1]), last=round(series[-1][1])
        )
        graph = rating_graph(series, title, desc, f"graph-{r.pool}") if series else ""
        pools.append({"r": r, "graph": graph})
    chosen = {"variant": variant or "", "opponent": opponent, "result": outcome or ""}
    # the error rate of the newest analysed matches (docs/training.md)
    trend = await ctx.infra.db.run(Puzzles(ctx.infra.db.engine).error_trend, found.user_id)
    session = await session_of(request)  # whether the viewer blocks this player (Unblock)
    blocks = await ctx.community.moderation.blocked_by(
        session.user if session is not None else None
    )
    return await render_page(
        request,
        "profile.html",
        {
            "player": found,
            "pools": pools,
            "record": found.record,
            "history": [_row(r) for r in rows[:PAGE]],
            "next": cursor,
            "filters": {k: v for k, v in chosen.items() if v},
            "chosen": chosen,
            "variants": sorted(VARIANTS),
            "deep": before is not None,
            "blocked": found.user_id in blocks,
            "trophies": await ctx.infra.db.run(ctx.play.tournaments.store.trophies, found.user_id),
            "trend": error_trend(trend, t),
        },
    )


async def leaderboard(request: Request) -> Response:
    """``/leaderboard?pool=``: the best-rated players of a pool, and the bots beside them."""
    pool = request.query_params.get("pool") or BACKGAMMON_POOL
    if pool not in POOLS:
        raise ServerError("bad_message", "unknown rating pool")
    ctx = context_of(request)
    rows = await ctx.infra.db.run(_standings(request).leaderboard, pool)
    lines: list[dict[str, Any]] = [{"p": r, "bot": None} for r in rows]
    if pool == BACKGAMMON_POOL:
        lines.extend({"p": None, "bot": (level, rating)} for level, rating in BOT_RATINGS.items())
        lines.sort(key=lambda line: -(line["p"].rating if line["p"] else line["bot"][1]))
    rank = 0
    for line in lines:
        if line["p"] is not None:
            rank += 1
            line["rank"] = rank
    return await render_page(
        request, "leaderboard.html", {"pool": pool, "pools": POOLS, "lines": lines}
    )


def group_ledger(lines: list[LedgerLine]) -> list[dict[str, Any]]:
    """A ledger for the page, newest first: consecutive escrow lines (holds and releases,
    amount 0) are one group, so the lines that move money stand out.

    >>> hold = LedgerLine(3, 30, 0, 100, "hold", "t1", 1, 40)
    >>> release = LedgerLine(2, 20, 0, 100, "release", "t1", 1, 0)
    >>> game = LedgerLine(1, 10, -5, 100, "game", "t1", 1, 0)
    >>> [(g["kind"], len(g["lines"])) for g in group_ledger([hold, release, game])]
    [('escrow', 2), ('money', 1)]
    """
    groups: list[dict[str, Any]] = []
    for line in lines:
        kind = "escrow" if line.amount == 0 and line.reason in ("hold", "release") else "money"
        entry = {"line": line, "when": format_time(line.at)}
        if kind == "escrow" and groups and groups[-1]["kind"] == "escrow":
            groups[-1]["lines"].append(entry)
            groups[-1]["tables"] = sorted({*groups[-1]["tables"], line.table_id or ""} - {""})
            continue
        groups.append(
            {"kind": kind, "lines": [entry], "tables": [line.table_id] if line.table_id else []}
        )
    return groups


async def account_extras(request: Request, user_id: int) -> dict[str, Any]:
    """What the account page adds: the player's first page of matches and ratings."""
    ctx = context_of(request)
    history, cursor = await _history(request, user_id, {})
    ratings = await ctx.infra.db.run(_standings(request).ratings, user_id)
    return {"history": history, "more_history": cursor is not None, "ratings": ratings}


async def keep_error_rates(infra: InfraRoom, table_id: str, analysis: dict[str, Any]) -> None:
    """Keep both players' error rates of a match just analysed, for their profiles (bgsage's
    only: a variant net's error rates are in another unit)."""
    totals = analysis.get("totals") or []
    if len(totals) == 2 and analysis.get("engine", "bgsage") == "bgsage":
        rates = [float(side["error_rate"]) for side in totals]
        await infra.db.run(Standings(infra.db).record_error_rates, table_id, rates)


def player_routes() -> list[Route]:
    """The routes of the players' pages."""
    return [
        Route("/@/{name}", profile, methods=["GET"]),
        Route("/leaderboard", leaderboard, methods=["GET"]),
    ]
