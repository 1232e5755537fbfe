"""Swiss and arena tournaments on the real server, the creator playing in their own
tournament, bots seeded with their calibrated ratings, trophies on the profile, and a
scheduled Swiss tournament that starts after a restart (docs/tournaments.md)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from contestkit import add_bots, create_tournament, form, signed_up, tournament, wait_tournament
from gammon.server.table.results import BOT_RATINGS
from gammon.storage import Database
from serverkit import TLS, Player, RunningServer, ServeProcess, wait_state


def finished(t: dict[str, Any]) -> bool:
    return bool(t["status"] == "finished")


def test_a_swiss_of_six_bots_runs_its_rounds_by_score_to_the_end(
    players: Callable[[], Player],
) -> None:
    boss = signed_up(players())
    tid = create_tournament(boss, format="swiss", max_players="6")
    add_bots(boss, tid, 3, "beginner")
    add_bots(boss, tid, 3, "intermediate")
    t = wait_tournament(boss, tid, finished, 180)
    assert t["rounds_total"] == 3 and len(t["rounds"]) == 3
    assert all(len(r) == 3 and all(m["reason"] == "match_over" for m in r) for r in t["rounds"])
    # round 1: the better-rated intermediates (seeds 1-3) against the beginners
    seeds = {e["id"]: e["seed"] for e in t["entrants"]}
    assert sorted(
        (seeds[m["players"][0]["id"]], seeds[m["players"][1]["id"]]) for m in t["rounds"][0]
    ) == [(1, 4), (2, 5), (3, 6)]
    # no pair met twice; round 2 paired the winners of round 1 among themselves first
    met = [frozenset(p["id"] for p in m["players"]) for r in t["rounds"] for m in r]
    assert len(met) == len(set(met)) == 9
    won1 = {m["winner"] for m in t["rounds"][0]}
    mixed = [m for m in t["rounds"][1] if len({p["id"] in won1 for p in m["players"]}) == 2]
    assert len(mixed) == 1  # three winners, three losers: one pair crosses the groups
    table = t["standings"]
    assert [row["points"] for row in table] == sorted((r["points"] for r in table), reverse=True)
    assert sum(row["points"] for row in table) == 9
    assert {"buchholz", "sonneborn"} <= set(table[0])
    assert t["winner"]["id"] == table[0]["entrant"]["id"]
    assert [p["place"] for p in t["podium"]] == [1, 2, 3]
    assert [p["id"] for p in t["podium"]] == [row["entrant"]["id"] for row in table[:3]]
    page = boss.http.get(f"/tournaments/{tid}").text
    assert 'id="standings"' in page and 'id="podium"' in page and "Buchholz" in page


def test_an_arena_of_bots_pairs_again_until_its_deadline(
    players: Callable[[], Player], server: RunningServer
) -> None:
    boss = signed_up(players())
    tid = create_tournament(boss, format="arena", max_players="4", duration="1")
    add_bots(boss, tid, 4)
    t = wait_tournament(boss, tid, lambda t: t["status"] == "running", 20)
    assert t["duration"] == 1 and t["ends_at"] and t["standings"] is not None
    t = wait_tournament(boss, tid, lambda t: len(t["rounds"][0]) > 2, 90)  # re-paired
    # The deadline comes now, and a pairing written just before it has no table yet (the
    # step that wrote it was still running at the deadline): it must not be played.
    db = Database(server.settings.database_url)
    try:
        with db.engine.begin() as conn:
            ends_at = int(time.time() * 1000) - 1
            rnd = conn.execute(
                text("SELECT round FROM tournaments WHERE id = :id"), {"id": tid}
            ).scalar_one()
            # the pairings paired before the deadline with no table yet
            untabled = {
                (r, slot)
                for r, slot in conn.execute(
                    text(
                        "SELECT round, slot FROM pairings WHERE tournament_id = :id"
                        " AND table_id IS NULL AND reason IS NULL"
                    ),
                    {"id": tid},
                )
            }
            a, b = (e["id"] for e in t["entrants"][:2])
            conn.execute(
                text("UPDATE tournaments SET ends_at = :at, round = :r WHERE id = :id"),
                {"at": ends_at, "r": rnd + 1, "id": tid},
            )
            conn.execute(
                text(
                    "INSERT INTO pairings (tournament_id, round, slot, player0, player1)"
                    " VALUES (:id, :r, 0, :a, :b)"
                ),
                {"id": tid, "r": rnd + 1, "a": a, "b": b},
            )
        t = wait_tournament(boss, tid, finished, 120)
        with db.engine.connect() as conn:
            total = conn.execute(
                text(
                    "SELECT count(*) FROM pairings WHERE tournament_id = :id"
                    " AND reason = 'match_over'"
                ),
                {"id": tid},
            ).scalar_one()
            # A step that read the tournament before the deadline was moved back (a tick
            # reads every live tournament, then steps them one by one) may still make the
            # table of a pairing paired before it; a real deadline never moves, so that
            # step's check is on time.  No other table is made after the deadline, no
            # pairing is made after it (round rnd + 1 is the dangling one, checked below).
            late = conn.execute(
                text(
                    "SELECT p.round, p.slot, t.created_at - :at"
                    " FROM pairings p LEFT JOIN tables t ON t.id = p.table_id"
                    " WHERE p.tournament_id = :id AND (p.round > :r + 1 OR t.created_at > :at)"
                ),
                {"id": tid, "r": rnd, "at": ends_at},
            ).all()
            dangling = conn.execute(
                text(
                    "SELECT table_id, winner, reason FROM pairings"
                    " WHERE tournament_id = :id AND round = :r"
                ),
                {"id": tid, "r": rnd + 1},
            ).one()
    finally:
        db.close()
    # no match was made after the deadline but those paired before it (round, slot, the
    # table's ms after the deadline)
    assert all((r, slot) in untabled for r, slot, _ in late), (rnd, untabled, late)
    assert tuple(dangling) == (None, None, "deadline")
    matches = t["rounds"][0]
    assert matches[0]["reason"] == "deadline" and matches[0]["winner"] is None
    matches = matches[1:]  # the played ones, newest first
    assert len(matches) > 2
    assert all(m["reason"] == "match_over" and m["winner"] for m in matches)
    page = boss.http.get(f"/tournaments/{tid}").text
    assert "not played: the arena" in page
    table = t["standings"]
    wins = sum(row["wins"] for row in table)
    assert wins == total and sum(row["losses"] for row in table) == total
    assert len(matches) == min(total, 59)  # the page lists the latest 60
    assert all(2 * row["wins"] <= row["points"] <= 4 * row["wins"] for row in table)
    assert t["winner"]["id"] == table[0]["entrant"]["id"]
    # no immediate rematch: nobody met the same opponent in two matches in a row
    last: dict[int, int] = {}
    for m in reversed(matches):  # listed newest first
        a, b = (p["id"] for p in m["players"])
        assert last.get(a) != b and last.get(b) != a
        last[a], last[b] = b, a


def test_the_creator_plays_in_their_tournament_by_default(players: Callable[[], Player]) -> None:
    boss = signed_up(players())
    page = boss.http.get("/tournaments").text
    assert '<input type="checkbox" name="play" checked>' in page
    tid = create_tournament(boss, play="on")
    assert [e["name"] for e in tournament(boss, tid)["entrants"]] == [boss.name]
    out = create_tournament(boss)  # unticked: a form without the field
    assert tournament(boss, out)["entrants"] == []
    # a refused form shows the box as it was sent
    r = form(boss, "/tournaments", name="", format="swiss", match_length="1")
    assert r.status_code == 400 and '<input type="checkbox" name="play">' in r.text


def test_bad_swiss_and_arena_settings_are_refused_and_nothing_is_made(
    players: Callable[[], Player],
) -> None:
    boss = signed_up(players())
    before = boss.http.get("/tournaments").text.count("data-tournament=")
    for fields in (
        {"format": "swiss", "rounds": "0"},
        {"format": "swiss", "rounds": "13"},
        {"format": "swiss", "rounds": "²"},
        {"format": "arena", "duration": "0"},
        {"format": "arena", "duration": "241"},
        {"format": "ladder"},
    ):
        r = form(boss, "/tournaments", name="x", match_length="1", play="on", **fields)
        assert r.status_code == 400, (fields, r.status_code)
    assert boss.http.get("/tournaments").text.count("data-tournament=") == before


def test_bots_are_seeded_with_their_calibrated_ratings(players: Callable[[], Player]) -> None:
    boss = signed_up(players())
    tid = create_tournament(boss, max_players="3", play="on")
    add_bots(boss, tid, 1, "beginner")
    add_bots(boss, tid, 1, "expert")
    t = wait_tournament(boss, tid, lambda t: t["status"] != "registering", 20)
    seeded = {e["name"]: (e["seed"], e["rating"]) for e in t["entrants"]}
    # the expert (1976) above the unrated player (1500), the beginner (1166) below
    assert seeded == {
        "gammon-bot 2": (1, BOT_RATINGS["expert"]),
        boss.name: (2, 1500.0),
        "gammon-bot 1": (3, BOT_RATINGS["beginner"]),
    }
    assert t["rounds"][0][0]["players"][0]["name"] == "gammon-bot 2"  # the bye: top seed


def test_the_winner_and_the_podium_show_on_their_profiles(
    players: Callable[[], Player], server: RunningServer
) -> None:
    ann, bob = signed_up(players()), signed_up(players())
    tid = create_tournament(ann, format="swiss", max_players="2", grace="2", play="on")
    assert form(bob, f"/tournaments/{tid}/register").status_code == 303
    t = wait_tournament(ann, tid, lambda t: t["rounds"] and t["rounds"][0][0]["table"], 20)
    ws = ann.connect(t["rounds"][0][0]["table"], seed="ann")  # bob never comes
    wait_state(ws, lambda s: s["table"]["status"] == "finished", 20)
    t = wait_tournament(ann, tid, finished, 20)
    assert t["winner"]["name"] == ann.name
    assert [(p["name"], p["place"]) for p in t["podium"]] == [(ann.name, 1), (bob.name, 2)]
    page = bob.http.get(f"/@/{ann.name}").text
    assert 'id="trophies"' in page and f'data-tournament="{tid}" data-place="1"' in page
    assert f'href="/tournaments/{tid}"' in page
    assert f'data-tournament="{tid}" data-place="2"' in bob.http.get(f"/@/{bob.name}").text
    assert f'href="/@/{ann.name}"' in ann.http.get(f"/tournaments/{tid}").text
    for lang in ("fr", "it"):
        with httpx.Client(verify=TLS, base_url=server.url, cookies={"gammon_lang": lang}) as web:
            from server.test_translations import _untranslated

            for path in (f"/@/{ann.name}", f"/tournaments/{tid}", "/tournaments"):
                page = web.get(path).text
                assert not _untranslated(page, lang), (path, lang)


# ------------------------------------------------------------------ a scheduled start


@pytest.fixture
def sched_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'sched.db'}"


@pytest.fixture
def serve(sched_url: str) -> Iterator[Callable[..., ServeProcess]]:
    running: list[ServeProcess] = []
    url = sched_url

    def start() -> ServeProcess:
        proc = ServeProcess("--database-url", url, "--bot-workers", "0")
        running.append(proc)
        return proc

    yield start
    for proc in running:
        proc.stop()


def test_a_scheduled_swiss_starts_at_its_time_after_a_restart(
    serve: Callable[..., ServeProcess], sched_url: str
) -> None:
    first = serve()
    boss = signed_up(Player(first.server()).guest())
    tid = create_tournament(boss, format="swiss", max_players="8", start_in="60")
    add_bots(boss, tid, 4)
    assert tournament(boss, tid)["status"] == "registering"
    first.kill()
    db = Database(sched_url)
    try:  # the hour passes while no server runs
        with db.engine.begin() as conn:
            conn.execute(
                text("UPDATE tournaments SET starts_at = starts_at - 3600000 WHERE id = :id"),
                {"id": tid},
            )
    finally:
        db.close()
    second = serve()
    watcher = Player(second.server())
    done = wait_tournament(watcher, tid, finished, 120)
    assert done["format"] == "swiss" and len(done["rounds"]) == 2
    watcher.close()
    boss.close()
