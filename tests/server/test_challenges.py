"""Challenges (issue #17): a challenge reaches the other player at once on their user socket,
accepting seats both at a new table and sends both there, declines and withdrawals, the
guests setting, the rate limit; across two processes through Redis.  A rated challenge is
refused for a guest or a bot, when made and when accepted, and its match rates both players
once.  Players' names link to their profiles on the lobby's lists and the match page."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from contestkit import UserSocket, form, signed_up
from gammon.match import TableOptions
from gammon.match.ratings import RatedPlayer, rate
from gammon.server.play.arranged import arranged_id
from gammon.server.play.challenges import RATE_BURST
from gammon.storage import ChallengeStore, Database, Standings, Store
from serverkit import (
    REDIS_URL,
    Pair,
    Player,
    RunningServer,
    ServeProcess,
    play_move,
    postgres_schema,
    resign,
    start_server,
    wait_state,
)
from serverkit import test_settings as settings_for

#: The refusals of a rated table (gammon.server.table.results.check_rated_seat), and of a rated
#: challenge to a guest.
SIGN_IN = (
    "a rated match is played between two signed-in accounts: "
    "sign up or sign in to sit at a rated table"
)
NO_BOT = "a rated match is played between two signed-in accounts: no bot sits at a rated table"
GUEST_OPPONENT = (
    "a rated match is played between two signed-in accounts: this player plays as a guest"
)


def test_a_challenge_is_seen_at_once_and_accepting_seats_both(
    players: Callable[[], Player],
) -> None:
    ann, bob = signed_up(players()), signed_up(players())
    ann_news, bob_news = UserSocket(ann), UserSocket(bob)
    try:
        assert ann_news.recv() == {"type": "challenges", "incoming": [], "outgoing": []}
        assert bob_news.recv()["incoming"] == []
        r = ann.post(
            "/api/challenges", {"opponent": bob.name.upper(), "match_length": 3, "seat": 1}
        )
        assert r.status_code == 201, r.text
        challenge = r.json()["challenge"]
        assert challenge["from"] == ann.name and challenge["to"] == bob.name
        news = bob_news.until(lambda m: m["type"] == "challenge")  # past the bell's "inbox"
        assert news["type"] == "challenge" and news["event"] == "new"
        assert [c["id"] for c in news["incoming"]] == [challenge["id"]]
        assert news["incoming"][0]["options"]["match_length"] == 3
        outgoing = ann_news.until(lambda m: m["type"] == "challenge")["outgoing"]
        assert outgoing[0]["id"] == challenge["id"]
        # the badge's count is on every page's socket; the page lists it too
        assert challenge["id"] in bob.http.get("/challenges").text
        # only the challenged player may accept
        assert ann.post(f"/api/challenges/{challenge['id']}/accept", {}).status_code == 404
        r = bob.post(f"/api/challenges/{challenge['id']}/accept", {})
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        for news_socket in (ann_news, bob_news):
            accepted = news_socket.until(lambda m: m.get("event") == "accepted")
            assert accepted["challenge"]["table"] == table and accepted["incoming"] == []
        # both seated, in the chosen seats, and the match under way
        ws = bob.connect(table, seed="b")
        state = wait_state(ws, lambda s: s["table"]["status"] == "playing")
        assert [s["name"] for s in state["table"]["seats"]] == [bob.name, ann.name]
        assert state["table"]["private"] is True
        # accepting again gives the same table; a decline now is stale
        assert bob.post(f"/api/challenges/{challenge['id']}/accept", {}).json()["table"] == table
        r = bob.post(f"/api/challenges/{challenge['id']}/decline", {})
        assert r.status_code == 409 and r.json()["error"]["code"] == "stale"
    finally:
        ann_news.close()
        bob_news.close()


def test_decline_and_withdraw_tell_both(players: Callable[[], Player]) -> None:
    ann, bob = signed_up(players()), signed_up(players())
    ann_news = UserSocket(ann)
    try:
        ann_news.recv()
        first = ann.post("/api/challenges", {"opponent": bob.name}).json()["challenge"]["id"]
        ann_news.until(lambda m: m.get("event") == "new")
        # the page's form declines as the socket's notice does
        r = form(bob, f"/challenges/{first}/decline")
        assert r.status_code == 303
        declined = ann_news.until(lambda m: m.get("event") == "declined")
        assert declined["outgoing"] == [] and declined["challenge"]["status"] == "declined"
        second = ann.post("/api/challenges", {"opponent": bob.name}).json()["challenge"]["id"]
        assert bob.post(f"/api/challenges/{second}/withdraw", {}).status_code == 404
        assert ann.post(f"/api/challenges/{second}/withdraw", {}).status_code == 200
        assert bob.http.get("/api/challenges").json()["incoming"] == []
        r = bob.post(f"/api/challenges/{second}/accept", {})
        assert r.status_code == 409 and r.json()["error"]["code"] == "stale"
    finally:
        ann_news.close()


def test_refusals(players: Callable[[], Player]) -> None:
    ann, bob = signed_up(players()), signed_up(players())
    guest = players()
    r = ann.post("/api/challenges", {"opponent": "nobody-is-called-this"})
    assert r.status_code == 404
    r = ann.post("/api/challenges", {"opponent": ann.name})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    # a guest may challenge until the player refuses guests on the account page
    assert guest.post("/api/challenges", {"opponent": bob.name}).status_code == 201
    assert form(bob, "/account/challenges", refuse_guests="on").status_code == 303
    assert 'name="refuse_guests" checked' in bob.http.get("/account").text
    r = guest.post("/api/challenges", {"opponent": bob.name})
    assert r.status_code == 403 and "guests" in r.json()["error"]["message"]
    assert ann.post("/api/challenges", {"opponent": bob.name}).status_code == 201
    assert form(bob, "/account/challenges").status_code == 303  # unticked: guests again
    assert guest.post("/api/challenges", {"opponent": bob.name}).status_code == 201
    # the options are checked like a table's
    r = ann.post("/api/challenges", {"opponent": bob.name, "match_length": 5, "beaver": True})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_options"


def test_challenges_are_rate_limited(players: Callable[[], Player]) -> None:
    ann, bob = signed_up(players()), signed_up(players())
    codes = [ann.post("/api/challenges", {"opponent": bob.name}).status_code for _ in range(8)]
    assert codes[:RATE_BURST] == [201] * RATE_BURST
    assert set(codes[RATE_BURST:]) == {429}


def test_challenging_the_bot_makes_its_table(players: Callable[[], Player]) -> None:
    ann = signed_up(players())
    r = form(ann, "/challenges", against="bot", bot_level="beginner", match_length="1")
    assert r.status_code == 303 and r.headers["location"].startswith("/table/")
    table = r.headers["location"].rsplit("/", 1)[1]
    seats = ann.http.get(f"/api/tables/{table}").json()["seats"]
    assert seats[0]["name"] == ann.name and seats[1]["kind"] == "bot"


def test_the_user_socket_needs_a_session(server: RunningServer) -> None:
    anonymous = Player(server)
    sock = UserSocket(anonymous)
    with pytest.raises(ConnectionClosed) as closed:
        sock.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    anonymous.close()


def _seated(table: str, first: Player, second: Player) -> Pair:
    """Both players of an accepted challenge (seats 0 and 1) connected, the opening rolled."""
    sockets = (first.connect(table, seed="a"), second.connect(table, seed="b"))
    for ws in sockets:
        wait_state(
            ws, lambda s: s["match"] is not None and s["match"]["game"]["phase"] != "opening"
        )
    pair = Pair(table, (first, second), sockets)
    pair.settle()
    return pair


def _rated_once(database_url: str, table: str, players: tuple[Player, Player], loser: int) -> None:
    """The match at ``table`` (3 points, two newcomers) moved both ratings by the formula,
    once: one rating change each, one rated match in each player's pool."""
    db = Database(database_url)
    try:
        ids = []
        for p in players:
            user = Store(db).user_by_name(p.name)
            assert user is not None
            ids.append(user.id)
        standings = Standings(db)
        expected = rate(RatedPlayer(), RatedPlayer(), 3)
        changes = {uid: (old, new) for uid, old, new in standings.rating_changes(table)}
        assert changes == {
            ids[1 - loser]: (1500.0, pytest.approx(expected.winner.rating)),
            ids[loser]: (1500.0, pytest.approx(expected.loser.rating)),
        }
        assert standings.result_rated(table) is True
        for uid, wins, rating in (
            (ids[1 - loser], 1, expected.winner.rating),
            (ids[loser], 0, expected.loser.rating),
        ):
            (pool,) = standings.ratings(uid)
            assert (pool.pool, pool.matches, pool.wins, pool.experience) == (
                "backgammon",
                1,
                wins,
                3,
            )
            assert pool.rating == pytest.approx(rating)
    finally:
        db.close()


def _play_to_the_end(pair: Pair) -> int:
    """Someone moves (a real match), then the player to act resigns a backgammon (3 points)
    and the match is over; the loser's seat."""
    play_move(pair)
    loser = resign(pair, level=3)
    wait_state(pair.ws(0), lambda s: s["table"]["status"] == "finished")
    return loser


def test_a_rated_challenge_rates_both_players_once(
    server: RunningServer, players: Callable[[], Player]
) -> None:
    ann, bob = signed_up(players()), signed_up(players())
    # the form has the rated checkbox, with the lobby's help; the tournament form has not
    page = ann.http.get("/challenges").text
    assert 'name="rated"' in page and 'id="rated-help"' in page
    assert 'name="rated"' not in ann.http.get("/tournaments").text
    r = form(ann, "/challenges", against="player", opponent=bob.name, match_length="3", rated="on")
    assert r.status_code == 303, r.text
    (challenge,) = bob.http.get("/api/challenges").json()["incoming"]
    assert challenge["options"]["rated"] is True and challenge["options"]["match_length"] == 3
    page = bob.http.get("/challenges").text
    assert 'class="rated"' in page.split('id="incoming"')[1].split("</ul>")[0]
    # every page's notice (static/notify.js) says so too, shown for a rated challenge only
    assert '<span data-field="rated" hidden>' in page
    accept = f"/api/challenges/{challenge['id']}/accept"
    table = bob.post(accept, {}).json()["table"]
    pair = _seated(table, ann, bob)
    assert pair.ws(0).state is not None and pair.ws(0).state["table"]["options"]["rated"]
    loser = _play_to_the_end(pair)
    # accepting again once it is over: the same table, no second settlement
    assert bob.post(accept, {}).json()["table"] == table
    _rated_once(server.settings.database_url, table, (ann, bob), loser)


def test_rated_challenges_are_refused_for_guests_and_bots(players: Callable[[], Player]) -> None:
    ann, bob, guest = signed_up(players()), signed_up(players()), players()

    def refused(who: Player, body: dict[str, Any]) -> str:
        r = who.post("/api/challenges", {"match_length": 3, "rated": True, **body})
        assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_options", r.text
        return str(r.json()["error"]["message"])

    assert refused(guest, {"opponent": bob.name}) == SIGN_IN
    assert refused(ann, {"opponent": guest.name}) == GUEST_OPPONENT
    assert refused(ann, {"against": "bot", "bot_level": "beginner"}) == NO_BOT
    assert "money sessions are never rated" in refused(
        ann, {"opponent": bob.name, "match_length": 0}
    )
    assert ann.http.get("/api/challenges").json()["outgoing"] == []
    assert guest.http.get("/api/challenges").json()["outgoing"] == []
    # the page says it in the visitor's language, the form as it was sent
    fields = {"against": "bot", "bot_level": "beginner", "match_length": "1", "rated": "on"}
    r = form(ann, "/challenges?lang=fr", **fields)
    assert r.status_code == 400 and 'data-code="invalid_options"' in r.text
    assert "aucun robot ne s&#39;assoit à une table classée" in r.text
    assert 'name="rated" checked' in r.text
    r = form(
        ann,
        "/challenges?lang=it",
        against="player",
        opponent=guest.name,
        **{k: v for k, v in fields.items() if k != "against"},
    )
    assert "questo giocatore gioca come ospite" in r.text
    # casual challenges from and to guests still go
    assert guest.post("/api/challenges", {"opponent": bob.name}).status_code == 201
    assert ann.post("/api/challenges", {"opponent": guest.name}).status_code == 201


def test_a_rated_challenge_is_checked_again_when_accepted(
    server: RunningServer, players: Callable[[], Player]
) -> None:
    """A rated challenge between an account and a guest (made before the guest rule, or by
    another route) cannot seat the guest: accepting is refused, nothing is made, and the
    challenge waits until the guest has signed up."""
    ann, guest, other = signed_up(players()), players(), players()
    options = json.dumps(TableOptions(match_length=3, rated=True).to_dict())
    db = Database(server.settings.database_url)
    try:
        store, users = ChallengeStore(db), Store(db)
        ids = {}
        for p in (ann, guest, other):
            user = users.user_by_name(p.name)
            assert user is not None
            ids[p.name] = user.id
        store.create("rated-to-guest", ids[ann.name], ids[guest.name], options, 0, 1)
        store.create("rated-by-guest", ids[other.name], ids[ann.name], options, 0, 1)
    finally:
        db.close()
    for who, challenge, message in (
        (guest, "rated-to-guest", SIGN_IN),
        (ann, "rated-by-guest", GUEST_OPPONENT),
    ):
        r = who.post(f"/api/challenges/{challenge}/accept", {})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == {"code": "invalid_options", "message": message}
        table = arranged_id(f"challenge:{challenge}")
        assert who.http.get(f"/api/tables/{table}").status_code == 404
    assert [c["status"] for c in guest.http.get("/api/challenges").json()["incoming"]] == [
        "pending"
    ]
    # signed up, the guest is an account: the challenge seats both at a rated table
    signed_up(guest)
    r = guest.post("/api/challenges/rated-to-guest/accept", {})
    assert r.status_code == 200, r.text
    seats = guest.http.get(f"/api/tables/{r.json()['table']}").json()
    assert [s["name"] for s in seats["seats"]] == [ann.name, guest.name]
    assert seats["options"]["rated"] is True


def test_players_names_link_to_their_profiles(players: Callable[[], Player]) -> None:
    ann, bob, guest = signed_up(players()), signed_up(players()), players()
    open_table = bob.create(match_length=1)["id"]
    guest_table = guest.create(match_length=1)["id"]
    live = ann.create(opponent="bot", bot_level="beginner", match_length=1)["id"]
    ann.connect(live)  # a bot's game is live while its person is there
    lists = ann.http.get("/lobby/tables").text
    row = lists[lists.index(f'data-table="{open_table}"') :]
    assert row[: row.index("</tr>")].count(f'<a href="/@/{bob.name}" class="player-link">') == 1
    row = lists[lists.index(f'data-table="{guest_table}"') :]
    assert guest.name in row[: row.index("</tr>")] and "/@/" not in row[: row.index("</tr>")]
    item = lists[lists.index(f'data-table="{live}"') :]
    item = item[: item.index("</li>")]
    assert f'<a href="/@/{ann.name}" class="player-link">{ann.name}</a>' in item
    assert item.count("/@/") == 1  # the bot has no profile
    assert f'<a href="/table/{live}" class="watch">' in item
    assert f'href="/@/{ann.name}"' in ann.http.get("/watch").text
    page = httpx.get(f"{ann.server.url}/matches/{live}", timeout=20).text
    heading = page[page.index("<h1>") : page.index("</h1>")]
    assert f'<a href="/@/{ann.name}" class="player-link">{ann.name}</a>' in heading
    assert heading.count("/@/") == 1


@pytest.mark.postgres
@pytest.mark.redis
def test_a_rated_challenge_crosses_processes_through_redis(tmp_path: Path) -> None:
    with postgres_schema() as url:
        one = ServeProcess("--database-url", url, "--redis-url", REDIS_URL)
        two = ServeProcess("--database-url", url, "--redis-url", REDIS_URL)
        try:
            ann = signed_up(Player(one.server()).guest())
            bob = signed_up(Player(two.server()).guest())
            news = UserSocket(bob)
            news.recv()
            body = {"opponent": bob.name, "match_length": 3, "rated": True}
            made = ann.post("/api/challenges", body).json()["challenge"]
            assert news.until(lambda m: m.get("event") == "new")["incoming"][0]["id"] == made["id"]
            ann_news = UserSocket(ann)
            ann_news.recv()
            table = bob.post(f"/api/challenges/{made['id']}/accept", {}).json()["table"]
            accepted = ann_news.until(lambda m: m.get("event") == "accepted")
            assert accepted["challenge"]["table"] == table
            # the rated match, each player on their own process, rates both once
            loser = _play_to_the_end(_seated(table, ann, bob))
            _rated_once(url, table, (ann, bob), loser)
            news.close()
            ann_news.close()
            ann.close()
            bob.close()
        finally:
            one.stop()
            two.stop()


def test_stopping_the_site_ends_the_challenges_news_first(tmp_path: Path) -> None:
    """The news of a challenge trickles to both players (at most once per ``NEWS_DELAY``);
    the play room's stop ends it before the rooms below (the database) stop. Before, a
    player's news could wake after the database's threads had gone: "Task exception was
    never retrieved" (cannot schedule new futures after shutdown), seen in CI."""
    server = start_server(settings_for(tmp_path))
    ann, bob = Player(server), Player(server)
    try:
        signed_up(ann.guest())
        signed_up(bob.guest())
        r = ann.post("/api/challenges", {"opponent": bob.name, "match_length": 3})
        assert r.status_code == 201, r.text
        play = server.app.state.gammon.play
        trickling = list(play.challenges._news.values())
        assert trickling, "no news trickling: nothing to check"
        loop = trickling[0].get_loop()
        asyncio.run_coroutine_threadsafe(play.stop(), loop).result(timeout=10)
        assert all(task.done() for task in trickling)  # before: asleep for NEWS_DELAY
        assert not play.challenges._news
    finally:
        ann.close()
        bob.close()
        server.stop()
