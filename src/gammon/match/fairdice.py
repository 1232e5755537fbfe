"""Dice sources: fair system dice, fixed dice for tests and replays, and verifiable dice.

Every source rolls two dice at a time (:meth:`DiceSource.roll`).  The opening roll-off uses
one roll too: ``d1`` is player 0's die and ``d2`` player 1's; a tie (a double) simply rolls
again.

:class:`VerifiableDice` is the commit–reveal scheme that lets players check, after a match,
that the server neither chose nor changed the dice:

1. Before the first roll the server draws a secret 32-byte ``server_seed`` and publishes its
   :attr:`~VerifiableDice.commitment`, ``sha256(server_seed).hexdigest()``.
2. Each player may give a client seed (printable ASCII without ``:``, at most 128 characters,
   possibly empty), so the server cannot know the dice when it commits.
3. The dice are the bytes of ``HMAC-SHA256(key=server_seed,
   msg=f"{match_id}:{seed_a}:{seed_b}:{counter}")`` for ``counter = 0, 1, 2, …``, taking each
   byte ``b < 252`` in order as the die ``b % 6 + 1``.  Bytes 252..255 are skipped, so each
   face comes from exactly 42 of the 252 byte values: no modulo bias.
4. At match end the server reveals the seed; anyone can then run :func:`verify_rolls`.

>>> seed = bytes(range(32))
>>> dice = VerifiableDice(seed, "m1", ("alice", "bob"))
>>> dice.commitment
'630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'
>>> [dice.roll() for _ in range(3)], dice.dice_drawn
([Dice(6, 1), Dice(5, 4), Dice(2, 3)], 6)
>>> resumed = VerifiableDice(seed, "m1", ("alice", "bob"), dice_drawn=6)
>>> resumed.roll() == dice.roll()
True
>>> verify_rolls(dice.commitment, seed.hex(), "m1", ("alice", "bob"), ["61", "54", "23"]).ok
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import count, islice
from typing import Final, NoReturn, Protocol, runtime_checkable

from gammon.dice import Dice, DiceLike
from gammon.errors import DiceExhaustedError, IllegalActionError, InvalidSeedError

__all__ = [
    "CLIENT_SEED_MAX_LENGTH",
    "DICE_SCHEME",
    "SERVER_SEED_BYTES",
    "DiceExhaustedError",
    "DiceSource",
    "DiceVerification",
    "FixedDice",
    "InvalidSeedError",
    "SystemDice",
    "VerifiableDice",
    "commit",
    "dice_stream",
    "die_from_byte",
    "verify_rolls",
]

#: Length of a server seed in bytes.
SERVER_SEED_BYTES: Final = 32
#: The name of this commit-reveal scheme, written in every dice record.
DICE_SCHEME: Final = "hmac-sha256-v1"
#: Longest client seed accepted, in characters.
CLIENT_SEED_MAX_LENGTH: Final = 128
#: Bytes from this value up are skipped: 252 = 6 * 42 is the largest multiple of 6 <= 256.
_REJECT_FROM: Final = 252
#: ``bytes.translate`` table mapping each byte to its die (bytes >= 252 are deleted).
_FACES: Final = bytes(b % 6 + 1 if b < _REJECT_FROM else 0 for b in range(256))
_REJECTED: Final = bytes(range(_REJECT_FROM, 256))


@runtime_checkable
class DiceSource(Protocol):
    """Anything that rolls two dice.

    >>> isinstance(SystemDice(), DiceSource), isinstance(FixedDice(["31"]), DiceSource)
    (True, True)
    """

    def roll(self) -> Dice:
        """The next roll: two dice (the roll-off reads ``d1`` for player 0, ``d2`` for 1)."""
        ...


@dataclass(frozen=True, slots=True)
class SystemDice:
    """Fair, unpredictable dice from the operating system (:mod:`secrets`).

    >>> roll = SystemDice().roll()
    >>> 1 <= roll.d1 <= 6 and 1 <= roll.d2 <= 6
    True
    """

    def roll(self) -> Dice:
        """Two independent uniform dice."""
        return Dice(secrets.randbelow(6) + 1, secrets.randbelow(6) + 1)


class FixedDice:
    """Replays a given sequence of rolls: for tests and for replaying logs.

    >>> dice = FixedDice([Dice(3, 1), (6, 6), "52"])
    >>> dice.roll(), dice.roll(), dice.used, dice.remaining
    (Dice(3, 1), Dice(6, 6), 2, 1)
    >>> dice.roll()
    Dice(5, 2)
    >>> dice.roll()
    Traceback (most recent call last):
    ...
    gammon.errors.DiceExhaustedError: FixedDice ran out: all 3 given rolls were used
    """

    __slots__ = ("_rolls", "_used")

    def __init__(self, rolls: Iterable[DiceLike]) -> None:
        self._rolls: tuple[Dice, ...] = tuple(Dice.coerce(r) for r in rolls)
        self._used = 0

    @property
    def rolls(self) -> tuple[Dice, ...]:
        """All the given rolls, used or not."""
        return self._rolls

    @property
    def used(self) -> int:
        """How many rolls have been taken."""
        return self._used

    @property
    def remaining(self) -> int:
        """How many rolls are left."""
        return len(self._rolls) - self._used

    def roll(self) -> Dice:
        """The next given roll; :class:`DiceExhaustedError` when none is left."""
        if self._used >= len(self._rolls):
            raise DiceExhaustedError(
                f"FixedDice ran out: all {len(self._rolls)} given rolls were used"
            )
        roll = self._rolls[self._used]
        self._used += 1
        return roll

    def __repr__(self) -> str:
        text = "".join(str(r) for r in self._rolls)
        return f"<FixedDice {self._used}/{len(self._rolls)} used: {text or '-'}>"


def die_from_byte(b: int) -> int | None:
    """The die a stream byte gives, or ``None`` for a skipped byte (252..255).

    >>> [die_from_byte(b) for b in (0, 5, 6, 251, 252, 255)]
    [1, 6, 1, 6, None, None]
    """
    if not 0 <= b <= 255:
        raise InvalidSeedError(f"not a byte: {b!r}")
    return b % 6 + 1 if b < _REJECT_FROM else None


def commit(server_seed: bytes) -> str:
    """The published commitment to a server seed: ``sha256(server_seed).hexdigest()``.

    >>> commit(bytes(32))
    '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
    """
    return hashlib.sha256(_check_server_seed(server_seed)).hexdigest()


def dice_stream(server_seed: bytes, match_id: str, client_seeds: Sequence[str]) -> Iterator[int]:
    """The endless stream of dice (1..6) for a match; a pure function of its arguments.

    The arguments are checked at once (:class:`InvalidSeedError`), not at the first die.

    >>> list(islice(dice_stream(bytes(range(32)), "m1", ("alice", "bob")), 8))
    [6, 1, 5, 4, 2, 3, 2, 5]
    """
    key = _check_server_seed(server_seed)
    prefix = _message_prefix(match_id, client_seeds)
    return _stream(key, prefix)


def _stream(key: bytes, prefix: str) -> Iterator[int]:
    for counter in count():
        block = hmac.digest(key, f"{prefix}{counter}".encode("ascii"), "sha256")
        yield from block.translate(_FACES, _REJECTED)


def _check_server_seed(server_seed: bytes) -> bytes:
    if not isinstance(server_seed, bytes) or len(server_seed) != SERVER_SEED_BYTES:
        # Never echo the value: it may be a real secret passed in the wrong form (hex text).
        size = f" of length {len(server_seed)}" if isinstance(server_seed, bytes | str) else ""
        raise InvalidSeedError(
            f"a server seed must be {SERVER_SEED_BYTES} bytes, "
            f"got {type(server_seed).__name__}{size}"
        )
    return server_seed


def _is_printable_ascii(text: str) -> bool:
    return all(" " <= c <= "~" for c in text)


def _check_client_seeds(client_seeds: Sequence[str]) -> tuple[str, str]:
    if isinstance(client_seeds, str) or len(client_seeds) != 2:
        raise InvalidSeedError(f"expected two client seeds, one per player, got {client_seeds!r}")
    for player, seed in enumerate(client_seeds):
        if not isinstance(seed, str):
            raise InvalidSeedError(f"client seed of player {player} must be text, got {seed!r}")
        if len(seed) > CLIENT_SEED_MAX_LENGTH:
            raise InvalidSeedError(
                f"client seed of player {player} is {len(seed)} characters long, "
                f"the limit is {CLIENT_SEED_MAX_LENGTH}"
            )
        if not _is_printable_ascii(seed) or ":" in seed:
            raise InvalidSeedError(
                f"client seed of player {player} must be printable ASCII without ':', got {seed!r}"
            )
    return client_seeds[0], client_seeds[1]


def _check_match_id(match_id: str) -> str:
    # A match id may contain ':': the seeds and the counter cannot, so the message still
    # splits one way only (from the right).
    if not isinstance(match_id, str) or not match_id or not _is_printable_ascii(match_id):
        raise InvalidSeedError(
            f"a match id must be non-empty printable ASCII text, got {match_id!r}"
        )
    return match_id


def _message_prefix(match_id: str, client_seeds: Sequence[str]) -> str:
    seed_a, seed_b = _check_client_seeds(client_seeds)
    return f"{_check_match_id(match_id)}:{seed_a}:{seed_b}:"


class VerifiableDice:
    """Dice that players can verify after the match (the commit–reveal scheme above).

    ``VerifiableDice(server_seed, match_id, client_seeds, dice_drawn=n)`` continues exactly
    where an instance with the same seeds stopped after ``n`` dice, so a restarted server
    resumes a match from its stored seed and :attr:`dice_drawn`.

    The server seed stays private: ``repr()`` and ``str()`` show only the commitment.

    >>> dice = VerifiableDice(bytes(range(32)), "m1", ("alice", "bob"))
    >>> dice
    <VerifiableDice match_id='m1' client_seeds=('alice', 'bob') commitment='630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd' dice_drawn=0>
    """

    __slots__ = ("_client_seeds", "_commitment", "_dice_drawn", "_match_id", "_seed", "_stream")

    def __init__(
        self,
        server_seed: bytes,
        match_id: str,
        client_seeds: Sequence[str] = ("", ""),
        *,
        dice_drawn: int = 0,
    ) -> None:
        if type(dice_drawn) is not int or dice_drawn < 0:
            raise InvalidSeedError(f"dice_drawn must be an integer >= 0, got {dice_drawn!r}")
        self._seed = _check_server_seed(server_seed)
        self._match_id = _check_match_id(match_id)
        self._client_seeds = _check_client_seeds(client_seeds)
        self._commitment = commit(server_seed)
        self._stream = _stream(self._seed, _message_prefix(self._match_id, self._client_seeds))
        deque(islice(self._stream, dice_drawn), maxlen=0)  # skip the dice already drawn
        self._dice_drawn = dice_drawn

    @classmethod
    def new(cls, match_id: str, client_seeds: Sequence[str] = ("", "")) -> VerifiableDice:
        """Verifiable dice with a fresh secret server seed drawn with :mod:`secrets`.

        Publish :attr:`commitment` before the first roll.  To give the players' seeds their
        full worth, publish it *before* asking for them, then call :meth:`with_client_seeds`.
        """
        return cls(secrets.token_bytes(SERVER_SEED_BYTES), match_id, client_seeds)

    def with_client_seeds(self, seed_a: str, seed_b: str) -> VerifiableDice:
        """The same server seed and match with the players' client seeds, before any roll.

        >>> dice = VerifiableDice.new("m2")
        >>> dice.with_client_seeds("x", "y").commitment == dice.commitment
        True
        """
        if self._dice_drawn:
            raise IllegalActionError(
                f"client seeds cannot change after {self._dice_drawn} dice were drawn"
            )
        return VerifiableDice(self._seed, self._match_id, (seed_a, seed_b))

    @property
    def commitment(self) -> str:
        """``sha256(server_seed).hexdigest()``: publish it before the first roll."""
        return self._commitment

    @property
    def match_id(self) -> str:
        """The match id mixed into every block."""
        return self._match_id

    @property
    def client_seeds(self) -> tuple[str, str]:
        """The client seeds of player 0 and player 1."""
        return self._client_seeds

    @property
    def dice_drawn(self) -> int:
        """How many dice (not rolls) have been taken from the stream: store it to resume."""
        return self._dice_drawn

    def roll(self) -> Dice:
        """The next two dice of the stream."""
        d1 = next(self._stream)
        d2 = next(self._stream)
        self._dice_drawn += 2
        return Dice(d1, d2)

    def reveal(self) -> str:
        """The server seed as 64 hex digits.

        The server calls this only at match end, to publish the seed so players can verify
        every roll; before that, the seed must never reach a client.  (A server that must
        resume matches keeps the seed in its own private storage.)
        """
        return self._seed.hex()

    def __repr__(self) -> str:
        return (
            f"<VerifiableDice match_id={self._match_id!r} client_seeds={self._client_seeds!r} "
            f"commitment={self._commitment!r} dice_drawn={self._dice_drawn}>"
        )

    def __reduce__(self) -> NoReturn:
        # Pickling would copy the secret seed into whatever stores the pickle; store the
        # seed deliberately (reveal() into private storage) and rebuild with dice_drawn.
        raise TypeError("VerifiableDice cannot be pickled: it holds the secret server seed")


@dataclass(frozen=True, slots=True)
class DiceVerification:
    """The result of :func:`verify_rolls`.

    ``first_bad_roll`` is the index (from 0, the opening roll-off) of the first roll that
    differs from what the seeds give, or ``None``.
    """

    ok: bool
    message: str
    first_bad_roll: int | None
    commitment_ok: bool


def verify_rolls(
    commitment: str,
    server_seed_hex: str,
    match_id: str,
    client_seeds: Sequence[str],
    rolls: Iterable[DiceLike],
) -> DiceVerification:
    """Check a revealed seed against its commitment, then recompute every roll of a match.

    ``rolls`` are numbered from 0, in the order they were rolled, each with its dice in the
    order rolled (``Dice(5, 2)`` is not ``Dice(2, 5)``).  A malformed match id or client
    seed raises :class:`InvalidSeedError`; any mismatch is reported in the result.

    >>> seed, ids = bytes(range(32)), ("alice", "bob")
    >>> c = commit(seed)
    >>> verify_rolls(c, seed.hex(), "m1", ids, ["61", "54", "23"])
    DiceVerification(ok=True, message='commitment matches and all 3 rolls agree with the seeds', first_bad_roll=None, commitment_ok=True)
    >>> verify_rolls(c, seed.hex(), "m1", ids, ["61", "54", "32"]).message
    'roll 2 was 3-2, the seed gives 2-3'
    """
    prefix = _message_prefix(match_id, client_seeds)  # raises on a malformed id or seed
    claimed = [Dice.coerce(r) for r in rolls]
    try:
        seed = bytes.fromhex(server_seed_hex.strip())
    except ValueError:
        seed = b""
    if len(seed) != SERVER_SEED_BYTES:
        return DiceVerification(
            ok=False,
            message=f"the revealed server seed is not {2 * SERVER_SEED_BYTES} hex digits: "
            f"{server_seed_hex!r}",
            first_bad_roll=None,
            commitment_ok=False,
        )
    actual = commit(seed)
    if actual != commitment.strip().lower():
        return DiceVerification(
            ok=False,
            message=f"commitment mismatch: sha256 of the revealed server seed is {actual}, "
            f"but the published commitment is {commitment!r}",
            first_bad_roll=None,
            commitment_ok=False,
        )
    stream = _stream(seed, prefix)
    for index, roll in enumerate(claimed):
        expected = Dice(next(stream), next(stream))
        if roll != expected:
            return DiceVerification(
                ok=False,
                message=f"roll {index} was {roll.d1}-{roll.d2}, "
                f"the seed gives {expected.d1}-{expected.d2}",
                first_bad_roll=index,
                commitment_ok=True,
            )
    return DiceVerification(
        ok=True,
        message=f"commitment matches and all {len(claimed)} rolls agree with the seeds",
        first_bad_roll=None,
        commitment_ok=True,
    )
