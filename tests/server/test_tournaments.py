"""Tournaments (issue #17): registration, the start, bot-vs-bot rounds played to the end,
byes, round robins, no-shows, the winner on the page and for profiles, the pages in three
languages, a restart in every phase, and two processes on PostgreSQL and Redis."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from contestkit import (
    add_bots,
    create_tournament,
    form,
    signed_up,
    tournament,
    wait_tournament,
)
from gammon.storage import Database, TournamentStore
from server.test_translations import _untranslated
from serverkit import (
    REDIS_URL,
    TLS,
    Player,
    RunningServer,
    ServeProcess,
    postgres_schema,
    wait_state,
)


def finished(t: dict[str, Any]) -> bool:
    return bool(t["status"] == "finished")


def names(match: dict[str, Any]) -> list[str | None]:
    return [p["name"] if p else None for p in match["players"]]


def test_a_knockout_of_five_bots_gives_byes_and_ends_with_a_winner(
    players: Callable[[], Player],
) -> None:
    boss = signed_up(players())
    tid = create_tournament(boss, max_players="5")
    add_bots(boss, tid, 5)
    t = wait_tournament(boss, tid, finished)
    first, second, final = t["rounds"]
    assert [names(m) for m in first] == [
        ["gammon-bot 1", None],
        ["gammon-bot 4", "gammon-bot 5"],
        ["gammon-bot 2", None],
        ["gammon-bot 3", None],
    ]
    assert [m["reason"] for m in first if None in names(m)] == ["bye"] * 3
    assert all(m["table"] is None for m in first if m["reason"] == "bye")
    played = [m for r in t["rounds"] for m in r if m["reason"] != "bye"]
    assert all(m["reason"] == "match_over" and m["table"] for m in played)
    assert len(second) == 2 and len(final) == 1
    winners = {m["winner"] for m in final}
    assert t["winner"]["id"] in winners and t["round"] == t["rounds_total"] == 3
    # every match was a real table, finished with its record
    record = boss.http.get(f"/api/tables/{final[0]['table']}").json()
    assert record["status"] == "finished"
    page = boss.http.get(f"/tournaments/{tid}").text
    assert 'data-testid="tournament-winner"' in page and t["winner"]["name"] in page
    listing = boss.http.get("/tournaments").text
    assert f'href="/tournaments/{tid}"' in listing and 'href="/tournaments"' in listing


def test_a_round_robin_of_three_plays_every_pairing_and_ranks(
    players: Callable[[], Player],
) -> None:
    boss = signed_up(players())
    tid = create_tournament(boss, format="round_robin", max_players="3")
    add_bots(boss, tid, 3)
    t = wait_tournament(boss, tid, finished)
    assert len(t["rounds"]) == 3 and t["rounds_total"] == 3
    assert all(sum(m["reason"] == "bye" for m in r) == 1 for r in t["rounds"])
    table = t["standings"]
    assert sorted(row["wins"] for row in table) in ([0, 1, 2], [1, 1, 1])
    assert sum(row["wins"] for row in table) == sum(row["losses"] for row in table) == 3
    assert t["winner"]["id"] == table[0]["entrant"]["id"]
    assert 'id="standings"' in boss.http.get(f"/tournaments/{tid}").text


def test_registration(players: Callable[[], Player], server: RunningServer) -> None:
    boss, ann = signed_up(players()), signed_up(players())
    guest = players()
    r = form(guest, "/tournaments", name="x", format="knockout", match_length="1")
    assert r.status_code == 401  # the form again, with the reason
    assert 'id="create-tournament"' not in r.text
    r = form(boss, "/tournaments", name="x", format="round_robin", max_players="9")
    assert r.status_code == 400 and "at most 8" in r.text and 'value="x"' in r.text
    r = form(boss, "/tournaments", name="x", format="knockout", match_length="0")
    assert r.status_code == 400
    # digits that str.isdigit() takes but int() refuses: a clean 400 or 404, never a 500
    for bad in ("²", "٣", "--5"):
        r = form(boss, "/tournaments", name="x", format="knockout", match_length=bad)
        assert r.status_code == 400, (bad, r.status_code)
    assert boss.http.get("/tournaments/²").status_code == 404
    tid = create_tournament(boss, max_players="3")
    assert form(ann, f"/tournaments/{tid}/register").status_code == 303
    r = ann.http.post(
        f"/tournaments/{tid}/register",
        data={"csrf_token": ann.csrf},
        headers={"Accept": "application/json"},
    )
    assert r.status_code == 409
    assert form(guest, f"/tournaments/{tid}/register").status_code == 303  # guests may play
    # only the creator enters bots
    assert form(ann, f"/tournaments/{tid}/bots", level="beginner").status_code == 403
    assert [e["name"] for e in tournament(boss, tid)["entrants"]] == [ann.name, guest.name]
    assert form(guest, f"/tournaments/{tid}/unregister").status_code == 303
    assert [e["name"] for e in tournament(boss, tid)["entrants"]] == [ann.name]
    add_bots(boss, tid, 1)
    bot = tournament(boss, tid)["entrants"][1]["id"]
    assert form(boss, f"/tournaments/{tid}/unregister", entrant=str(bot)).status_code == 303
    add_bots(boss, tid, 1)
    assert tournament(boss, tid)["status"] == "registering"
    assert form(boss, f"/tournaments/{tid}/register").status_code == 303
    # full: it starts by itself
    t = wait_tournament(boss, tid, lambda t: t["status"] != "registering", 20)
    assert t["status"] in ("running", "finished")
    assert sorted(e["seed"] for e in t["entrants"]) == [1, 2, 3]
    r = form(guest, f"/tournaments/{tid}/register")
    assert r.status_code == 409
    # a start time with fewer than two entrants cancels it
    lone = create_tournament(boss, start_in="0")
    assert wait_tournament(boss, lone, lambda t: t["status"] == "cancelled", 20)


def test_a_no_show_forfeits_and_the_winner_is_on_the_profile_query(
    players: Callable[[], Player], server: RunningServer
) -> None:
    ann, bob = signed_up(players()), signed_up(players())
    tid = create_tournament(ann, max_players="2", grace="2")
    assert form(bob, f"/tournaments/{tid}/register").status_code == 303
    assert form(ann, f"/tournaments/{tid}/register").status_code == 303
    t = wait_tournament(ann, tid, lambda t: t["rounds"] and t["rounds"][0][0]["table"], 20)
    table = t["rounds"][0][0]["table"]
    ws = ann.connect(table, seed="ann")  # ann comes to the table, bob does not
    wait_state(ws, lambda s: s["table"]["status"] == "finished", 20)
    t = wait_tournament(ann, tid, finished, 20)
    assert t["rounds"][0][0]["reason"] == "no_show"
    assert t["winner"]["name"] == ann.name
    db = Database(server.settings.database_url)
    try:
        won = TournamentStore(db).won_by(t["winner"]["id"] and _user_id(db, ann.name))
        assert [w.id for w in won] == [tid]
        assert TournamentStore(db).won_by(_user_id(db, bob.name)) == []
    finally:
        db.close()
    for lang in ("fr", "it"):
        with httpx.Client(verify=TLS, base_url=server.url, cookies={"gammon_lang": lang}) as web:
            for path in ("/tournaments", f"/tournaments/{tid}"):
                page = web.get(path).text
                assert f'lang="{lang}"' in page and not _untranslated(page, lang), (path, lang)
        page = ann.http.get(f"/tournaments/{tid}?lang={lang}").text
        assert not _untranslated(page, lang)
        for path in ("/challenges", "/account"):
            page = ann.http.get(f"{path}?lang={lang}").text
            assert not _untranslated(page, lang), (path, lang)


def _user_id(db: Database, name: str) -> int:
    from gammon.storage import Store

    user = Store(db).user_by_name(name)
    assert user is not None
    return user.id


# ------------------------------------------------------------------ restarts


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tour.db'}"


def _player(proc: ServeProcess, before: Player) -> Player:
    """The same person (cookies, name) on a new server process."""
    p = Player(proc.server())
    p.http.close()
    p.http = httpx.Client(verify=TLS, base_url=proc.url, timeout=20, cookies=before.http.cookies)
    p.csrf = p.http.get("/api/session").json()["csrf"]
    p.name = before.name
    before.close()
    return p


@pytest.fixture
def serve(sqlite_url: str) -> Iterator[Callable[..., ServeProcess]]:
    running: list[ServeProcess] = []

    def start(*args: str) -> ServeProcess:
        proc = ServeProcess("--database-url", sqlite_url, "--bot-workers", "0", *args)
        running.append(proc)
        return proc

    yield start
    for proc in running:
        proc.stop()


def test_a_tournament_survives_restarts_in_every_phase(
    serve: Callable[..., ServeProcess],
) -> None:
    # registering: killed with three of four entrants
    first = serve()
    boss = signed_up(Player(first.server()).guest())
    ann = signed_up(Player(first.server()).guest())
    tid = create_tournament(boss, max_players="4", grace="600")
    assert form(ann, f"/tournaments/{tid}/register").status_code == 303
    add_bots(boss, tid, 2)
    first.kill()
    second = serve()
    boss, ann = _player(second, boss), _player(second, ann)
    assert tournament(boss, tid)["status"] == "registering"
    add_bots(boss, tid, 1)  # full: round 1 starts
    # running: the bots' match ends, ann's waits for her; killed then
    t = wait_tournament(
        boss, tid, lambda t: t["status"] == "running" and any(m["reason"] for m in t["rounds"][0])
    )
    ann_table = next(m["table"] for m in t["rounds"][0] if ann.name in names(m))
    assert ann_table
    second.kill()
    third = serve()
    boss, ann = _player(third, boss), _player(third, ann)
    assert tournament(boss, tid)["status"] == "running"
    ws = ann.connect(ann_table, seed="ann")
    wait_state(ws, lambda s: s["table"]["status"] == "playing" and s["match"] is not None)
    r = ann.post(f"/api/tables/{ann_table}/leave", {})  # she resigns her match by leaving
    assert r.status_code == 200, r.text
    done = wait_tournament(boss, tid, finished)
    hers = next(m for m in done["rounds"][0] if ann.name in names(m))
    loser = names(hers).index(ann.name)
    # leaving abandons the game in progress (the match is over) or forfeits before it
    assert hers["reason"] in ("match_over", "left")
    assert hers["winner"] == hers["players"][1 - loser]["id"]
    assert done["winner"]["bot"] == "beginner"
    # finished: a restart changes nothing
    third.stop()
    fourth = serve()
    boss = _player(fourth, boss)
    again = tournament(boss, tid)
    assert again == done
    tables = [m["table"] for r in done["rounds"] for m in r if m["table"]]
    assert len(tables) == len(set(tables)) == 3
    boss.close()
    ann.close()


@pytest.mark.postgres
@pytest.mark.redis
def test_two_processes_run_one_tournament_once() -> None:
    with postgres_schema() as url:
        one = ServeProcess("--database-url", url, "--redis-url", REDIS_URL, "--bot-workers", "0")
        two = ServeProcess("--database-url", url, "--redis-url", REDIS_URL, "--bot-workers", "0")
        try:
            boss = signed_up(Player(one.server()).guest())
            tid = create_tournament(boss, max_players="6")
            add_bots(boss, tid, 6)
            watcher = Player(two.server())
            done = wait_tournament(watcher, tid, finished)
            assert [len(r) for r in done["rounds"]] == [4, 2, 1]
            tables = [m["table"] for r in done["rounds"] for m in r if m["table"]]
            assert len(tables) == len(set(tables)) == 5
            assert all(m["winner"] is not None for r in done["rounds"] for m in r)
            boss.close()
            watcher.close()
        finally:
            one.stop()
            two.stop()


def test_a_start_time_starts_it_with_whoever_registered(
    players: Callable[[], Player], server: RunningServer
) -> None:
    boss = signed_up(players())
    tid = create_tournament(boss, max_players="8", start_in="60")
    add_bots(boss, tid, 3)
    t = tournament(boss, tid)
    assert t["status"] == "registering" and t["starts_at"] is not None
    page = boss.http.get("/tournaments").text
    assert f'data-tournament="{tid}"' in page
    db = Database(server.settings.database_url)
    try:  # an hour later
        with db.engine.begin() as conn:
            conn.execute(
                text("UPDATE tournaments SET starts_at = starts_at - 3600000 WHERE id = :id"),
                {"id": tid},
            )
    finally:
        db.close()
    done = wait_tournament(boss, tid, finished)
    assert [len(r) for r in done["rounds"]] == [2, 1]  # three entrants: one bye
    assert len(done["entrants"]) == 3
