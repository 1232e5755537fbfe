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
from gammon.server.analysis.runner import analysis_available
from gammon.server.web.imports import MAX_BYTES, PER_PAGE
from hostilekit import xg_bomb, xg_many
from serverkit import (
    TLS,
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
    with httpx.Client(verify=TLS, base_url=server.url) as anonymous:
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
        player.http = httpx.Client(verify=TLS, base_url=second.url, timeout=20, cookies=cookies)
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
    with httpx.Client(verify=TLS, base_url=capped.url) as anonymous:
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


def test_a_kept_replay_is_served_without_reading_the_match_again(capped: RunningServer) -> None:
    """The replay of an imported match is worked out once and kept; asking for it again
    checks only who owns it (issue #30: each ask read the whole match text first, 274
    times a minute under the benchmark's replay loop).  A deleted import's replay is gone."""
    from sqlalchemy import event

    owner, other = Player(capped).guest(), Player(capped).guest()
    where, _ = imported(owner, "tiny.mat", (DATA / "tiny.mat").read_bytes())
    key = where.rsplit("/", 1)[1]
    first = owner.http.get(f"/api/imports/{key}/replay")
    assert first.status_code == 200, first.text
    engine = capped.app.state.gammon.infra.store.engine
    reads: list[str] = []

    def count(conn: object, cursor: object, statement: str, *args: object) -> None:
        if "imports" in statement:
            reads.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", count)
    try:
        again = owner.http.get(f"/api/imports/{key}/replay")
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert again.status_code == 200 and again.content == first.content
    assert len(reads) == 1 and "imports.log" not in reads[0], reads
    assert other.http.get(f"/api/imports/{key}/replay").status_code == 404
    assert other.http.get(f"/api/imports/{key}/analysis/progress").status_code == 404
    gone = owner.http.post(f"{where}/delete", data={"csrf_token": owner.csrf})
    assert gone.status_code == 303
    assert owner.http.get(f"/api/imports/{key}/replay").status_code == 404
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


# ---------------------------------------------------------------- hostile and large files


def _tree_peak(pid: int) -> int:
    """Peak resident bytes (``VmHWM``) of a process and all its descendants (the server and
    its workers), summed: memory taken for a moment and given back still counts."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    family = {pid}
    grew = True
    while grew:
        more = {child for child, parent in parents.items() if parent in family} - family
        family |= more
        grew = bool(more)
    total = 0
    for member in family:
        try:
            status = Path(f"/proc/{member}/status").read_text()
        except OSError:
            continue
        found = re.search(r"VmHWM:\s+(\d+) kB", status)
        total += int(found.group(1)) * 1024 if found else 0
    return total


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_guest_uploading_xg_bombs_gets_the_form_and_the_server_stays_small(
    tmp_path: Path,
) -> None:
    """The issue's 60 KB ``.xg`` file (52 MiB of zeros inside) grew the server by gigabytes
    when members were many; now each is refused once 16 MiB are out, with the reason."""
    bomb = xg_bomb(52 << 20)
    many = xg_many(8, 52 << 20)  # 8 members of 52 MiB each: 416 MiB opened at once, before
    assert len(bomb) < 64 << 10 and len(many) < 64 << 10  # under any request's limit
    served = ServeProcess("--database-url", f"sqlite:///{tmp_path / 'bomb.db'}")
    try:
        player = Player(served.server()).guest()
        record = mat_to_record((DATA / "tiny.mat").read_text(encoding="utf-8"))
        imported(player, "warm.xg", record_to_xg(record))  # the reading worker is started
        before = _tree_peak(served.proc.pid)
        too_large = "inflates to more than 16777216 bytes (16 MiB): refused"
        for name, data, says in (
            ("bomb.xg", bomb, too_large),
            ("many.xg", many, "the archive has no temp.xg"),  # the others are not opened
            ("bomb2.xg", bomb, too_large),
        ):
            refused = upload(player, name, data)
            assert refused.status_code == 400, refused.text
            assert 'id="import-error"' in refused.text and 'id="import-form"' in refused.text
            assert f"{name}: not a valid XG file" in unescape(refused.text)
            assert says in unescape(refused.text)
        grown = _tree_peak(served.proc.pid) - before
        assert grown < 50 << 20, f"the server's peak grew by {grown >> 20} MiB"
        assert player.http.get("/import").status_code == 200  # still answering
        player.close()
    finally:
        served.stop()
    assert "Traceback" not in "".join(served.output)


def _padded_mat(size: int) -> bytes:
    """tiny.mat padded with blank lines to ``size`` bytes (a valid file)."""
    text = (DATA / "tiny.mat").read_bytes()
    return text + b"\n" * (size - len(text))


def test_an_import_may_be_larger_than_other_requests(server: RunningServer) -> None:
    """Every request body is at most 64 KiB but an import's (1 MiB by default): a 200 KB
    file was answered with a bare 413."""
    player = Player(server).guest()
    where, _ = imported(player, "long.mat", _padded_mat(200_000))
    assert player.http.get(where).status_code == 200
    # another route keeps the 64 KiB
    other = player.http.post(
        f"{where}/delete", data={"csrf_token": player.csrf, "pad": "x" * 100_000}
    )
    assert other.status_code == 413 and 'id="import-form"' not in other.text
    assert player.http.get(where).status_code == 200
    # up to the limit itself
    imported(player, "full.mat", _padded_mat(MAX_BYTES))
    player.close()


def test_a_file_over_the_limit_gets_the_form_with_the_limit(server: RunningServer) -> None:
    player = Player(server).guest()
    over = upload(player, "big.mat", _padded_mat(MAX_BYTES + 1))
    assert over.status_code == 413 and 'id="import-form"' in over.text
    assert "big.mat: larger than 1024 KB" in unescape(over.text)
    # a body said to be far larger is not read: the form, in the visitor's language
    body = b"x" * (3 << 20)
    for lang, says in (
        ("en", "a match file is at most 1024 KB"),
        ("fr", "un fichier de match fait au plus 1024 KB"),
        ("it", "un file di match è al massimo di 1024 KB"),
    ):
        far = player.http.post(
            f"/import?lang={lang}",
            content=body,
            headers={"Content-Type": "multipart/form-data; boundary=B"},
        )
        assert far.status_code == 413 and 'id="import-form"' in far.text
        assert says in unescape(far.text), far.text

    # nor is a chunked body (no length said) past the limit
    def chunks() -> Iterator[bytes]:
        yield b'--B\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
        yield player.csrf.encode()
        yield b'\r\n--B\r\nContent-Disposition: form-data; name="file"; filename="c.mat"\r\n\r\n'
        for _ in range(40):
            yield b" " * 65536

    chunked = player.http.post(
        "/import?lang=en",
        content=chunks(),
        headers={"Content-Type": "multipart/form-data; boundary=B"},
    )
    assert chunked.status_code == 413 and "a match file is at most 1024 KB" in chunked.text
    assert player.http.get("/import").status_code == 200
    player.close()


def test_the_import_limit_is_a_setting(tmp_path: Path) -> None:
    running = start_server(settings_for(tmp_path, import_limit=4096))
    try:
        player = Player(running).guest()
        assert "at most 4 KB." in player.http.get("/import").text
        imported(player, "small.mat", _padded_mat(4096))
        refused = upload(player, "big.mat", _padded_mat(4097))
        assert refused.status_code == 413 and "big.mat: larger than 4 KB" in refused.text
        player.close()
    finally:
        running.stop()
