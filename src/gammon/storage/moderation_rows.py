"""What the moderation queries return (:mod:`gammon.storage.moderation`), and client
addresses as address bans name them.

>>> normalize_address("10.1.2.3/8"), normalize_address("::ffff:10.0.0.1")
('10.0.0.0/8', '10.0.0.1')
>>> address_in("10.9.9.9", ["10.0.0.0/8"]), address_in("11.0.0.1", ["10.0.0.0/8"])
(True, False)
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gammon.errors import GammonError

__all__ = [
    "AddressRow",
    "ChatLine",
    "FlagRow",
    "LogRow",
    "MatchRow",
    "ModerationError",
    "ReportRow",
    "Sanctions",
    "address_in",
    "normalize_address",
]


class ModerationError(GammonError, ValueError):
    """A moderation request refused (no such user, result or report; a bad address...)."""

    def __init__(self, message: str, code: str = "bad_message") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Sanctions:
    """An account's role and sanctions (times in ms; None: none)."""

    user_id: int
    name: str
    guest: bool
    role: str
    muted_until: int | None
    banned_until: int | None
    ban_reason: str | None

    def muted(self, now: int) -> bool:
        """Whether the account may not chat at ``now``."""
        return self.muted_until is not None and self.muted_until > now

    def banned(self, now: int) -> bool:
        """Whether the account may not sign in or play at ``now``."""
        return self.banned_until is not None and self.banned_until > now

    @property
    def moderator(self) -> bool:
        """Whether the account is a moderator."""
        return self.role == "moderator"


@dataclass(frozen=True, slots=True)
class ReportRow:
    """A report, with the names of those it concerns."""

    id: int
    at: int
    reporter: str | None
    target_id: int
    target: str
    table_id: str | None
    entry_seq: int | None
    reason: str
    text: str
    status: str


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A chat line of a table's journal (``user``: its author's account)."""

    table_id: str
    seq: int
    at: int
    name: str
    text: str
    user: int | None
    removed: bool = False


@dataclass(frozen=True, slots=True)
class AddressRow:
    """An address an account used, and the other accounts seen there."""

    address: str
    first_seen: int
    last_seen: int
    count: int
    others: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A finished table an account sat at."""

    result_id: int
    table_id: str
    ended_at: int
    variant: str
    match_length: int
    names: tuple[str, str]
    winner: int | None
    score: tuple[int, int]
    rated: bool
    voided: bool
    reason: str


@dataclass(frozen=True, slots=True)
class LogRow:
    """One line of the moderation log."""

    id: int
    at: int
    moderator: str | None
    action: str
    target: str | None
    table_id: str | None
    detail: dict[str, Any]


@dataclass(frozen=True, slots=True)
class FlagRow:
    """A fair-play check that flagged a player."""

    id: int
    at: int
    user: str
    table_id: str
    decisions: int
    error_rate: float
    baseline: float | None
    bot_agreement: float
    score: float


def normalize_address(text: str) -> str:
    """An address or a network (CIDR) as stored: ``10.0.0.0/8``, ``2001:db8::/32``, or one
    address (an IPv4 address seen through IPv6, ``::ffff:a.b.c.d``, is the IPv4 one).
    Raises :class:`ModerationError` for anything else."""
    text = (text or "").strip()
    try:
        if "/" in text:
            net = ipaddress.ip_network(text, strict=False)
            if net.num_addresses == 1:
                return str(net.network_address)
            return str(net)
        addr = ipaddress.ip_address(text)
    except ValueError:
        raise ModerationError(
            f"{text[:64]!r} is not an IP address or network", "bad_message"
        ) from None
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        return str(addr.ipv4_mapped)
    return str(addr)


def address_in(address: str, bans: Iterable[str]) -> bool:
    """Whether ``address`` is one of ``bans`` (addresses or networks)."""
    try:
        addr: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    for ban in bans:
        try:
            if "/" in ban:
                if addr in ipaddress.ip_network(ban, strict=False):
                    return True
            elif addr == ipaddress.ip_address(ban):
                return True
        except (ValueError, TypeError):
            continue
    return False
