"""Training (#33 H17): an analysis stored gives puzzles (the hook in the analysis runner),
the pages serve one's own mistakes and the shared set, an answer is judged and shown only
once it is posted, rationed per account, and the profile shows the error-rate trend."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import httpx
import pytest

from gammon.server.analysis.runner import AnalysisRunner
from gammon.server.analysis.training import CORRECT_WITHIN, harvest_analysis, judge
from gammon.storage import Database, MatchResult, ResultSeat, Standings, Store, TableUpdate
from gammon.storage.puzzles import PER_MATCH, PuzzleRow, Puzzles, Seat
from server.test_translations import _untranslated
from serverkit import TLS, Player, RunningServer

DATA = Path(__file__).parents[1] / "data" / "analysis"


def _analysis(name: str = "standard-7") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}.errors.json").read_text("utf-8"))
    return data


def _finished(
    store: Store, table: str, seats: tuple[ResultSeat, ResultSeat], private: bool
) -> None:
    store.create_table(table, None, "{}", private, 1, "created", "{}")
    result = MatchResult(
        "standard", 7, seats, winner=0, score=(7, 3), rated=False, reason="match_over"
    )
    store.append(table, 2, "end", "{}", 10, TableUpdate(status="finished", outcome=result))


def test_an_analysis_stored_gives_its_puzzles(tmp_path: Path) -> None:
    """The runner's hook: every analysis kept (computed, the fair-play check's, a
    grandmaster's) is harvested; a private table's gives no shared puzzle, an import none."""
    db = Database(f"sqlite:///{tmp_path / 'g.db'}")
    db.migrate()
    store = Store(db)
    ann = store.create_user("ann", "h", guest=False, balance=0, now=1)
    bob = store.create_user("bob", "h", guest=False, balance=0, now=1)
    seats = (ResultSeat(ann.id, "ann", "user"), ResultSeat(bob.id, "bob", "user"))
    _finished(store, "public1", seats, private=False)
    _finished(store, "private1", (seats[1], ResultSeat(None, "gammon-bot", "bot")), private=True)
    runner = AnalysisRunner(0, db, store)
    runner.stored_listeners.append(lambda s, lv, d: harvest_analysis(db, s, lv, d))

    async def keep() -> None:
        await runner.keep("public1", "expert", _analysis())
        await runner.keep("private1", "expert", _analysis())
        await runner.keep("import-abc", "expert", _analysis())

    try:
        asyncio.run(keep())
        puzzles = Puzzles(db.engine)
        _waiting, ann_total, shared = puzzles.counts(ann.id)
        _waiting, bob_total, _shared = puzzles.counts(bob.id)
        assert ann_total == PER_MATCH and shared == {"standard": PER_MATCH}
        # Bob has his puzzles of both matches (seat 1 of one, seat 0 of the other), the
        # shared set only the public one's
        assert bob_total > PER_MATCH
        assert store.analyses.get("public1", "expert", 1) is not None  # stored all the same
    finally:
        runner.close()
        db.close()


def _seed(server: RunningServer, owner: int | None, table: str, public: bool = True) -> None:
    db = Database(server.settings.database_url)
    try:
        seats = (Seat(owner, "user"), Seat(None, "bot"))
        Puzzles(db.engine).harvest(table, _analysis(), seats, public, 1)
    finally:
        db.close()


def _user_id(server: RunningServer, name: str) -> int:
    db = Database(server.settings.database_url)
    try:
        user = Store(db).user_by_name(name)
        assert user is not None
        return user.id
    finally:
        db.close()


def _get(server: RunningServer, puzzle_id: int) -> PuzzleRow:
    db = Database(server.settings.database_url)
    try:
        found = Puzzles(db.engine).get(puzzle_id)
        assert found is not None
        return found
    finally:
        db.close()


def _answer(
    player: Player | httpx.Client, puzzle_id: int, answer: str, csrf: str
) -> httpx.Response:
    http = player.http if isinstance(player, Player) else player
    return http.post(f"/training/{puzzle_id}", data={"csrf_token": csrf, "answer": answer})


def _next(http: httpx.Client, which: str) -> int:
    r = http.get(f"/training/next?set={which}")
    assert r.status_code == 303, r.text
    found = re.fullmatch(r"/training/(\d+)", r.headers["location"])
    assert found, r.headers["location"]
    return int(found.group(1))


@pytest.fixture
def seeded(server: RunningServer, members: Callable[[], Player]) -> tuple[Player, int]:
    """A member with their own mistakes (of a public match: the shared set has them too)."""
    ann = members()
    table = f"tr{ann.name[-8:]}"
    _seed(server, _user_id(server, ann.name), table)
    return ann, _user_id(server, ann.name)


def test_own_mistakes_are_served_to_their_owner_and_judged_after_the_answer(
    server: RunningServer, seeded: tuple[Player, int], members: Callable[[], Player]
) -> None:
    ann, _ann_id = seeded
    page = ann.http.get("/training")
    assert page.status_code == 200 and 'data-testid="next-mine"' in page.text
    puzzle_id = _next(ann.http, "mine")
    p = _get(server, puzzle_id)
    assert p.owner_id is not None and not p.shared
    question = ann.http.get(f"/training/{puzzle_id}").text
    # the answers are offered, their equities are not on the page
    assert f'value="{p.best}"' in question and f'value="{p.played}"' in question
    for _answer_text, equity in p.candidates:
        assert f"{equity:+.3f}" not in question
    # somebody else cannot see it
    other = members()
    assert other.http.get(f"/training/{puzzle_id}").status_code == 404
    assert _answer(other, puzzle_id, p.best, other.csrf).status_code == 404
    # a wrong answer: the bot's answer and every equity shown, no rating moved
    shown = _answer(ann, puzzle_id, p.played, ann.csrf)
    assert shown.status_code == 200, shown.text
    text = unescape(shown.text)
    assert 'data-correct="false"' in text and f"{p.candidates[0][1]:+.3f}" in text
    assert f'data-testid="best">{p.best}<' in text
    assert 'data-testid="rating-change"' not in text  # one's own mistakes are practice


def test_a_guest_solves_shared_puzzles_rated_but_has_no_mistakes_of_their_own(
    server: RunningServer, seeded: tuple[Player, int], players: Callable[[], Player]
) -> None:
    guest = players()
    assert guest.http.get("/training/next?set=mine").status_code == 401
    puzzle_id = _next(guest.http, "shared")
    p = _get(server, puzzle_id)
    assert p.shared and p.owner_id is None
    right = _answer(guest, puzzle_id, p.best, guest.csrf)
    assert right.status_code == 200 and 'data-correct="true"' in right.text
    assert re.search(r"1500 → <strong>1516</strong>", right.text)
    # a second answer counts no more
    again = _answer(guest, puzzle_id, p.played, guest.csrf)
    assert "your first answer is the one that counts" in again.text
    assert 'data-testid="rating-change"' not in again.text
    assert _get(server, puzzle_id).attempts == p.attempts + 1
    # and the next shared puzzle is another one
    assert _next(guest.http, "shared") != puzzle_id


def test_a_visitor_without_an_account_answers_as_a_new_guest(
    server: RunningServer, seeded: tuple[Player, int]
) -> None:
    with httpx.Client(verify=TLS, base_url=server.url, timeout=20) as web:
        puzzle_id = _next(web, "shared")
        page = web.get(f"/training/{puzzle_id}").text
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
        assert csrf
        p = _get(server, puzzle_id)
        answered = _answer(web, puzzle_id, p.best, csrf.group(1))
        assert answered.status_code == 200 and 'data-correct="true"' in answered.text
        assert web.get("/api/session").json()["user"]["guest"] is True


def test_bad_answers_are_refused_and_change_nothing(
    server: RunningServer, seeded: tuple[Player, int]
) -> None:
    ann, ann_id = seeded
    puzzle_id = _next(ann.http, "shared")
    before = _get(server, puzzle_id)
    for bad in ("", "24/1", "13/8 13/8 13/8", "x" * 500, "double"):
        r = _answer(ann, puzzle_id, bad, ann.csrf)
        assert r.status_code == 400, (bad, r.status_code)
    assert _answer(ann, puzzle_id, before.best, "wrong-token").status_code == 403
    assert ann.http.get("/training/999999").status_code == 404
    assert ann.http.get("/training/next?set=every").status_code == 400
    after = _get(server, puzzle_id)
    assert (after.attempts, after.rating) == (before.attempts, before.rating)
    db = Database(server.settings.database_url)
    try:
        assert Puzzles(db.engine).attempt(ann_id, puzzle_id) is None
    finally:
        db.close()


def test_answers_are_rationed_per_account(
    server: RunningServer, members: Callable[[], Player]
) -> None:
    """The shared set's answers cannot be read off in bulk: each answer (right or not, the
    same puzzle again too) takes one of the account's 20 (burst) ``puzzle`` tokens."""
    eve = members()
    _seed(server, None, f"rt{eve.name[-8:]}")
    puzzle_id = _next(eve.http, "shared")
    p = _get(server, puzzle_id)
    codes = [_answer(eve, puzzle_id, p.played, eve.csrf).status_code for _ in range(21)]
    assert codes[:20] == [200] * 20 and codes[20] == 429


def test_a_checker_answer_is_right_within_the_margin() -> None:
    data = _analysis()
    decision = next(
        d
        for g in data["games"]
        for d in g["decisions"]
        if d["kind"] == "checker" and d["error"] >= 0.08
    )
    p = PuzzleRow(
        1, "shared", None, "t", "standard", "checker", decision["position_id"], decision["xgid"],
        decision["dice"], {}, tuple((c["move"], c["equity"]) for c in decision["candidates"]),
        decision["best"], decision["played"], decision["error"], 1500.0, 0, 0,
    )  # fmt: skip
    best = judge(p, p.best)
    assert best.correct and best.error == 0.0
    close = [a for a, e in p.candidates if 0 < p.candidates[0][1] - e <= CORRECT_WITHIN]
    for answer in close:
        assert judge(p, answer).correct
    played = judge(p, p.played)
    assert not played.correct and played.error == pytest.approx(decision["error"])


def test_the_profile_shows_the_error_rate_trend(
    server: RunningServer, members: Callable[[], Player]
) -> None:
    ann, bob = members(), members()
    ids = [_user_id(server, p.name) for p in (ann, bob)]
    db = Database(server.settings.database_url)
    try:
        store = Store(db)
        seats = (ResultSeat(ids[0], ann.name, "user"), ResultSeat(ids[1], bob.name, "user"))
        for i, rates in enumerate(([31.5, 12.0], [22.25, 9.0], [14.0, 8.0])):
            table = f"pr{i}{ann.name[-6:]}"
            _finished(store, table, seats, private=False)
            Standings(db).record_error_rates(table, rates)
    finally:
        db.close()
    page = ann.http.get(f"/@/{ann.name}").text
    assert 'data-testid="error-trend"' in page and 'class="rating-graph"' in page
    assert "3 analysed matches: from 31.5 to 14.0 mEMG per decision" in page
    assert page.index(">14.0<") < page.index(">22.2<") < page.index(">31.5<")  # newest first
    for lang in ("fr", "it"):
        with httpx.Client(
            verify=TLS, base_url=server.url, timeout=20, cookies={"gammon_lang": lang}
        ) as web:
            assert not _untranslated(web.get(f"/@/{ann.name}").text, lang)


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_the_training_pages_are_translated(
    server: RunningServer, seeded: tuple[Player, int], lang: str
) -> None:
    ann, _ann_id = seeded
    ann.http.cookies.set("gammon_lang", lang)
    pages = [ann.http.get("/training").text]
    puzzle_id = _next(ann.http, "mine")
    pages.append(ann.http.get(f"/training/{puzzle_id}").text)
    pages.append(_answer(ann, puzzle_id, _get(server, puzzle_id).best, ann.csrf).text)
    for html in pages:
        assert f'lang="{lang}"' in html
        assert not _untranslated(html, lang), _untranslated(html, lang)


def test_the_answers_ration_is_shared_by_every_process_through_redis() -> None:
    """Two processes' limiters on one Redis: an account's 20 answers at once are the
    site's, not 20 per process (each process alone would have let 40 through)."""
    import secrets

    from gammon.server.infra.limits import Limits
    from serverkit import REDIS_URL, need_services

    need_services()
    site = f"sqlite:///training-{secrets.token_hex(4)}"
    one, two = (Limits(create_limit=1000.0, site=site, redis_url=REDIS_URL) for _ in range(2))

    async def answers() -> list[bool]:
        try:
            return [
                await (one if i % 2 else two).allow("puzzle", 7, f"10.0.0.{i}") is None
                for i in range(24)
            ]
        finally:
            await one.close()
            await two.close()

    allowed = asyncio.run(answers())
    assert allowed.count(True) == 20 and not any(allowed[20:])


def test_a_variant_judged_by_its_net_has_puzzles_too(
    server: RunningServer, members: Callable[[], Player]
) -> None:
    """Plakoto (the net's analysis): its shared puzzles are served by variant, drawn and
    judged like the others."""
    ann = members()
    db = Database(server.settings.database_url)
    try:
        seats = (Seat(None, "bot"), Seat(None, "bot"))
        Puzzles(db.engine).harvest(f"pk{ann.name[-8:]}", _analysis("plakoto-1"), seats, True, 1)
    finally:
        db.close()
    assert 'value="plakoto"' in ann.http.get("/training").text
    r = ann.http.get("/training/next?set=shared&variant=plakoto")
    assert r.status_code == 303
    puzzle_id = int(r.headers["location"].split("/")[-1].split("?")[0])
    p = _get(server, puzzle_id)
    assert p.variant == "plakoto"
    page = ann.http.get(r.headers["location"]).text
    assert "<svg" in page and f'value="{p.best}"' in page
    answered = _answer(ann, puzzle_id, p.best, ann.csrf)
    assert 'data-correct="true"' in answered.text
