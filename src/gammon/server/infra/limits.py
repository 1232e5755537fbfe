"""One limiter for everything a stranger can make or ask for: tables, tournaments,
challenges, imports, analyses, accounts and guests; and the costly GETs and messages:
replays, history pages, downloads, match pages, the lists of tables (``ctx.infra.limits``).

Each *kind* of request has a rule (:data:`KINDS`): a token bucket per account and one
per client address.  A request is allowed when both buckets hold a token, and then one
is taken from each; when either is empty nothing is taken and the caller is told how
many seconds to wait (``Retry-After``).  Adding a kind is one line in :data:`KINDS`.

The costly reads (:data:`RATIONS`: per second, scaled by ``--list-limit``) have a bucket
per client address and one for the whole *site* (every address together, so that many
addresses cannot together ask for many times the work of one).  A read is allowed when
both hold a token; when the address's is empty nothing is taken from the site's (nor
the other way round), and the refusal says which was empty.

The address's bucket of every kind scales with ``--create-limit`` (per minute, twice
as many at once); the account's follows the rule, or ``--limits kind=N[/burst]``.

With Redis configured (``--redis-url``) the buckets live there, so that every process
of the site shares them, the site's budgets too: one Lua script checks and takes all of
a request's buckets atomically (Redis' own clock, keys expiring once full again).  Keys carry a digest of
the database URL, so two sites sharing one Redis do not share buckets.  If Redis cannot
be reached the process falls back to its own in-process buckets (and logs it): the
limits then hold per process, never not at all.

>>> limits = Limits(create_limit=2.0)  # 2 a minute, 4 at once
>>> import asyncio
>>> [asyncio.run(limits.allow("create", None, "1.2.3.4")) is None for _ in range(5)]
[True, True, True, True, False]
>>> asyncio.run(limits.allow("create", None, "5.6.7.8")) is None  # another address
True
>>> 0 < asyncio.run(limits.allow("create", None, "1.2.3.4")) <= 30.0  # seconds to wait
True
>>> reads = Limits(create_limit=2.0, list_limit=0.5)  # a replay: 1 an address, 1 the site
>>> asyncio.run(reads.need("replay", None, "1.2.3.4"))
>>> asyncio.run(reads.need("replay", None, "5.6.7.8"))
Traceback (most recent call last):
...
gammon.server.infra.limits.LimitError: the site is answering too many replays at the moment: wait a moment
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from gammon.server.infra.ratelimit import KeyedLimiter, Pacer, TokenBucket
from gammon.server.protocol import ServerError

__all__ = [
    "KINDS",
    "RATIONS",
    "LimitError",
    "Limits",
    "LimitsSyntaxError",
    "Ration",
    "Rule",
    "parse_limits",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Rule:
    """How much of one kind an account and an address may ask for.

    ``per_minute`` and ``burst`` are the account's (None: ``--create-limit`` per
    minute, and twice that at once); an address may ask ``address`` times
    ``--create-limit`` per minute, twice that at once.  ``bucket`` names the kind
    whose buckets this one shares (None: its own).  ``what`` is the English
    of what is refused (``too many <what>``; translated in :mod:`gammon.server.i18n`).
    """

    what: str
    per_minute: float | None = None
    burst: int | None = None
    address: float = 1.0
    bucket: str | None = None


#: Every kind of rationed request, with its rule.
KINDS: Final[Mapping[str, Rule]] = MappingProxyType(
    {
        # tables: the lobby's, the API's, bot challenges, rematches; and guests
        "create": Rule("new tables"),
        # accounts (sign-up) share the address's bucket of guests and tables
        "signup": Rule("new accounts", bucket="create"),
        "tournament": Rule("new tournaments", per_minute=2.0, burst=4, address=0.2),
        "challenge": Rule("challenges", per_minute=6.0, burst=5),
        # seconds of CPU each (their work queues bound what runs at once besides)
        "import": Rule("imports"),
        "analysis": Rule("analyses"),
        # a training puzzle's answer (each shows the analysis' equities: docs/training.md)
        "puzzle": Rule("puzzle answers", per_minute=20.0, burst=20, address=1.0),
    }
)


@dataclass(frozen=True, slots=True)
class Ration:
    """How often one kind of costly read is served: per client address ``address`` and
    for the whole site ``site``, each (per second, burst) as multiples of ``--list-limit``
    (a burst is at least 1).  ``mine`` and ``everyone``: the English of the refusals, by
    the address's bucket and by the site's."""

    mine: str
    everyone: str
    address: tuple[float, float]
    site: tuple[float, float]


def _ration(what: str, address: tuple[float, float], site: tuple[float, float]) -> Ration:
    return Ration(
        f"too many {what} asked for from your address: wait a moment",
        f"the site is answering too many {what} at the moment: wait a moment",
        address,
        site,
    )


#: Every kind of rationed read, with its figures (times ``--list-limit``, 10 by default).
RATIONS: Final[Mapping[str, Ration]] = MappingProxyType(
    {
        # a finished match replayed step by step (JSON; an imported one's too)
        "replay": _ration("replays", (0.1, 1.0), (1.0, 2.0)),
        # an earlier game's entries (a table socket's ``history`` message)
        "history": _ration("history pages", (0.5, 2.0), (5.0, 10.0)),
        # a match's page (/matches/{id}): its table loaded, its games listed
        "match": _ration("match pages", (0.5, 2.0), (5.0, 10.0)),
        # the lobby's, the watch page's and the API's lists (each kept a moment)
        "list": Ration(
            "too many requests for the lists of tables from your address: wait a moment",
            "the site is answering too many requests for the lists: wait a moment",
            (1.0, 4.0),
            (5.0, 20.0),
        ),
        # the training's pages: a puzzle (its legal moves and board drawn), the next one
        "training": _ration("training pages", (0.5, 2.0), (5.0, 10.0)),
        # .mat and log downloads (built off the event loop, kept)
        "download": Ration(
            "too many downloads from your address: wait a moment",
            "the site is sending too many downloads: wait a moment",
            (0.05, 0.8),
            (0.4, 3.2),
        ),
    }
)

#: How many times the site's budgets of costly reads together this process' pacer starts
#: at most a second: above 1, so that it spreads bursts out but never binds in the long run.
READ_PACE: Final = 1.25
#: The longest a costly read waits for its turn (past it: refused, ``rate_limited``).
READ_WAIT: Final = 2.0
#: Longest part of an address kept in a key.
_ADDRESS_CHARS: Final = 64
#: Seconds between two warnings that Redis is out of reach.
_WARN_EVERY: Final = 60.0

#: KEYS: the buckets, the requester's (address, account) first, then the site's if any;
#: ARGV: how many are the requester's, then the rate per second and burst of each.
#: Checks the requester's buckets, then (only if each has a token) the site's; takes one
#: token from each only if all have one.  Returns '' (allowed), or 'o' (one of the
#: requester's was empty) or 's' (the site's) followed by the seconds to wait.
_SCRIPT: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local own = tonumber(ARGV[1])
local tokens = {}
local wait = 0
for i = 1, #KEYS do
  if i == own + 1 and wait > 0 then
    return 'o' .. tostring(wait)
  end
  local rate = tonumber(ARGV[2 * i])
  local burst = tonumber(ARGV[2 * i + 1])
  local h = redis.call('HMGET', KEYS[i], 'tokens', 'at')
  local have = tonumber(h[1])
  local at = tonumber(h[2])
  if have == nil or at == nil then
    have = burst
    at = now
  end
  have = math.min(burst, have + math.max(0, now - at) * rate)
  tokens[i] = have
  if have < 1 then
    wait = math.max(wait, (1 - have) / rate)
  end
end
if wait > 0 then
  if #KEYS > own then
    return 's' .. tostring(wait)
  end
  return 'o' .. tostring(wait)
end
for i = 1, #KEYS do
  local rate = tonumber(ARGV[2 * i])
  local burst = tonumber(ARGV[2 * i + 1])
  redis.call('HSET', KEYS[i], 'tokens', tostring(tokens[i] - 1), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[i], math.ceil(burst / rate * 1000) + 1000)
end
return ''
"""


class LimitError(ServerError):
    """A request refused by a limit (``rate_limited``): ``retry_after`` seconds to wait;
    ``site``: refused by the whole site's budget (a ration's), not the requester's.

    >>> str(LimitError("tournament", 12.2)), LimitError("tournament", 12.2).retry_after
    ('too many new tournaments from your account or address: try again in 13 s', 13)
    >>> str(LimitError("download", 0.3)), str(LimitError("download", 0.3, site=True))
    ('too many downloads from your address: wait a moment', 'the site is sending too many downloads: wait a moment')
    """

    def __init__(self, kind: str, retry_after: float, site: bool = False) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        ration = RATIONS.get(kind)
        if ration is not None:
            message = ration.everyone if site else ration.mine
        else:
            message = (
                f"too many {KINDS[kind].what} from your account or address: "
                f"try again in {self.retry_after} s"
            )
        super().__init__("rate_limited", message)
        self.kind = kind
        self.site = site

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.kind, self.retry_after, self.site), {"msg_id": self.msg_id})


class LimitsSyntaxError(ValueError):
    """A ``--limits`` item that is not ``kind=per_minute[/burst]`` of a known kind."""


def parse_limits(items: tuple[str, ...]) -> dict[str, tuple[float, int]]:
    """``--limits`` overrides of the accounts' figures: ``kind=per_minute[/burst]``
    (the burst is twice the rate when left out).

    >>> parse_limits(("tournament=1", "challenge=12/10"))
    {'tournament': (1.0, 2), 'challenge': (12.0, 10)}
    >>> parse_limits(("dance=1",))
    Traceback (most recent call last):
    ...
    gammon.server.infra.limits.LimitsSyntaxError: limits: unknown kind 'dance' (analysis, challenge, create, import, puzzle, signup, tournament)
    """
    out: dict[str, tuple[float, int]] = {}
    for item in items:
        kind, _, figures = item.partition("=")
        kind = kind.strip()
        if kind not in KINDS:
            raise LimitsSyntaxError(f"limits: unknown kind {kind!r} ({', '.join(sorted(KINDS))})")
        rate_text, _, burst_text = figures.partition("/")
        try:
            rate = float(rate_text)
            burst = int(burst_text) if burst_text.strip() else max(1, int(2 * rate))
        except ValueError:
            raise LimitsSyntaxError(
                f"limits: {item!r} is not kind=per_minute or kind=per_minute/burst"
            ) from None
        if not (rate > 0 and burst >= 1 and math.isfinite(rate)):
            raise LimitsSyntaxError(f"limits: {item!r} needs a rate > 0 and a burst >= 1")
        out[kind] = (rate, burst)
    return out


@dataclass(frozen=True, slots=True)
class _Figures:
    """One kind's buckets: (per second, burst) of an account (None: none), of an address
    and of the whole site (None: none)."""

    bucket: str
    account: tuple[float, int] | None
    address: tuple[float, int]
    site: tuple[float, int] | None = None


class Limits:
    """Every kind's buckets per account and per address, shared through Redis when the
    site has it (see the module's documentation)."""

    def __init__(
        self,
        *,
        create_limit: float,
        overrides: Mapping[str, tuple[float, int]] | None = None,
        site: str = "",
        redis_url: str | None = None,
        list_limit: float = 10.0,
    ) -> None:
        """``create_limit``: ``--create-limit``; ``overrides``: :func:`parse_limits` of
        ``--limits``; ``site``: what names the site's keys in Redis (its database URL);
        ``list_limit``: ``--list-limit``, which scales the :data:`RATIONS`."""
        overrides = overrides or {}
        create = create_limit
        self._figures: dict[str, _Figures] = {}
        for kind, rule in KINDS.items():
            per_minute = create if rule.per_minute is None else rule.per_minute
            burst = rule.burst if rule.burst is not None else max(1, int(2 * per_minute))
            per_minute, burst = overrides.get(kind, (per_minute, burst))
            address = rule.address * create
            self._figures[kind] = _Figures(
                rule.bucket or kind,
                (per_minute / 60.0, burst),
                (address / 60.0, max(1, int(2 * address))),
            )
        for kind, ration in RATIONS.items():
            mine, site_wide = ration.address, ration.site
            self._figures[kind] = _Figures(
                kind,
                None,
                (mine[0] * list_limit, max(1, int(mine[1] * list_limit))),
                (site_wide[0] * list_limit, max(1, int(site_wide[1] * list_limit))),
            )
        site_rate = sum(f.site[0] for f in self._figures.values() if f.site is not None)
        #: Seconds between the starts of two costly reads in this process.
        self.read_gap = 1.0 / (READ_PACE * site_rate)
        self._pacer = Pacer(self.read_gap, READ_WAIT)
        self._local: dict[str, KeyedLimiter] = {}
        digest = hashlib.sha256(site.encode()).hexdigest()[:12]
        self._prefix = f"gammon:limit:{digest}:"
        self._redis: Any = None
        self._script: Any = None
        self._warned = -math.inf
        if redis_url:
            import redis.asyncio as aioredis

            self._redis = aioredis.Redis.from_url(
                redis_url, socket_timeout=1.0, socket_connect_timeout=1.0
            )
            self._script = self._redis.register_script(_SCRIPT)

    def figures(self, kind: str) -> tuple[tuple[float, int] | None, tuple[float, int]]:
        """``kind``'s (per second, burst) for an account (None for a ration, which has
        none) and for an address."""
        f = self._figures[kind]
        return f.account, f.address

    def site_figures(self, kind: str) -> tuple[float, int] | None:
        """``kind``'s (per second, burst) for the whole site (None: it has no such budget)."""
        return self._figures[kind].site

    async def allow(self, kind: str, user_id: int | None, address: str) -> float | None:
        """None when allowed (a token taken from the account's, the address's and the
        site's bucket of ``kind``: those it has); else the seconds to wait, and nothing
        is taken."""
        refused = await self.refusal(kind, user_id, address)
        return None if refused is None else refused[0]

    async def refusal(
        self, kind: str, user_id: int | None, address: str
    ) -> tuple[float, bool] | None:
        """:meth:`allow`, saying what refused: None when allowed, else the seconds to
        wait and whether the site's budget (not the requester's) was the empty one."""
        f = self._figures[kind]
        keys = [("a", address[:_ADDRESS_CHARS], f.address)]
        if user_id is not None and f.account is not None:
            keys.append(("u", str(user_id), f.account))
        own = len(keys)
        if f.site is not None:
            keys.append(("s", "", f.site))
        if self._script is not None:
            try:
                answer = await self._script(
                    keys=[f"{self._prefix}{f.bucket}:{side}:{key}" for side, key, _ in keys],
                    args=[own, *(x for _, _, (rate, burst) in keys for x in (repr(rate), burst))],
                )
            except Exception as exc:  # Redis out of reach: this process's buckets
                now = time.monotonic()
                if now - self._warned > _WARN_EVERY:
                    self._warned = now
                    log.warning("limits: Redis out of reach (%s): limits held per process", exc)
            else:
                text = answer.decode() if isinstance(answer, bytes) else str(answer)
                return (float(text[1:]), text[0] == "s") if text else None
        return self._allow_here(f.bucket, keys, own)

    def _allow_here(
        self, bucket: str, keys: list[tuple[str, str, tuple[float, int]]], own: int
    ) -> tuple[float, bool] | None:
        now = time.monotonic()
        buckets: list[TokenBucket] = []
        for side, key, (rate, burst) in keys:
            name = f"{bucket}:{side}"
            limiter = self._local.get(name)
            if limiter is None:
                limiter = self._local[name] = KeyedLimiter(rate, burst)
            buckets.append(limiter.bucket(key, now))
        wait = max(b.wait(now) for b in buckets[:own])
        if wait > 0:
            return wait, False
        wait = max((b.wait(now) for b in buckets[own:]), default=0.0)
        if wait > 0:
            return wait, True
        for b in buckets:
            b.take(now)
        return None

    async def need(self, kind: str, user_id: int | None, address: str) -> None:
        """Take a token of ``kind`` (:meth:`allow`) or raise :class:`LimitError` (saying
        whether the site's budget refused).  A costly read (a :data:`RATIONS` kind) then
        waits for its turn on this process' :class:`~gammon.server.infra.ratelimit.Pacer`,
        which starts them one every :attr:`read_gap` seconds (a fifth more than the site's
        budgets allow together): a burst of allowed reads is spread out instead of holding
        the event loop; a read that would wait over :data:`READ_WAIT` seconds is refused,
        as by the site's budget."""
        paced = self._figures[kind].site is not None  # a costly read
        if paced and self._pacer.busy():
            raise LimitError(kind, self._pacer.longest, site=True)
        refused = await self.refusal(kind, user_id, address)
        if refused is not None:
            raise LimitError(kind, *refused)
        if paced:
            wait = self._pacer.reserve()
            if wait > 0:
                await asyncio.sleep(wait)

    async def close(self) -> None:
        """Close the Redis connection (if any)."""
        if self._redis is not None:
            await self._redis.aclose()
