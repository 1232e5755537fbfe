"""Unit tests of the server's pure parts: settings, message parsing, error codes, views."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from gammon.errors import (
    AmbiguousMoveError,
    GammonError,
    IllegalActionError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidOptionsError,
    InvalidSeedError,
)
from gammon.match import TableOptions
from gammon.server.infra.settings import SETTINGS_HELP, Settings, SettingsError
from gammon.server.protocol import (
    HTTP_STATUS,
    ServerError,
    error_code,
    parse_client_message,
)
from gammon.server.table.forms import table_request
from gammon.server.table.state import initial_state, reduce
from gammon.server.table.views import entry_view, state_view
from serverkit import run_async


def test_every_gammon_error_has_a_documented_code() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    for cls in (
        AmbiguousMoveError,
        IllegalActionError,
        IllegalMoveError,
        InvalidNotationError,
        InvalidOptionsError,
        InvalidSeedError,
    ):
        code = error_code(cls("x"))
        assert code == cls.code and code in HTTP_STATUS and f"`{code}`" in doc, cls
    for code in HTTP_STATUS:
        assert f"| `{code}` |" in doc, f"{code} is not in the error table of docs/protocol.md"
    assert error_code(ValueError("boom")) == "internal"
    assert error_code(ServerError("stale", "x")) == "stale"
    assert error_code(GammonError("x")) == "error"


def test_settings_from_environment_and_flags() -> None:
    env = {
        "GAMMON_PORT": "9001",
        "GAMMON_ALLOWED_ORIGINS": "https://a.example, https://b.example",
        "GAMMON_ACCESS_LOG": "yes",
        "GAMMON_REDIS_URL": "redis://127.0.0.1:6379/0",
        "GAMMON_RATE_LIMIT": "2.5",
    }
    s = Settings.from_env(env, port=9002, redis_url=None)
    assert s.port == 9002 and s.rate_limit == 2.5 and s.access_log is True
    assert s.allowed_origins == ("https://a.example", "https://b.example")
    assert s.redis_url == "redis://127.0.0.1:6379/0"  # a None override keeps the variable
    with pytest.raises(SettingsError):
        Settings.from_env({"GAMMON_COOKIE_SECURE": "maybe"})
    with pytest.raises(SettingsError):
        Settings(max_message_bytes=10)
    assert set(SETTINGS_HELP) == {f.name for f in fields(Settings)}


def test_serve_help_lists_every_setting() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "gammon", "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for f in fields(Settings):
        assert "--" + f.name.replace("_", "-") in out and f"GAMMON_{f.name.upper()}" in out, f.name


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ('{"type": "move", "move": 5}', "bad_message"),
        ('{"type": "steps", "played": [[1, 2]]}', "bad_message"),
        ('{"type": "steps", "played": [[26, 2, 1]]}', "bad_message"),
        ('{"type": "sit", "seat": true}', "bad_message"),
        ('{"type": "hello"}', "bad_message"),
        ('{"type": "roll", "version": -1}', "bad_message"),
        ('{"type": "roll", "id": "' + "x" * 65 + '"}', "bad_message"),
        ('{"type": "timeout", "id": 3}', "forbidden"),
        ('"roll"', "bad_json"),
        ("1" * 5000, "too_large"),
        ("{" * 100, "bad_json"),
    ],
)
def test_parse_refuses(raw: str, code: str) -> None:
    with pytest.raises(ServerError) as refused:
        parse_client_message(raw, 4096)
    assert refused.value.code == code


def test_parse_keeps_the_id_of_a_refused_message() -> None:
    with pytest.raises(ServerError) as refused:
        parse_client_message('{"type": "roll", "dice": "66", "id": "x1"}', 4096)
    assert refused.value.msg_id == "x1"


def test_hello_tolerates_fields_of_later_versions() -> None:
    msg = parse_client_message(json.dumps({"type": "hello", "protocol": 1, "future": 1}), 4096)
    assert msg.fields == {"protocol": 1}


def test_json_table_requests_keep_defaults() -> None:
    req = table_request({"match_length": 5}, form=False)
    assert req.options == TableOptions(match_length=5)
    req = table_request(
        {"clock": {"delay": 3, "reserve_base": 30, "reserve_per_point": 0}}, form=False
    )
    assert req.options.clock is not None and req.options.clock.delay == 3
    with pytest.raises(ServerError):
        table_request({"clock": {"delay": -1}}, form=False)
    with pytest.raises(ServerError):
        table_request({"seat": 2}, form=False)


def test_views_hide_seeds_and_user_ids() -> None:
    t = initial_state("t", {"by": "a", "options": TableOptions(match_length=1).to_dict()}, 0)
    for seat in (0, 1):
        t, _ = reduce(
            t, "sit", {"seat": seat, "name": f"p{seat}", "kind": "user", "user": 7 + seat}, 0
        )
    t, _ = reduce(
        t, "start", {"commitment": "c" * 64, "players": ["p0", "p1"], "balances": None}, 0
    )
    t, _ = reduce(t, "seed", {"seat": 0, "seed": "secret-ish"}, 0)
    assert entry_view("seed", {"seat": 0, "seed": "s"}, 1) == {"seat": 0}
    assert entry_view("seed", {"seat": 0, "seed": "s"}, 0) == {"seat": 0, "seed": "s"}
    assert "user" not in entry_view(
        "sit", {"seat": 0, "name": "a", "kind": "user", "user": 7}, None
    )
    other = state_view(t, 1, signed_in=True, online=(True, True), moves=None)
    text = json.dumps(other)
    assert "secret-ish" not in text and '"user":' not in text
    assert other["dice"]["client_seeds"] is None and other["dice"]["server_seed"] is None
    mine = state_view(t, 0, signed_in=True, online=(True, True), moves=None)
    assert mine["dice"]["your_seed"] == "secret-ish"


def test_every_page_text_is_translated() -> None:
    import re

    from gammon.server.i18n import LANGUAGES, MESSAGES

    folder = Path(__file__).parents[2] / "src" / "gammon" / "server" / "templates"
    texts = set()
    for page in folder.glob("*.html"):
        texts |= set(re.findall(r'\bt\("([^"]+)"\)', page.read_text(encoding="utf-8")))
    assert len(texts) > 80
    for lang in LANGUAGES[1:]:
        missing = sorted(texts - set(MESSAGES[lang]))
        assert not missing, f"{lang} lacks {missing}"


def test_password_hashes_keep_their_cost_and_verify_after_a_change() -> None:
    """The site hashes with argon2-cffi's defaults (RFC 9106's second choice); a hash made
    at other settings carries them, and still verifies once the settings change (an
    operator may raise the cost: accounts made before still sign in)."""
    from gammon.server.community.auth import Auth

    site = Settings()
    assert (site.password_memory, site.password_passes, site.password_lanes) == (65536, 3, 4)
    cheap = Auth(None, None, Settings(password_memory=8192, password_passes=1, password_lanes=1))  # type: ignore[arg-type]
    made = run_async(lambda: cheap._hash("correct horse"))
    assert made.startswith("$argon2id$v=19$m=8192,t=1,p=1$")
    later = Auth(None, None, site)  # type: ignore[arg-type]
    assert run_async(lambda: later._verify(made, "correct horse"))
    assert not run_async(lambda: later._verify(made, "correct horse!"))
    assert run_async(lambda: later._hash("x")).startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    with pytest.raises(SettingsError):
        Settings(password_memory=4096)
