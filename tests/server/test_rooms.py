"""The server's context is one small context per room (docs/architecture.md, "The
rooms' contexts"): each builds, wires, starts and stops its own services."""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path

import pytest

from gammon.server.analysis.room import AnalysisRoom
from gammon.server.analysis.training import harvest_analysis
from gammon.server.community.room import CommunityRoom
from gammon.server.context import Context
from gammon.server.infra.room import InfraRoom
from gammon.server.play.room import PlayRoom
from gammon.server.table.room import TableRoom
from serverkit import test_settings as settings_in

#: Each room's services that exist only once it is started.
STARTED = {
    "infra": ("db", "store", "bus"),
    "table": ("bots", "hub", "sweep"),
    "community": ("auth", "notifier", "notices", "moderation"),
    "play": ("challenges", "pairing", "tournaments"),
    "analysis": ("runner", "fairplay"),
}


def test_the_context_only_composes_the_rooms(tmp_path: Path) -> None:
    ctx = Context(settings_in(tmp_path))
    assert set(vars(ctx)) == {"templates", *STARTED}
    rooms = (ctx.infra, ctx.table, ctx.community, ctx.play, ctx.analysis)
    assert [type(room) for room in rooms] == [
        InfraRoom,
        TableRoom,
        CommunityRoom,
        PlayRoom,
        AnalysisRoom,
    ]
    for name, services in STARTED.items():
        for service in services:
            with pytest.raises(RuntimeError, match="not started"):
                getattr(getattr(ctx, name), service)


def test_the_rooms_wire_their_services_as_they_start(tmp_path: Path) -> None:
    async def run() -> None:
        ctx = Context(settings_in(tmp_path))
        await ctx.start()
        try:
            hub, community = ctx.table.hub, ctx.community
            tournaments, fairplay = ctx.play.tournaments, ctx.analysis.fairplay
            assert hub.bus is ctx.infra.bus and hub.bots is ctx.table.bots
            assert hub.commit_listeners == [community.notices.table_committed]
            assert hub.end_listeners == [tournaments.table_ended, fairplay.table_ended]
            assert ctx.play.challenges.notices is community.notices
            assert tournaments.notices is community.notices
            assert ctx.play.pairing.notifier is community.notifier
            assert community.moderation.notifier is community.notifier
            [stored] = ctx.analysis.runner.stored_listeners
            assert isinstance(stored, partial) and stored.func is harvest_analysis
            assert ctx.analysis.exports.limits is ctx.infra.limits
            assert ctx.infra.watchdog is not None
        finally:
            await ctx.stop()
        # every room stopped what it started: no background task is left
        left = [t.get_name() for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        assert left == []

    asyncio.run(run())
