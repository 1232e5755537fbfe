"""The analysis of finished variant matches on the site: a plakoto match judged by its net
and a tavli match game by game (bgsage for portes, the nets for plakoto and fevga), over
the HTTP API the analysis page uses, stored like the backgammon analyses."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from gammon.server.analysis import registry as analysers
from gammon.server.analysis.registry import analyser_for, analysis_available
from gammon.storage import Database, Store
from matchseed import recorded, seed_finished_match
from serverkit import TLS, start_server
from serverkit import test_settings as settings_in

pytestmark = pytest.mark.skipif(
    not analysers.nets_available() or analyser_for("plakoto") is None,
    reason="the variant nets need the bot extra (numpy)",
)

PLAKOTO = "varPlakoto01"
TAVLI = "varTavli3xxx"


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    url = settings_in(tmp_path).database_url
    seed_finished_match(url, PLAKOTO, recorded("plakoto-1"))
    seed_finished_match(url, TAVLI, recorded("tavli-3"))
    return tmp_path


def _stored(tmp_path: Path) -> int:
    db = Database(settings_in(tmp_path).database_url)
    try:
        return Store(db).analyses.count()
    finally:
        db.close()


def test_a_finished_plakoto_match_is_analysed_by_its_net(seeded: Path) -> None:
    server = start_server(settings_in(seeded))
    try:
        with httpx.Client(verify=TLS, base_url=server.url, timeout=120) as web:
            page = web.get(f"/matches/{PLAKOTO}/analysis")
            assert page.status_code == 200
            assert 'data-testid="unavailable"' not in page.text
            assert '"available":true' in page.text
            assert re.search(r'id="ab-analysis">null<', page.text)  # not analysed yet
            answer = web.get(f"/api/tables/{PLAKOTO}/analysis")
            assert answer.status_code == 200, answer.text
            data = answer.json()
            assert (data["variant"], data["engine"], data["level"], data["luck_unit"]) == (
                "plakoto",
                "net",
                "net",
                "points",
            )
            (game,) = data["games"]
            assert game["engine"] == "net" and game["winner"] == 1
            assert game["decisions"] and game["luck"] and game["graph"]
            marks = {d["mark"] for d in game["decisions"]}
            assert "blunder" in marks  # the beginner bots blunder (the net says so)
            assert all(d["kind"] == "checker" for d in game["decisions"])
            assert data["totals"][0]["decisions"] + data["totals"][1]["decisions"] == len(
                game["decisions"]
            )
            assert _stored(seeded) == 1
            progress = web.get(f"/api/tables/{PLAKOTO}/analysis/progress").json()
            assert progress["status"] == "done"
            assert web.get(f"/api/tables/{PLAKOTO}/analysis?level=world-class").json()[
                "engine"
            ] == ("net")
            again = web.get(f"/matches/{PLAKOTO}/analysis")
            assert '"engine":"net"' in again.text  # stored: in the page at once
    finally:
        server.stop()


def test_a_tavli_match_is_analysed_game_by_game(seeded: Path) -> None:
    server = start_server(settings_in(seeded))
    try:
        with httpx.Client(verify=TLS, base_url=server.url, timeout=300) as web:
            page = web.get(f"/matches/{TAVLI}/analysis")
            assert page.status_code == 200 and '"available":true' in page.text
            # the board's geometry of each game in turn: portes, plakoto, fevga
            others = re.search(r'"others":(\[\[.*?\]\])', page.text)
            assert others and others.group(1).count("[") == 4
            steps = web.get(f"/api/tables/{TAVLI}/replay").json()
            assert sorted({s["g"] for s in steps}) == [1, 2, 3]
            answer = web.get(f"/api/tables/{TAVLI}/analysis")
            assert answer.status_code == 200, answer.text
            data = answer.json()
    finally:
        server.stop()
    assert data["variant"] == "tavli" and data["engine"] == "mixed"
    games = [(g["number"], g["variant"], g["engine"]) for g in data["games"]]
    portes = "bgsage" if analysis_available() else None
    assert games == [(1, "portes", portes), (2, "plakoto", "net"), (3, "fevga", "net")]
    for g in data["games"][1:]:
        assert g["decisions"] and g["luck"] and g["graph"]
    if portes is None:  # shown as not analysed, the match is not refused
        assert data["games"][0]["decisions"] == [] and data["games"][0]["graph"] == []
    else:
        assert data["games"][0]["decisions"]
    assert data["luck_adjusted"] == []  # the engines measure luck in different units
    total = sum(p["decisions"] for p in data["totals"])
    assert total == sum(len(g["decisions"]) for g in data["games"])
