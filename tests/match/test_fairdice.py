"""Dice sources: uniformity, reachability, reproducibility, resume, verification, secrecy."""

from __future__ import annotations

import hashlib
import hmac
import math
import pickle
import secrets
from collections import Counter
from collections.abc import Iterator
from itertools import islice, product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon.dice import ALL_ROLLS, Dice
from gammon.errors import GammonError, IllegalActionError, InvalidNotationError
from gammon.match.fairdice import (
    DiceExhaustedError,
    DiceSource,
    DiceVerification,
    FixedDice,
    InvalidSeedError,
    SystemDice,
    VerifiableDice,
    commit,
    dice_stream,
    die_from_byte,
    verify_rolls,
)

SEED = bytes.fromhex("9f1c4be07d2a55e3186f0c9d7ab24e61c03f8852d9e71a4b6c20f5e83d9b7a14")
SEEDS = ("alice-7f3a", "bob 42")
MATCH = "match-0001"

# Chi-square critical values (upper tail), from the closed form in _chi2_sf below.
CHI2_5_P1E4 = 25.745  # 5 degrees of freedom (6 faces), p = 1e-4
CHI2_35_P1E4 = 74.926  # 35 degrees of freedom (36 ordered rolls), p = 1e-4
CHI2_5_P1E6 = 35.888  # p = 1e-6: SystemDice is not seeded, so a false failure must be rare
CHI2_35_P1E6 = 89.947

PRINTABLE_NO_COLON = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) != ":")
client_seed = st.text(alphabet=PRINTABLE_NO_COLON, max_size=128)
server_seed = st.binary(min_size=32, max_size=32)


def _chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with an odd number of degrees of freedom."""
    assert df % 2 == 1
    term = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    total = math.erfc(math.sqrt(x / 2))
    for j in range(1, (df - 1) // 2 + 1):
        total += term
        term *= x / (2 * j + 1)
    return total


def _chi2(counts: Counter[object], cells: list[object]) -> float:
    n = sum(counts.values())
    expected = n / len(cells)
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


def _reference_stream(seed: bytes, match_id: str, seeds: tuple[str, str]) -> Iterator[int]:
    """The scheme of DESIGN.md written out plainly, independent of the module."""
    counter = 0
    while True:
        message = f"{match_id}:{seeds[0]}:{seeds[1]}:{counter}".encode()
        for b in hmac.new(seed, message, hashlib.sha256).digest():
            if b < 252:
                yield b % 6 + 1
        counter += 1


def _rolls(stream: Iterator[int], n: int) -> list[Dice]:
    return [Dice(next(stream), next(stream)) for _ in range(n)]


# ---------------------------------------------------------------- uniformity


def test_chi2_helper_matches_tables() -> None:
    assert _chi2_sf(11.0705, 5) == pytest.approx(0.05, rel=1e-4)
    assert _chi2_sf(49.8018, 35) == pytest.approx(0.05, rel=1e-4)
    assert _chi2_sf(CHI2_5_P1E4, 5) == pytest.approx(1e-4, rel=1e-3)
    assert _chi2_sf(CHI2_35_P1E4, 35) == pytest.approx(1e-4, rel=1e-3)
    assert _chi2_sf(CHI2_5_P1E6, 5) == pytest.approx(1e-6, rel=1e-3)
    assert _chi2_sf(CHI2_35_P1E6, 35) == pytest.approx(1e-6, rel=1e-3)


FACES: list[object] = list(range(1, 7))
ORDERED: list[object] = list(product(range(1, 7), repeat=2))


@pytest.fixture(scope="module")
def verifiable_sample() -> list[Dice]:
    """Half a million rolls (a million dice) from fixed seeds: deterministic."""
    dice = VerifiableDice(SEED, "chi-square", SEEDS)
    rolls = [dice.roll() for _ in range(500_000)]
    assert dice.dice_drawn == 1_000_000
    return rolls


def test_verifiable_faces_are_uniform(verifiable_sample: list[Dice]) -> None:
    counts: Counter[object] = Counter()
    for r in verifiable_sample:
        counts[r.d1] += 1
        counts[r.d2] += 1
    assert sum(counts.values()) == 1_000_000
    assert _chi2(counts, FACES) < CHI2_5_P1E4


def test_verifiable_ordered_rolls_are_uniform(verifiable_sample: list[Dice]) -> None:
    counts: Counter[object] = Counter((r.d1, r.d2) for r in verifiable_sample)
    assert _chi2(counts, ORDERED) < CHI2_35_P1E4


def test_system_dice_are_uniform() -> None:
    source = SystemDice()
    rolls = [source.roll() for _ in range(100_000)]
    faces: Counter[object] = Counter()
    for r in rolls:
        faces[r.d1] += 1
        faces[r.d2] += 1
    assert _chi2(faces, FACES) < CHI2_5_P1E6
    assert _chi2(Counter((r.d1, r.d2) for r in rolls), ORDERED) < CHI2_35_P1E6


def test_system_dice_use_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    values = iter([5, 0])
    monkeypatch.setattr(secrets, "randbelow", lambda n: next(values))
    assert SystemDice().roll() == Dice(6, 1)


# ---------------------------------------------------------------- reachability and mapping


def test_byte_mapping_has_no_bias() -> None:
    faces = Counter(die_from_byte(b) for b in range(256))
    assert faces == {1: 42, 2: 42, 3: 42, 4: 42, 5: 42, 6: 42, None: 4}
    assert [die_from_byte(b) for b in range(252, 256)] == [None] * 4
    for bad in (-1, 256):
        with pytest.raises(InvalidSeedError):
            die_from_byte(bad)


def test_every_face_and_roll_is_reachable() -> None:
    dice = VerifiableDice(SEED, MATCH, SEEDS)
    rolls = [dice.roll() for _ in range(1000)]
    assert {r.d1 for r in rolls} == {r.d2 for r in rolls} == set(range(1, 7))
    assert {r.normalized() for r in rolls} == set(ALL_ROLLS)
    assert {(r.d1, r.d2) for r in rolls} == set(product(range(1, 7), repeat=2))


def _block_with_rejected_byte() -> tuple[str, bytes]:
    """A match id whose first HMAC block has a byte >= 252 that, kept, would shift the dice."""
    for i in range(1000):
        match_id = f"reject-{i}"
        block = hmac.new(SEED, f"{match_id}:a:b:0".encode(), hashlib.sha256).digest()
        kept = [b % 6 + 1 for b in block if b < 252]
        if kept != [b % 6 + 1 for b in block][: len(kept)]:
            return match_id, block
    raise AssertionError("no block with a byte >= 252")  # pragma: no cover


def test_bytes_from_252_are_skipped() -> None:
    match_id, block = _block_with_rejected_byte()
    kept = [b % 6 + 1 for b in block if b < 252]
    assert len(kept) < 32
    stream = dice_stream(SEED, match_id, ("a", "b"))
    assert list(islice(stream, len(kept))) == kept  # differs from the unfiltered mapping
    # The next die comes from block 1, not from a skipped byte of block 0.
    block1 = hmac.new(SEED, f"{match_id}:a:b:1".encode(), hashlib.sha256).digest()
    assert next(stream) == next(b % 6 + 1 for b in block1 if b < 252)


def test_known_vector() -> None:
    # Pinned so that a change to the scheme (which would break old matches) is noticed.
    seed = bytes(range(32))
    assert commit(seed) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    first = list(islice(dice_stream(seed, "m1", ("alice", "bob")), 20))
    assert first == [6, 1, 5, 4, 2, 3, 2, 5, 5, 5, 1, 4, 3, 4, 1, 1, 2, 4, 3, 5]


@given(
    seed=server_seed,
    seed_a=client_seed,
    seed_b=client_seed,
    match_id=st.sampled_from(["m", "a:b", "x y"]),
)
def test_stream_matches_reference(seed: bytes, seed_a: str, seed_b: str, match_id: str) -> None:
    expected = list(islice(_reference_stream(seed, match_id, (seed_a, seed_b)), 100))
    assert list(islice(dice_stream(seed, match_id, (seed_a, seed_b)), 100)) == expected


# ---------------------------------------------------------------- reproducibility and resume


def test_reproducible_from_revealed_seed() -> None:
    live = VerifiableDice.new(MATCH, SEEDS)
    published = live.commitment
    rolls = [live.roll() for _ in range(60)]
    revealed = live.reveal()
    assert commit(bytes.fromhex(revealed)) == published
    replay = VerifiableDice(bytes.fromhex(revealed), MATCH, SEEDS)
    assert [replay.roll() for _ in range(60)] == rolls
    result = verify_rolls(published, revealed, MATCH, SEEDS, rolls)
    assert result == DiceVerification(
        ok=True,
        message="commitment matches and all 60 rolls agree with the seeds",
        first_bad_roll=None,
        commitment_ok=True,
    )


def test_new_draws_fresh_seeds() -> None:
    assert VerifiableDice.new(MATCH).commitment != VerifiableDice.new(MATCH).commitment


@given(seed=server_seed, n=st.integers(0, 400), more=st.integers(1, 40))
def test_resume_after_n_dice_equals_one_long_run(seed: bytes, n: int, more: int) -> None:
    long_run = list(islice(dice_stream(seed, MATCH, SEEDS), n + 2 * more))
    resumed = VerifiableDice(seed, MATCH, SEEDS, dice_drawn=n)
    assert resumed.dice_drawn == n
    after = [resumed.roll() for _ in range(more)]
    assert after == [Dice(long_run[i], long_run[i + 1]) for i in range(n, n + 2 * more, 2)]
    assert resumed.dice_drawn == n + 2 * more


@given(k=st.integers(0, 100), more=st.integers(1, 20))
def test_restart_mid_match(k: int, more: int) -> None:
    first = VerifiableDice(SEED, MATCH, SEEDS)
    uninterrupted = VerifiableDice(SEED, MATCH, SEEDS)
    before = [first.roll() for _ in range(k)]
    assert [uninterrupted.roll() for _ in range(k)] == before
    restarted = VerifiableDice(SEED, MATCH, SEEDS, dice_drawn=first.dice_drawn)
    assert [restarted.roll() for _ in range(more)] == [uninterrupted.roll() for _ in range(more)]


def test_seeds_and_match_id_change_the_dice() -> None:
    base = list(islice(dice_stream(SEED, MATCH, SEEDS), 64))
    for args in [
        (SEED, MATCH, (SEEDS[1], SEEDS[0])),
        (SEED, MATCH, ("", "")),
        (SEED, "match-0002", SEEDS),
        (bytes(32), MATCH, SEEDS),
    ]:
        assert list(islice(dice_stream(*args), 64)) != base


def test_with_client_seeds() -> None:
    dice = VerifiableDice.new(MATCH)
    assert dice.client_seeds == ("", "")
    seeded = dice.with_client_seeds(*SEEDS)
    assert seeded.commitment == dice.commitment and seeded.client_seeds == SEEDS
    assert seeded.reveal() == dice.reveal() and seeded.match_id == MATCH
    dice.roll()
    with pytest.raises(IllegalActionError, match="after 2 dice"):
        dice.with_client_seeds(*SEEDS)


# ---------------------------------------------------------------- verification


def _match_log(n: int = 40) -> list[Dice]:
    return _rolls(dice_stream(SEED, MATCH, SEEDS), n)


@given(index=st.integers(0, 39), data=st.data())
def test_tampered_roll_is_found(index: int, data: st.DataObject) -> None:
    rolls = _match_log()
    true = rolls[index]
    fake = data.draw(
        st.builds(Dice, st.integers(1, 6), st.integers(1, 6)).filter(lambda d: d != true)
    )
    rolls[index] = fake
    result = verify_rolls(commit(SEED), SEED.hex(), MATCH, SEEDS, rolls)
    assert not result.ok and result.commitment_ok
    assert result.first_bad_roll == index
    assert result.message == (
        f"roll {index} was {fake.d1}-{fake.d2}, the seed gives {true.d1}-{true.d2}"
    )


def test_swapped_dice_are_found() -> None:
    rolls = _match_log()
    index = next(i for i, r in enumerate(rolls) if not r.is_double)
    rolls[index] = Dice(rolls[index].d2, rolls[index].d1)
    assert verify_rolls(commit(SEED), SEED.hex(), MATCH, SEEDS, rolls).first_bad_roll == index


def test_tampered_server_seed_fails_the_commitment() -> None:
    tampered = bytes([SEED[0] ^ 1]) + SEED[1:]
    result = verify_rolls(commit(SEED), tampered.hex(), MATCH, SEEDS, _match_log())
    assert not result.ok and not result.commitment_ok and result.first_bad_roll is None
    assert result.message.startswith("commitment mismatch: sha256 of the revealed server seed is")
    assert commit(tampered) in result.message


def test_wrong_commitment_is_found() -> None:
    wrong = commit(bytes(32))
    result = verify_rolls(wrong, SEED.hex(), MATCH, SEEDS, _match_log())
    assert (result.ok, result.commitment_ok, result.first_bad_roll) == (False, False, None)
    assert wrong in result.message and commit(SEED) in result.message


def test_commitment_and_seed_are_case_insensitive() -> None:
    result = verify_rolls(
        commit(SEED).upper(), f" {SEED.hex().upper()}\n", MATCH, SEEDS, _match_log()
    )
    assert result.ok


@pytest.mark.parametrize("bad", ["", "zz" * 32, SEED.hex()[:-2], SEED.hex() + "00"])
def test_malformed_revealed_seed(bad: str) -> None:
    result = verify_rolls(commit(SEED), bad, MATCH, SEEDS, _match_log())
    assert (result.ok, result.commitment_ok, result.first_bad_roll) == (False, False, None)
    assert result.message.startswith("the revealed server seed is not 64 hex digits")


@pytest.mark.parametrize(
    ("match_id", "seeds"),
    [(MATCH, (SEEDS[0], "bob 43")), (MATCH, ("", SEEDS[1])), (MATCH, SEEDS[::-1]), ("m2", SEEDS)],
)
def test_wrong_client_seed_or_match_id_is_found(match_id: str, seeds: tuple[str, str]) -> None:
    rolls = _match_log()
    other = _rolls(dice_stream(SEED, match_id, seeds), len(rolls))
    expected = next(i for i, (a, b) in enumerate(zip(rolls, other, strict=True)) if a != b)
    result = verify_rolls(commit(SEED), SEED.hex(), match_id, seeds, rolls)
    assert not result.ok and result.commitment_ok
    assert result.first_bad_roll == expected
    assert result.message.startswith(f"roll {expected} was ")


def test_verify_accepts_text_and_pairs() -> None:
    rolls = _match_log(3)
    as_text = [f"{r.d1}{r.d2}" for r in rolls]
    as_pairs = [(r.d1, r.d2) for r in rolls]
    assert verify_rolls(commit(SEED), SEED.hex(), MATCH, SEEDS, as_text).ok
    assert verify_rolls(commit(SEED), SEED.hex(), MATCH, SEEDS, as_pairs).ok
    assert verify_rolls(commit(SEED), SEED.hex(), MATCH, SEEDS, []).ok


# ---------------------------------------------------------------- validation and secrecy


@given(seed_a=client_seed, seed_b=client_seed)
def test_valid_client_seeds_are_accepted(seed_a: str, seed_b: str) -> None:
    assert VerifiableDice(SEED, MATCH, [seed_a, seed_b]).client_seeds == (seed_a, seed_b)


@pytest.mark.parametrize(
    ("seeds", "message"),
    [
        (("a:b", ""), "printable ASCII without ':'"),
        (("", "tab\there"), "printable ASCII"),
        (("é", ""), "printable ASCII"),
        (("", "x" * 129), "129 characters long, the limit is 128"),
        (("", 7), "must be text"),
        (("only one",), "expected two client seeds"),
        (("a", "b", "c"), "expected two client seeds"),
        ("ab", "expected two client seeds"),
    ],
)
def test_bad_client_seeds_are_rejected(seeds: object, message: str) -> None:
    with pytest.raises(InvalidSeedError, match=message):
        VerifiableDice(SEED, MATCH, seeds)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        dice_stream(SEED, MATCH, seeds)  # type: ignore[arg-type]
    with pytest.raises(InvalidSeedError, match=message):
        verify_rolls(commit(SEED), SEED.hex(), MATCH, seeds, [])  # type: ignore[arg-type]


@pytest.mark.parametrize("match_id", ["", "naïve", "line\nbreak", 17])
def test_bad_match_ids_are_rejected(match_id: object) -> None:
    with pytest.raises(InvalidSeedError, match="match id"):
        VerifiableDice(SEED, match_id, SEEDS)  # type: ignore[arg-type]


def test_bad_server_seeds_are_rejected_without_echo() -> None:
    for bad in (SEED[:31], SEED + b"\0", SEED.hex(), bytearray(SEED)):
        with pytest.raises(InvalidSeedError, match="a server seed must be 32 bytes") as info:
            VerifiableDice(bad, MATCH, SEEDS)  # type: ignore[arg-type]
        assert SEED.hex() not in str(info.value) and repr(SEED[:8])[2:-1] not in str(info.value)


@pytest.mark.parametrize("n", [-1, True, 2.0])
def test_bad_dice_drawn_is_rejected(n: object) -> None:
    with pytest.raises(InvalidSeedError, match="dice_drawn"):
        VerifiableDice(SEED, MATCH, SEEDS, dice_drawn=n)  # type: ignore[arg-type]


@given(seed=server_seed, rolls=st.integers(0, 5))
def test_repr_never_shows_the_seed(seed: bytes, rolls: int) -> None:
    dice = VerifiableDice(seed, MATCH, SEEDS)
    for _ in range(rolls):
        dice.roll()
    for text in (repr(dice), str(dice), f"{dice}", f"{dice!r}"):
        assert seed.hex() not in text.lower()
        assert repr(seed) not in text and str(seed) not in text
        assert dice.commitment in text and f"dice_drawn={2 * rolls}" in text
    assert not hasattr(dice, "__dict__")
    public = [getattr(dice, n) for n in dir(dice) if not n.startswith("_")]
    assert not [v for v in public if not callable(v) and seed.hex() in str(v)]


def test_cannot_be_pickled() -> None:
    with pytest.raises(TypeError, match="secret server seed"):
        pickle.dumps(VerifiableDice(SEED, MATCH, SEEDS))


# ---------------------------------------------------------------- fixed dice and the protocol


def test_fixed_dice_replay_and_count() -> None:
    dice = FixedDice([Dice(3, 1), (6, 6), "5-2", "41"])
    assert (dice.used, dice.remaining) == (0, 4)
    assert [dice.roll() for _ in range(4)] == [Dice(3, 1), Dice(6, 6), Dice(5, 2), Dice(4, 1)]
    assert (dice.used, dice.remaining) == (4, 0)
    with pytest.raises(DiceExhaustedError, match="all 4 given rolls were used") as info:
        dice.roll()
    assert isinstance(info.value, GammonError) and info.value.code == "dice_exhausted"
    assert dice.used == 4
    assert dice.rolls == (Dice(3, 1), Dice(6, 6), Dice(5, 2), Dice(4, 1))


def test_fixed_dice_edge_cases() -> None:
    with pytest.raises(DiceExhaustedError, match="all 0 given rolls"):
        FixedDice([]).roll()
    assert FixedDice(r for r in ["11", "22"]).remaining == 2
    with pytest.raises(InvalidNotationError):
        FixedDice(["31", "07"])
    assert repr(FixedDice(["31", "66"])) == "<FixedDice 0/2 used: 3166>"


def test_every_source_is_a_dice_source() -> None:
    for source in (SystemDice(), FixedDice(["31"]), VerifiableDice(SEED, MATCH)):
        assert isinstance(source, DiceSource)
        assert isinstance(source.roll(), Dice)


def test_opening_roll_off_convention() -> None:
    """The roll-off reads d1 for player 0 and d2 for player 1; ties roll again."""

    def roll_off(source: DiceSource) -> tuple[int, Dice]:
        while (roll := source.roll()).is_double:
            pass
        return (0 if roll.d1 > roll.d2 else 1), roll

    source = FixedDice(["33", "55", "26", "61"])
    assert roll_off(source) == (1, Dice(2, 6))
    assert source.used == 3
