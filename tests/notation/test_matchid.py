from __future__ import annotations

import base64
import dataclasses
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import load_json
from gammon import InvalidNotationError, InvalidPositionError, Position
from gammon.notation.matchid import (
    MatchIDRecord,
    decode_match_id,
    encode_match_id,
    format_gnubg_id,
    parse_gnubg_id,
    xgid_to_gnubg_id,
)
from gammon.notation.xgid import format_xgid
from gammon.notation.xgid_record import parse_xgid
from strategies import positions

DATA = load_json("format-vectors.json")
MATCH_VECTORS = DATA["match_id"]
XGID_VECTORS = DATA["xgid"]

# Field names used by tests/data/format-vectors.json -> MatchIDRecord arguments.
# Vectors with "fields" list only what differs from the defaults (which are the
# record's defaults: cube 1 centred, player 0, playing, turn = player on roll,
# Jacoby on); vectors with "decoded" list every field, -1 = centred, [0, 0] = no dice.
_NAMES = {
    "cube": "cube_value",
    "cube_owner": "cube_owner",
    "dice_owner": "player_on_roll",
    "crawford": "crawford",
    "game_state": "game_state",
    "turn": "turn",
    "doubled": "double_offered",
    "resigned": "resignation",
    "dice": "dice",
    "match_len": "match_length",
    "score": "score",
    "jacoby": "jacoby",
}


def _record(fields: dict[str, Any]) -> MatchIDRecord:
    kwargs: dict[str, Any] = {}
    for name, value in fields.items():
        key = _NAMES[name]  # an unknown name in the vectors fails here
        if key == "cube_owner" and value == -1:
            value = None
        elif key == "dice":
            value = None if list(value) == [0, 0] else tuple(value)
        elif key == "score":
            value = tuple(value)
        kwargs[key] = value
    return MatchIDRecord(**kwargs)


def _vector_fields(vector: dict[str, Any]) -> dict[str, Any]:
    fields = vector.get("fields", vector.get("decoded"))
    assert isinstance(fields, dict)
    return fields


def _key_to_id(key: int) -> str:
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def _id_to_key(text: str) -> int:
    return int.from_bytes(base64.b64decode(text), "little")


# ------------------------------------------------------------------ vectors


def test_vector_count() -> None:
    assert len(MATCH_VECTORS) == 13
    assert len(XGID_VECTORS) == 5


@pytest.mark.parametrize(
    "vector", MATCH_VECTORS, ids=[f"{i}-{v['match_id']}" for i, v in enumerate(MATCH_VECTORS)]
)
def test_match_id_vectors(vector: dict[str, Any]) -> None:
    expected = _record(_vector_fields(vector))
    assert decode_match_id(vector["match_id"]) == expected
    assert encode_match_id(expected) == vector["match_id"]
    assert expected.to_match_id() == vector["match_id"]


# formats.md §3.3, "Test vectors"
FORMATS_TABLE = [
    (
        "cAgAAAAAAAAA",
        MatchIDRecord(player_on_roll=1, game_state=0),
    ),
    (
        "cAkAAAAAAAAE",
        MatchIDRecord(player_on_roll=1, jacoby=False),
    ),
    (
        "cIkKAAAAAAAE",
        MatchIDRecord(player_on_roll=1, dice=(5, 2), jacoby=False),
    ),
    (
        "MIEKAAAAAAAE",
        MatchIDRecord(player_on_roll=0, dice=(5, 2), jacoby=False),
    ),
    (
        "UQngADAAEAAE",
        MatchIDRecord(
            match_length=7, score=(3, 2), cube_value=2, cube_owner=1, player_on_roll=1, jacoby=False
        ),
    ),
    (
        "QhGgABAAGAAE",
        MatchIDRecord(
            match_length=5,
            score=(1, 3),
            cube_value=4,
            cube_owner=0,
            player_on_roll=1,
            double_offered=True,
            turn=0,
            jacoby=False,
        ),
    ),
    (
        "sAHnAGAAIAAA",
        MatchIDRecord(match_length=7, score=(6, 4), crawford=True, dice=(6, 1)),
    ),
    (
        "8IhuACAACAAE",
        MatchIDRecord(
            match_length=3,
            score=(2, 1),
            crawford=True,
            player_on_roll=1,
            dice=(5, 3),
            game_state=0,
            jacoby=False,
        ),
    ),
]


@pytest.mark.parametrize(("text", "rec"), FORMATS_TABLE, ids=[t for t, _ in FORMATS_TABLE])
def test_formats_table(text: str, rec: MatchIDRecord) -> None:
    assert decode_match_id(text) == rec
    assert encode_match_id(rec) == text


def test_jacoby_bit_is_bit_66() -> None:
    on = _id_to_key(encode_match_id(MatchIDRecord()))
    off = _id_to_key(encode_match_id(MatchIDRecord(jacoby=False)))
    assert off ^ on == 1 << 66


def test_larger_die_is_written_first() -> None:
    assert encode_match_id(MatchIDRecord(dice=(2, 5))) == encode_match_id(
        MatchIDRecord(dice=(5, 2))
    )
    key = _id_to_key(encode_match_id(MatchIDRecord(dice=(1, 6))))
    assert (key >> 15) & 7 == 6
    assert (key >> 18) & 7 == 1
    # an ID with the smaller die first is read, and re-encoded in gnubg's order
    swapped = _key_to_id(_id_to_key("cIkKAAAAAAAE") & ~(0x3F << 15) | (2 << 15) | (5 << 18))
    assert swapped != "cIkKAAAAAAAE"
    assert decode_match_id(swapped).dice == (5, 2)
    assert encode_match_id(decode_match_id(swapped)) == "cIkKAAAAAAAE"


# ------------------------------------------------------------------ gnubg IDs and XGIDs

# formats.md §3.4: gnubg's gnubgid() after setgnubgid(xgid)
XGID_TABLE = [
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "4HPwATDgc/ABMA:cAkAAAAAAAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "4HPwATDgc/ABMA:cIkKAAAAAAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:-1:52:0:0:0:0:10", "4HPwATDgc/ABMA:MIEKAAAAAAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:3:0:7:10", "4HPwATDgc/ABMA:UQngADAAEAAE"),
    ("XGID=-BDB-------------a------e-:1:-1:-1:42:0:0:0:5:8", "ewMAAD4gAAAAAA:AQGqAAAAAAAE"),
]


@pytest.mark.parametrize(("xgid", "gnubg_id"), XGID_TABLE, ids=[x for x, _ in XGID_TABLE])
def test_xgid_table(xgid: str, gnubg_id: str) -> None:
    assert xgid_to_gnubg_id(xgid) == gnubg_id


#: What Debian's GNU Backgammon 1.07.001 shows after ``set xgid <XGID>`` (measured; the
#: oracle test tests/oracle/test_gnubg_mat.py checks it again where gnubg is installed).
#: It seats the player on roll as player 1: when the top player is on roll (turn -1) the
#: seats are swapped against XGID_TABLE (bit 6, the cube owner and the scores).
GNUBG_107_SET_XGID = [
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "4HPwATDgc/ABMA:cIkKAAAAAAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:-1:52:0:0:0:0:10", "4HPwATDgc/ABMA:cIkKAAAAAAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10", "4HPwATDgc/ABMA:cAkAAAAAAAAE"),
    ("XGID=-BDB-------------a------e-:1:-1:-1:42:0:0:0:5:8", "ewMAAD4gAAAAAA:UQmqAAAAAAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:1:1:-1:00:2:3:0:7:10", "4HPwATDgc/ABMA:QQngACAAGAAE"),
]


@pytest.mark.parametrize(
    ("xgid", "gnubg_id"), GNUBG_107_SET_XGID, ids=[x for x, _ in GNUBG_107_SET_XGID]
)
def test_xgid_seat_on_roll_is_gnubg_107(xgid: str, gnubg_id: str) -> None:
    assert xgid_to_gnubg_id(xgid, seat_on_roll=True) == gnubg_id
    fixed = xgid_to_gnubg_id(xgid)
    assert fixed[:14] == gnubg_id[:14]  # the same Position ID
    assert (fixed == gnubg_id) == (xgid.split(":")[3] == "1")  # seats differ on turn -1
    _, rec = parse_gnubg_id(xgid_to_gnubg_id(xgid, seat_on_roll=True))
    assert rec.player_on_roll == 1


@pytest.mark.parametrize("vector", XGID_VECTORS, ids=[v["xgid"] for v in XGID_VECTORS])
def test_xgid_vectors(vector: dict[str, Any]) -> None:
    gnubg_id = vector["gnubgid_from_gnubg"]
    assert xgid_to_gnubg_id(vector["xgid"]) == gnubg_id
    position, rec = parse_gnubg_id(gnubg_id)
    assert position == Position.from_board(vector["sage26_on_roll_view"])
    assert format_gnubg_id(position, rec) == gnubg_id
    info = vector["info"]
    bottom_on_roll = info["turn"] == 1
    assert rec.player_on_roll == rec.turn == (1 if bottom_on_roll else 0)
    assert rec.cube_value == info["cube"]
    assert rec.cube_owner == {0: None, 1: 1, -1: 0}[info["cube_pos"]]
    assert rec.score == (info["score_top"], info["score_bottom"])
    assert rec.match_length == info["match_len"]
    assert rec.game_state == 1
    dice = None if info["dice"] == "00" else tuple(sorted(map(int, info["dice"]), reverse=True))
    assert rec.dice == dice


def test_max_cube_is_lost() -> None:
    # the last vector has max cube 2**8; a gnubg ID has no such field
    xgid = "XGID=-BDB-------------a------e-:1:-1:-1:42:0:0:0:5:8"
    assert parse_xgid(xgid).max_cube == 256
    assert xgid_to_gnubg_id(xgid) == xgid_to_gnubg_id(xgid.removesuffix(":8") + ":10")


def test_xgid_rules_field() -> None:
    board = "XGID=-b----E-C---eE---c-e----B-"
    # money: bit 0 of the rules is Jacoby, bit 1 (beaver) is lost
    assert xgid_to_gnubg_id(board + ":0:0:1:00:0:0:1:0:10").endswith(":cAkAAAAAAAAA")
    assert xgid_to_gnubg_id(board + ":0:0:1:00:0:0:3:0:10").endswith(":cAkAAAAAAAAA")
    assert xgid_to_gnubg_id(board + ":0:0:1:00:0:0:2:0:10").endswith(":cAkAAAAAAAAE")
    # match: 1 = Crawford game, and the Jacoby rule is off
    _, rec = parse_gnubg_id(xgid_to_gnubg_id(board + ":0:0:-1:61:6:4:1:7:10"))
    assert rec == MatchIDRecord(
        match_length=7, score=(4, 6), crawford=True, dice=(6, 1), jacoby=False
    )
    # dice written smaller first
    assert xgid_to_gnubg_id(board + ":0:0:1:25:0:0:0:0:10") == XGID_TABLE[1][1]


@pytest.mark.parametrize("dice", ["D", "B", "R"])
def test_xgid_pending_double_is_refused(dice: str) -> None:
    xgid = f"XGID=-b----E-C---eE---c-e----B-:1:0:1:{dice}:0:0:0:7:10"
    with pytest.raises(InvalidNotationError, match=re.escape(repr(xgid))):
        xgid_to_gnubg_id(xgid)


def test_xgid_malformed() -> None:
    with pytest.raises(InvalidNotationError, match="expected 10 fields"):
        xgid_to_gnubg_id("XGID=-b----E-C---eE---c-e----B-:0:0:1")


def test_player_numbering() -> None:
    # The second block of the Position ID belongs to the player on roll (bit 6).
    xgid = "XGID=-BDB-------------a------e-:1:-1:-1:42:0:0:0:5:8"
    position, rec = parse_gnubg_id(xgid_to_gnubg_id(xgid))
    assert rec.player_on_roll == 0  # the top player
    assert position == parse_xgid(xgid).position
    # the side on roll has 5 on its 1-point and 1 on its 8-point (XGID 'e' and 'a')
    assert position.player[1] == 5 and position.player[8] == 1
    assert position.opponent[1:4] == (2, 4, 2)


# ------------------------------------------------------------------ malformed input


def _bad(**fields: int) -> str:
    """cAkAAAAAAAAE with some fields overwritten: name=(offset, width, value)."""
    layout = {
        "owner": (4, 2),
        "state": (8, 3),
        "die1": (15, 3),
        "die2": (18, 3),
    }
    key = _id_to_key("cAkAAAAAAAAE")
    for name, value in fields.items():
        offset, width = layout[name]
        key = key & ~(((1 << width) - 1) << offset) | value << offset
    return _key_to_id(key)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected 12 characters"),
        ("cAkAAAAAAAA", "expected 12 characters"),
        ("cAkAAAAAAAAEA", "expected 12 characters"),
        ("cAkAAAAAAA==", "expected 12 characters"),
        ("cAkAAAAAAAA-", "expected 12 characters"),
        ("cAkAAAAAAAA E", "expected 12 characters"),
        ("cAkAAAAAAAAé", "expected 12 characters"),
        *[(_key_to_id(_id_to_key("cAkAAAAAAAAE") | 1 << b), "bits 67..71") for b in range(67, 72)],
        (_bad(owner=2), "cube owner 2"),
        (_bad(state=5), "game state 5"),
        (_bad(state=7), "game state 7"),
        (_bad(die1=7, die2=1), "dice 7-1"),
        (_bad(die1=3, die2=0), "dice 3-0"),
        (_bad(die1=0, die2=4), "dice 0-4"),
        (_bad(die1=6, die2=7), "dice 6-7"),
    ],
)
def test_malformed_match_ids(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message) as info:
        decode_match_id(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("text", [None, 42, b"cAkAAAAAAAAE"])
def test_match_id_not_text(text: object) -> None:
    with pytest.raises(InvalidNotationError, match=re.escape(repr(text))):
        decode_match_id(text)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cube_value": 3}, "cube value 3"),
        ({"cube_value": 0}, "cube value 0"),
        ({"cube_value": 1 << 16}, "cube value 65536"),
        ({"cube_value": True}, "cube value True"),
        ({"cube_owner": 2}, "cube owner 2"),
        ({"cube_owner": -1}, "cube owner -1"),
        ({"cube_owner": 3}, "cube owner 3"),
        ({"player_on_roll": 2}, "player on roll 2"),
        ({"turn": -1}, "turn -1"),
        ({"crawford": 1}, "crawford 1"),
        ({"game_state": 5}, "game state 5"),
        ({"resignation": 4}, "resignation 4"),
        ({"dice": (0, 3)}, r"dice \(0, 3\)"),
        ({"dice": (7, 1)}, r"dice \(7, 1\)"),
        ({"dice": (1, 2, 3)}, r"dice \(1, 2, 3\)"),
        ({"dice": "52"}, "dice '52'"),
        ({"match_length": -1}, "match length -1"),
        ({"match_length": 32768}, "match length 32768"),
        ({"score": (32768, 0)}, r"score \(32768, 0\)"),
        ({"score": (1,)}, r"score \(1,\)"),
        ({"double_offered": None}, "double offered None"),
        ({"jacoby": "yes"}, "jacoby 'yes'"),
    ],
)
def test_invalid_records(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message):
        MatchIDRecord(**kwargs)


def test_record_defaults_and_normalisation() -> None:
    rec = MatchIDRecord(player_on_roll=1, dice=[1, 4], score=[2, 3])  # type: ignore[arg-type]
    assert rec.turn == 1 and rec.dice == (4, 1) and rec.score == (2, 3)
    assert rec.game_state_name == "playing" and rec.is_money
    assert MatchIDRecord(game_state=4).game_state_name == "dropped"
    with pytest.raises(dataclasses.FrozenInstanceError):
        rec.turn = 0  # type: ignore[misc]
    assert dataclasses.replace(rec, turn=0).turn == 0
    assert hash(rec) == hash(MatchIDRecord(player_on_roll=1, dice=(4, 1), score=(2, 3)))


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("4HPwATDgc/ABMA", InvalidNotationError, "expected PositionID:MatchID"),
        ("4HPwATDgc/ABMA:cAkA:AAAAAAAE", InvalidNotationError, "expected PositionID:MatchID"),
        ("4HPwATDgc/ABM:cAkAAAAAAAAE", InvalidNotationError, "invalid Position ID"),
        ("4HPwATDgc/ABMA:cAkAAAAAAAA", InvalidNotationError, "invalid Match ID"),
        ("4HPwATDgc/ABMA:cAkAAAAAAAAM", InvalidNotationError, "bits 67..71"),
        ("//8AAAAAAAAAAA:cAkAAAAAAAAE", InvalidPositionError, "16 checkers"),
    ],
)
def test_malformed_gnubg_ids(text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message) as info:
        parse_gnubg_id(text)
    assert repr(text) in str(info.value)


def test_gnubg_id_not_text() -> None:
    with pytest.raises(InvalidNotationError, match="None: expected text"):
        parse_gnubg_id(None)  # type: ignore[arg-type]


def test_gnubg_id_whitespace_and_variant() -> None:
    position, rec = parse_gnubg_id("  4HPwATDgc/ABMA:cAkAAAAAAAAE\n")
    assert position == Position.initial() and rec.player_on_roll == 1
    hyper, _ = parse_gnubg_id("AACgAgAAKgAAAA:cAkAAAAAAAAE", "hypergammon")
    assert hyper == Position.initial("hypergammon")


# ------------------------------------------------------------------ properties

records = st.builds(
    MatchIDRecord,
    cube_value=st.integers(0, 15).map(lambda n: 1 << n),
    cube_owner=st.sampled_from([None, 0, 1]),
    player_on_roll=st.integers(0, 1),
    crawford=st.booleans(),
    game_state=st.integers(0, 4),
    turn=st.integers(0, 1),
    double_offered=st.booleans(),
    resignation=st.integers(0, 3),
    dice=st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)),
    match_length=st.integers(0, 32767),
    score=st.tuples(st.integers(0, 32767), st.integers(0, 32767)),
    jacoby=st.booleans(),
)


@given(records)
def test_round_trip(rec: MatchIDRecord) -> None:
    text = encode_match_id(rec)
    assert re.fullmatch(r"[A-Za-z0-9+/]{12}", text)
    assert decode_match_id(text) == rec
    assert (_id_to_key(text) >> 67) == 0


_WIDTHS = (4, 2, 1, 1, 3, 1, 1, 2, 3, 3, 15, 15, 15, 1)  # fields of bits 0..66, in order


@st.composite
def keys(draw: st.DrawFn) -> int:
    """72-bit keys, field by field, so that both valid and invalid ones are common."""
    key = offset = 0
    for width in _WIDTHS:
        key |= draw(st.integers(0, (1 << width) - 1)) << offset
        offset += width
    unused = draw(st.one_of(st.just(0), st.integers(0, 31)))
    return key | unused << 67


@given(keys() | st.integers(0, (1 << 72) - 1))
def test_any_key_decodes_or_is_rejected(key: int) -> None:
    text = _key_to_id(key)
    owner, state = (key >> 4) & 3, (key >> 8) & 7
    d1, d2 = (key >> 15) & 7, (key >> 18) & 7
    valid = (
        key >> 67 == 0
        and owner != 2
        and state <= 4
        and d1 <= 6
        and d2 <= 6
        and (d1 == 0) == (d2 == 0)
    )
    if not valid:
        with pytest.raises(InvalidNotationError, match=re.escape(repr(text))):
            decode_match_id(text)
        return
    canonical = key & ~(0x3F << 15) | max(d1, d2) << 15 | min(d1, d2) << 18
    assert _id_to_key(encode_match_id(decode_match_id(text))) == canonical


@given(positions("standard"), records)
def test_gnubg_id_round_trip(position: Position, rec: MatchIDRecord) -> None:
    text = format_gnubg_id(position, rec)
    assert parse_gnubg_id(text) == (position, rec)


@given(
    positions("standard"),
    st.sampled_from([1, -1]),
    st.integers(0, 10),
    st.sampled_from([0, 1, -1]),
    st.sampled_from(["00"] + [f"{a}{b}" for a in range(1, 7) for b in range(1, 7)]),
    st.integers(0, 25),
    st.integers(0, 25),
    st.integers(0, 3),
    st.integers(0, 25),
)
def test_xgid_conversion_is_consistent(
    position: Position,
    turn: int,
    cube_log: int,
    owner: int,
    dice: str,
    score_bottom: int,
    score_top: int,
    rules: int,
    length: int,
) -> None:
    xgid = format_xgid(
        position,
        turn=turn,
        cube_value=1 << cube_log,
        cube_owner=owner,
        dice=dice,
        score_bottom=score_bottom,
        score_top=score_top,
        rules=rules,
        match_length=length,
    )
    got_position, rec = parse_gnubg_id(xgid_to_gnubg_id(xgid))
    assert got_position == position
    bottom = 1 if turn == 1 else 0
    assert rec.player_on_roll == rec.turn == bottom
    assert rec.cube_value == 1 << cube_log
    assert rec.cube_owner == {0: None, 1: 1, -1: 0}[owner]
    assert rec.score == (score_top, score_bottom)
    assert rec.match_length == length
    assert rec.crawford == (length > 0 and bool(rules & 1))
    assert rec.jacoby == (length == 0 and bool(rules & 1))
    assert rec.dice == (None if dice == "00" else (max(map(int, dice)), min(map(int, dice))))
    assert (rec.game_state, rec.double_offered, rec.resignation) == (1, False, 0)
