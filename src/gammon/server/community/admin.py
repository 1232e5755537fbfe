"""``gammon admin``: the operator's moderation commands, straight on the database
(docs/moderation.md): grant or revoke the moderator role, ban or unban an account or an
address, list the moderators.  Each writes its line of the moderation log (with no
moderator: the operator's)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import TextIO

from gammon.errors import GammonError

__all__ = ["add_admin_parser", "cmd_admin"]


def add_admin_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``gammon admin`` and its commands to the ``gammon`` parser."""
    p = sub.add_parser(
        "admin",
        help="moderators, bans (the operator's commands)",
        description=(
            "The operator's moderation commands, run on the site's database (the same URL "
            "as 'gammon serve': --db, else GAMMON_DATABASE_URL, else sqlite:///./gammon.db). "
            "Each action is written to the moderation log. See docs/moderation.md."
        ),
    )
    p.add_argument("--db", default=None, metavar="URL", help="the database URL")
    acts = p.add_subparsers(dest="admin_command", required=True, metavar="ACTION")
    for name, text in (
        ("grant", "make an account a moderator"),
        ("revoke", "make a moderator a player again"),
        ("unban", "lift an account's ban"),
    ):
        a = acts.add_parser(name, help=text, description=text)
        a.add_argument("name", help="the account's name")
    a = acts.add_parser("ban", help="ban an account", description="ban an account")
    a.add_argument("name", help="the account's name")
    a.add_argument("--hours", type=float, default=None, help="for this long (default: for good)")
    a.add_argument("--reason", default="", help="why (shown to moderators)")
    a = acts.add_parser(
        "ban-address",
        help="refuse an address or network",
        description="refuse an address or a network (CIDR, e.g. 203.0.113.0/24)",
    )
    a.add_argument("address")
    a.add_argument("--hours", type=float, default=None, help="for this long (default: for good)")
    a.add_argument("--reason", default="", help="why (shown to moderators)")
    a = acts.add_parser("unban-address", help="lift an address ban")
    a.add_argument("address")
    acts.add_parser("list-moderators", help="the moderators' names, one a line")
    p.set_defaults(func=cmd_admin)


def cmd_admin(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run one ``gammon admin`` action; 0 on success (a refusal raises :class:`GammonError`)."""
    out = out or sys.stdout
    try:
        from gammon.storage import Database
        from gammon.storage.moderation import Moderation
    except ImportError as exc:  # pragma: no cover - without the server extra
        raise GammonError(f"gammon admin needs the server extra: {exc}") from None
    url = args.db or os.environ.get("GAMMON_DATABASE_URL") or "sqlite:///./gammon.db"
    db = Database(url, pool_size=1)
    try:
        db.migrate()
        mod = Moderation(db)
        now = time.time_ns() // 1_000_000
        action = args.admin_command
        hours = getattr(args, "hours", None)
        if hours is not None and not 0 < hours <= 24 * 365 * 100:
            raise GammonError("--hours is a positive number of hours")
        until = now + int(hours * 3_600_000) if hours is not None else None
        if action == "list-moderators":
            for name in mod.moderators():
                out.write(name + "\n")
        elif action in ("grant", "revoke"):
            user = (mod.grant if action == "grant" else mod.revoke)(args.name, by=None, now=now)
            out.write(f"{user.name} is now a {user.role}\n")
        elif action in ("ban", "unban"):
            found = mod.sanctions_by_name(args.name)
            if found is None:
                raise GammonError(f"no account is called {args.name!r}")
            if action == "ban":
                gone = mod.ban(found.user_id, until, by=None, now=now, reason=args.reason)
                out.write(f"{found.name} is banned ({gone} session(s) ended)\n")
            else:
                mod.unban(found.user_id, by=None, now=now)
                out.write(f"{found.name} is no longer banned\n")
        elif action == "ban-address":
            key = mod.ban_address(args.address, until, by=None, now=now, reason=args.reason)
            out.write(f"{key} is banned\n")
        else:
            mod.unban_address(args.address, by=None, now=now)
            out.write(f"{args.address} is no longer banned\n")
    finally:
        db.close()
    return 0
