"""Issue #16: a signed-in player uploads a .mat, SGF or .xg file and gets the match page,
with the reader's warnings by line and the analysis; a bad file comes back to the form
with the reason, a large one is refused, and nobody else sees the imported match.

Imported matches are kept in the database: they survive a restart, each player lists
their own (newest first, 20 a page), and one more than ``--max-imports`` is refused
with a translated reason, nothing deleted.  On SQLite, and on PostgreSQL with
``GAMMON_TEST_SERVICES=1``."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import httpx
import pytest

from gammon.match.formats import mat_to_record, match_to_sgf, record_to_xg
from gammon.server.analysis import analysis_available
from gammon.server.web.imports import MAX_BYTES, PER_PAGE
from serverkit import (
    Player,
    RunningServer,
    ServeProcess,
    postgres_schema,
    start_server,
)
from serverkit import test_settings as settings_for

DATA = Path(__file__).resolve().parents[1] / "data"
DIALECTS = DATA / "mat" / "dialects"


def upload(player: Player, name: str, data: bytes, token: str | None = None) -> httpx.Response:
    return player.http.post(
        "/import",
        data={"csrf_token": player.csrf if token is None else token},
        files={"file": (name, data, "application/octet-stream")},
    )


def imported(player: Player, name: str, data: bytes) -> tuple[str, str]:
    """Upload a file; the imported match's address and page."""
    sent = upload(player, name, data)
    assert sent.status_code == 303, sent.text
    where = sent.headers["location"]
    assert re.fullmatch(r"/imports/[\w-]+", where)
    page = player.http.get(where)
    assert page.status_code == 200, page.text
    return where, page.text


def test_the_form_needs_a_session(server: RunningServer) -> None:
    with httpx.Client(base_url=server.url) as anonymous:
        assert anonymous.get("/import").status_code == 401
    player = Player(server).guest()
    page = player.http.get("/import")
    assert page.status_code == 200 and 'enctype="multipart/form-data"' in page.text
    assert 'href="/import"' in player.http.get("/").text  # the link in the menu
    player.close()


def test_a_mat_file_with_warnings(server: RunningServer) -> None:
    player = Player(server).guest()
    text = (DIALECTS / "hand_unknown.mat").read_bytes()
    where, page = imported(player, "hand_unknown.mat", text)
    record = mat_to_record(text.decode())
    assert f"{record.players[0]} – {record.players[1]}" in page
    assert '<li data-line="11">line 11: game 1, move 4 (Jonas)' in page
    assert re.search(r'<td data-checked="0">', page) and '<td data-checked="1">' in page
    # someone else does not see it
    other = Player(server).guest()
    assert other.http.get(where).status_code == 404
    for p in (player, other):
        p.close()


def test_sgf_and_xg_files(server: RunningServer) -> None:
    player = Player(server).guest()
    record = mat_to_record((DATA / "mat" / "gnubg_cube.mat").read_text(encoding="utf-8"))
    _, page = imported(player, "m.sgf", match_to_sgf(record).encode())
    assert '<strong id="score">' in page and '<ul id="warnings">' not in page
    _, from_xg = imported(player, "m.xg", record_to_xg(record))
    score = re.search(r'<strong id="score">([^<]+)</strong>', page)
    assert score and score.group(0) in from_xg
    player.close()


def test_bad_files_come_back_with_the_reason(server: RunningServer) -> None:
    player = Player(server).guest()
    bad = upload(player, "bad.mat", b" 3 point match\n\n Game 1\n what is this\n")
    assert bad.status_code == 400
    assert 'id="import-error"' in bad.text and "bad.mat: line 4" in bad.text
    assert upload(player, "m.xg", b"RGMH" + bytes(100)).status_code == 400
    wrong = upload(player, "notes.docx", b"hello")
    assert wrong.status_code == 400 and ".mat, .txt, .sgf and .xg" in wrong.text
    large = upload(player, "big.mat", b" " * (MAX_BYTES + 1))
    assert large.status_code == 413
    assert upload(player, "m.mat", b" 3 point match\n", token="forged").status_code == 403
    player.close()


@pytest.mark.skipif(not analysis_available(), reason="the analysis needs the bot extra")
def test_the_imported_match_is_analysed(server: RunningServer) -> None:
    player = Player(server).guest()
    where, page = imported(player, "tiny.mat", (DATA / "tiny.mat").read_bytes())
    key = where.rsplit("/", 1)[1]
    # the same analysis board as a finished table's: the page at once, the replay and the
    # analysis from the API, stored, then in the page
    assert 'id="analysis-board"' in page and 'id="ab-analysis">null<' in page
    assert f'"replay":"/api/imports/{key}/replay"' in page
    assert f'href="{where}?level=world-class"' in page
    replay = player.http.get(f"/api/imports/{key}/replay")
    assert replay.status_code == 200 and replay.json()[0]["kind"] == "start"
    analysed = player.http.get(f"/api/imports/{key}/analysis?level=expert", timeout=120)
    assert analysed.status_code == 200 and analysed.json()["totals"]
    progress = player.http.get(f"/api/imports/{key}/analysis/progress?level=expert")
    assert progress.json()["status"] == "done"
    again = player.http.get(where).text
    found = re.search(r'id="ab-analysis">(.*?)</script>', again)
    assert found and json.loads(found.group(1)) == analysed.json()
    assert player.http.get(f"{where}?level=nope").status_code == 400
    other = Player(server).guest()
    assert other.http.get(f"/api/imports/{key}/analysis").status_code == 404
    assert other.http.get(f"/api/imports/{key}/replay").status_code == 404
    for p in (player, other):
        p.close()


# ---------------------------------------------------------------- kept in the database

DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
#: The cap of the servers below: a second page, and a refusal, after a few uploads.
CAP = PER_PAGE + 5


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'imports.db'}"
        return
    with postgres_schema() as url:
        yield url


@pytest.fixture
def capped(database_url: str, tmp_path: Path) -> Iterator[RunningServer]:
    """A server on that database where a player keeps at most :data:`CAP` imports."""
    running = start_server(settings_for(tmp_path, database_url=database_url, max_imports=CAP))
    yield running
    running.stop()


def _games_and_warnings(page: str) -> tuple[str, ...]:
    """What an imported match's page shows of the match: players, score, games, warnings."""
    found = (
        re.search(r"<h1>.*?</h1>", page, re.S),
        re.search(r'<strong id="score">.*?</strong>', page, re.S),
        re.search(r'<table class="list" id="games">.*?</table>', page, re.S),
        re.search(r'<ul id="warnings">.*?</ul>', page, re.S),
    )
    assert all(found), page
    return tuple(m.group(0) for m in found if m)


def _listed(player: Player, page: int | None = None) -> tuple[list[str], str]:
    """The file names on a page of the player's imported matches, and the page."""
    shown = player.http.get("/import" if page is None else f"/import?page={page}")
    assert shown.status_code == 200, shown.text
    return re.findall(r'<a href="/imports/[\w-]+">([^<]+)</a>', shown.text), shown.text


def test_an_import_survives_a_restart(database_url: str) -> None:
    first = ServeProcess("--database-url", database_url)
    try:
        player = Player(first.server()).guest()
        text = (DIALECTS / "hand_unknown.mat").read_bytes()
        where, before = imported(player, "hand_unknown.mat", text)
        first.kill()  # right after the redirect: the import is committed
    finally:
        first.stop()
    second = ServeProcess("--database-url", database_url)
    try:
        cookies = dict(player.http.cookies)
        player.http.close()
        player.server = second.server()
        player.http = httpx.Client(base_url=second.url, timeout=20, cookies=cookies)
        after = player.http.get(where)
        assert after.status_code == 200, after.text
        assert _games_and_warnings(after.text) == _games_and_warnings(before)
        assert '<li data-line="11">line 11: game 1, move 4 (Jonas)' in after.text
        assert _listed(player)[0] == ["hand_unknown.mat"]
        other = Player(second.server()).guest()
        assert other.http.get(where).status_code == 404
        other.close()
        player.close()
    finally:
        second.stop()


def test_only_the_owner_sees_lists_and_deletes_an_import(capped: RunningServer) -> None:
    owner, other = Player(capped).guest(), Player(capped).guest()
    where, _ = imported(owner, "tiny.mat", (DATA / "tiny.mat").read_bytes())
    key = where.rsplit("/", 1)[1]
    assert other.http.get(where).status_code == 404
    assert other.http.get(f"{where}?level=expert").status_code == 404
    assert other.http.post(f"{where}/delete", data={"csrf_token": other.csrf}).status_code == 404
    assert other.http.get("/imports/no-such-key").status_code == 404
    assert other.http.get("/imports/" + "x" * 40).status_code == 404
    with httpx.Client(base_url=capped.url) as anonymous:
        assert anonymous.get(where).status_code == 401
    assert _listed(other)[0] == [] and 'id="no-imports"' in _listed(other)[1]
    names, page = _listed(owner)
    assert names == ["tiny.mat"] and f'href="/imports/{key}"' in page
    assert 'data-total="1"' in page and f'data-cap="{CAP}"' in page
    assert 'href="/import#my-imports"' in owner.http.get("/account").text
    # a name is kept without control characters (PostgreSQL's text holds no NUL)
    body = (
        b'--B\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
        + owner.csrf.encode()
        + b'\r\n--B\r\nContent-Disposition: form-data; name="file"; filename="a\x00b\x07c.mat"'
        + b"\r\n\r\n"
        + (DATA / "tiny.mat").read_bytes()
        + b"\r\n--B--\r\n"
    )
    odd = owner.http.post(
        "/import", content=body, headers={"Content-Type": "multipart/form-data; boundary=B"}
    )
    assert odd.status_code == 303, odd.text
    assert owner.http.get(odd.headers["location"]).status_code == 200
    assert _listed(owner)[0] == ["abc.mat", "tiny.mat"]
    owner.http.post(f"{odd.headers['location']}/delete", data={"csrf_token": owner.csrf})
    # deleting needs the form's token, and only the owner's import goes
    forged = owner.http.post(f"{where}/delete", data={"csrf_token": "forged"})
    assert forged.status_code == 403 and owner.http.get(where).status_code == 200
    gone = owner.http.post(f"{where}/delete", data={"csrf_token": owner.csrf})
    assert gone.status_code == 303 and gone.headers["location"] == "/import"
    assert owner.http.get(where).status_code == 404 and _listed(owner)[0] == []
    for p in (owner, other):
        p.close()


def test_the_list_pages_and_the_cap_refuses_cleanly(capped: RunningServer) -> None:
    player = Player(capped).guest()
    tiny = (DATA / "tiny.mat").read_bytes()
    for i in range(CAP):
        sent = upload(player, f"m{i:02}.mat", tiny)
        assert sent.status_code == 303, sent.text
        time.sleep(0.002)  # each its own millisecond: "newest first" has one answer
    newest_first = [f"m{i:02}.mat" for i in reversed(range(CAP))]
    first, page = _listed(player)
    assert first == newest_first[:PER_PAGE] and 'data-page="1" data-pages="2"' in page
    assert 'href="/import?page=2#my-imports" rel="next"' in page and 'rel="prev"' not in page
    second, page = _listed(player, 2)
    assert second == newest_first[PER_PAGE:] and 'href="/import?page=1#my-imports"' in page
    assert _listed(player, 99)[0] == second  # past the last page: the last
    assert _listed(player, 0)[0] == first
    assert player.http.get("/import?page=two").status_code == 200
    # one more is refused with the reason, in the visitor's language; nothing is deleted
    refused = upload(player, "one-more.mat", tiny)
    assert refused.status_code == 409
    assert f"you keep at most {CAP} imported matches: delete one to import another" in unescape(
        refused.text
    )
    assert 'id="import-form"' in refused.text and "m24.mat" in refused.text
    french = player.http.post(
        "/import?lang=fr",
        data={"csrf_token": player.csrf},
        files={"file": ("one-more.mat", tiny, "application/octet-stream")},
    )
    assert french.status_code == 409
    assert f"vous gardez au plus {CAP} matchs importés" in unescape(french.text)
    names = _listed(player)[0] + _listed(player, 2)[0]
    assert sorted(names) == sorted(newest_first)
    # deleting one makes room for one
    oldest = re.search(r'<a href="(/imports/[\w-]+)">m00\.mat</a>', _listed(player, 2)[1])
    assert oldest
    deleted = player.http.post(f"{oldest.group(1)}/delete", data={"csrf_token": player.csrf})
    assert deleted.status_code == 303
    assert upload(player, "one-more.mat", tiny).status_code == 303
    assert _listed(player)[0][0] == "one-more.mat"
    # the cap is each player's
    other = Player(capped).guest()
    assert upload(other, "mine.mat", tiny).status_code == 303
    for p in (player, other):
        p.close()
