"""``gammon admin`` (issue #30): the operator grants and revokes the moderator role, bans
and unbans accounts and addresses, on the site's database; each action is logged."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="gammon admin needs the server extra")

from gammon.cli import main
from gammon.storage import Database, Store
from gammon.storage.moderation import Moderation


def test_admin_commands_on_the_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'site.db'}"
    db = Database(url)
    db.migrate()
    store = Store(db)
    ann = store.create_user("ann", "h", guest=False, balance=0, now=1)
    store.create_session("tok", ann.id, "c", 1, 2**50)
    assert main(["admin", "--db", url, "grant", "Ann"]) == 0
    assert main(["admin", "--db", url, "list-moderators"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "ann"
    assert main(["admin", "--db", url, "revoke", "ann"]) == 0
    assert main(["admin", "--db", url, "ban", "ann", "--hours", "2", "--reason", "spam"]) == 0
    assert "1 session(s) ended" in capsys.readouterr().out
    assert store.session("tok", 2) is None
    assert main(["admin", "--db", url, "unban", "ann"]) == 0
    assert main(["admin", "--db", url, "ban-address", "198.51.100.0/24"]) == 0
    assert main(["admin", "--db", url, "unban-address", "198.51.100.0/24"]) == 0
    # refusals: a message and status 2, nothing written
    assert main(["admin", "--db", url, "grant", "nobody"]) == 2
    assert main(["admin", "--db", url, "ban-address", "nowhere"]) == 2
    assert main(["admin", "--db", url, "ban", "ann", "--hours", "-1"]) == 2
    err = capsys.readouterr().err
    assert "no account is called 'nobody'" in err and "not an IP address" in err
    actions = [line.action for line in Moderation(db).mod_log()]
    assert actions == ["unban-address", "ban-address", "unban", "ban", "revoke", "grant"]
    assert all(line.moderator is None for line in Moderation(db).mod_log())
    db.close()


def test_admin_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["admin", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "grant" in out and "ban-address" in out and "list-moderators" in out
