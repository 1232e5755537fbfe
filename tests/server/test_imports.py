"""Issue #16: a signed-in player uploads a .mat, SGF or .xg file and gets the match page,
with the reader's warnings by line and the analysis; a bad file comes back to the form
with the reason, a large one is refused, and nobody else sees the imported match."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from gammon.match.formats import mat_to_record, match_to_sgf, record_to_xg
from gammon.server.analysis import analysis_available
from gammon.server.web.imports import MAX_BYTES
from serverkit import Player, RunningServer

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
    assert f'href="{where}?level=expert"' in page
    analysed = player.http.get(f"{where}?level=expert", timeout=120)
    assert analysed.status_code == 200 and 'id="totals"' in analysed.text
    assert player.http.get(f"{where}?level=nope").status_code == 400
    player.close()
