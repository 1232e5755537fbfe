"""The WebSocket protocol (docs/protocol.md): its version, error codes and message parsing.

Client messages are checked here completely, before anything else sees them:
anything malformed raises :class:`ServerError` with a stable ``code``.

>>> parse_client_message('{"type": "move", "move": "8/5 6/5", "id": 7}', 4096)
ClientMessage(type='move', id=7, fields={'move': '8/5 6/5'})
>>> parse_client_message('{"type": "roll", "dice": "66"}', 4096)
Traceback (most recent call last):
...
gammon.server.protocol.ServerError: the server rolls the dice: a roll message has no dice
>>> error_code(ServerError("stale", "version 3 is not the current version 4"))
'stale'
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from gammon import __version__
from gammon.errors import GammonError
from gammon.match.actions import ACTIONS, ActionField, ActionSpec

__all__ = [
    "ACTION_TYPES",
    "CHAT_MAX",
    "CLIENT_MESSAGES",
    "HTTP_STATUS",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "SERVER_NAME",
    "ClientMessage",
    "MessageSpec",
    "ServerError",
    "clean_chat",
    "error_code",
    "http_status",
    "loads_text",
    "parse_client_message",
]

#: The protocol version (docs/protocol.md).  Bump it for any incompatible change.
PROTOCOL_VERSION: Final = 1
SERVER_NAME: Final = f"gammon {__version__}"
#: Longest chat message, in characters.
CHAT_MAX: Final = 500
#: Game actions a player may send (``timeout`` is the server's alone): from the registry.
ACTION_TYPES: Final = frozenset(name for name, spec in ACTIONS.items() if spec.client)
#: The messages the server sends (docs/protocol.md, "Server to client").
SERVER_MESSAGES: Final = (
    "welcome",
    "event",
    "state",
    "presence",
    "ack",
    "steps",
    "hint",
    "history",
    "pong",
    "error",
)

#: The HTTP status of each error code (docs/protocol.md, "Error codes").
HTTP_STATUS: Final[dict[str, int]] = {
    "bad_json": 400,
    "bad_message": 400,
    "too_large": 413,
    "rate_limited": 429,
    "hello_required": 400,
    "protocol_version": 400,
    "not_found": 404,
    "auth_required": 401,
    "not_seated": 403,
    "forbidden": 403,
    "csrf": 403,
    "stale": 409,
    "not_started": 409,
    "not_finished": 409,
    "table_finished": 409,
    "seat_taken": 409,
    "seat_reserved": 409,
    "already_seated": 409,
    "insufficient_balance": 409,
    "seeds_locked": 409,
    "conflict": 503,
    "illegal_action": 409,
    "illegal_move": 409,
    "ambiguous_move": 409,
    "invalid_notation": 400,
    "invalid_options": 400,
    "invalid_seed": 400,
    "invalid_position": 400,
    "invalid_username": 400,
    "weak_password": 400,
    "username_taken": 409,
    "bad_credentials": 401,
    "not_available": 404,
    "hint_refused": 403,
    "busy": 409,
    "not_analysed": 409,
    "chat_closed": 403,
    "muted": 403,
    "banned": 403,
    "internal": 500,
}


class ServerError(GammonError):
    """A refused request: ``code`` is one of docs/protocol.md's error codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        #: The ``id`` of the client message refused, when it could be read.
        self.msg_id: str | int | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt with its code when it crosses from a worker process
        return (type(self), (self.code, str(self)), {"msg_id": self.msg_id})


def error_code(exc: BaseException) -> str:
    """The protocol error code of an exception (``internal`` for anything unexpected)."""
    if isinstance(exc, GammonError):
        return exc.code
    return "internal"


def http_status(code: str) -> int:
    """The HTTP status for an error code."""
    return HTTP_STATUS.get(code, 400)


@dataclass(frozen=True, slots=True)
class ClientMessage:
    """A checked client message: its type, its ``id`` (echoed back) and its other fields."""

    type: str
    id: str | int | None
    fields: dict[str, Any]


def _bad(message: str) -> ServerError:
    return ServerError("bad_message", message[:300])


def _int(name: str, low: int, high: int) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if type(value) is not int or not low <= value <= high:
            raise _bad(f"{name} must be an integer from {low} to {high}")
        return value

    return check


def _optional_int(name: str, low: int, high: int) -> Callable[[Any], Any]:
    inner = _int(name, low, high)

    def check(value: Any) -> Any:
        return None if value is None else inner(value)

    return check


def _text(name: str, longest: int) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if not isinstance(value, str) or len(value) > longest:
            raise _bad(f"{name} must be text of at most {longest} characters")
        return value

    return check


def _played(value: Any) -> Any:
    if not isinstance(value, list) or len(value) > 6:
        raise _bad("played must be a list of at most 6 steps [from, to, die]")
    steps = []
    for step in value:
        if (
            not isinstance(step, list)
            or len(step) != 3
            or any(type(v) is not int for v in step)
            or not (0 <= step[0] <= 25 and 0 <= step[1] <= 25 and 1 <= step[2] <= 6)
        ):
            raise _bad("each played step is [from 0..25, to 0..25, die 1..6]")
        steps.append((step[0], step[1], step[2]))
    return steps


_VERSION = _int("version", 0, 2**31)
_PLAYER = _int("player", 0, 1)
_MAX_INT: Final = 2**53


@dataclass(frozen=True, slots=True)
class MessageSpec:
    """A client message type: each field's check, and the fields it must have."""

    fields: Mapping[str, Callable[[Any], Any]]
    required: tuple[str, ...] = ()


def _action_field(field: ActionField) -> Callable[[Any], Any]:
    if field.kind == "int":
        return _int(field.name, field.low, field.high)
    return _text(field.name, field.longest)


def _action_message(spec: ActionSpec) -> MessageSpec:
    """An action's message: its fields the client gives, ``version`` and ``player``."""
    given = [f for f in spec.fields if f.from_client]
    checks = {f.name: _action_field(f) for f in given}
    return MessageSpec(
        {**checks, "version": _VERSION, "player": _PLAYER}, tuple(f.name for f in given)
    )


#: The registry of client messages (docs/protocol.md, "Client to server"): the
#: table's own messages, then every action a player may send (from ``ACTIONS``).
CLIENT_MESSAGES: Final[Mapping[str, MessageSpec]] = MappingProxyType(
    {
        "hello": MessageSpec(
            {
                "protocol": _int("protocol", 0, 2**31),
                "last_version": _optional_int("last_version", 0, 2**31),
                "client_seed": _text("client_seed", 1000),
            },
            ("protocol",),
        ),
        "ping": MessageSpec({}),
        "client_seed": MessageSpec({"seed": _text("seed", 1000)}, ("seed",)),
        "steps": MessageSpec({"played": _played}, ("played",)),
        "hint": MessageSpec({}),
        "history": MessageSpec({"game": _int("game", 1, 2**31)}, ("game",)),
        "chat": MessageSpec({"text": _text("text", 4 * CHAT_MAX)}, ("text",)),
        "sit": MessageSpec({"seat": _int("seat", 0, 1)}, ("seat",)),
        "leave": MessageSpec({}),
        **{name: _action_message(spec) for name, spec in ACTIONS.items() if spec.client},
    }
)
#: What the server fills in itself, per action: a client sending it is ``forbidden``.
_SERVER_FIELDS: Final[Mapping[str, frozenset[str]]] = MappingProxyType(
    {
        name: frozenset(f.name for f in spec.fields if not f.from_client)
        for name, spec in ACTIONS.items()
    }
)


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def loads_text(raw: str | bytes) -> Any:
    r"""``json.loads`` that also refuses text no UTF-8 can hold (a lone UTF-16 surrogate,
    written ``\ud800`` in JSON): such a string could be neither stored nor sent.

    >>> loads_text('{"text": "\\ud83c\\udfb2"}')
    {'text': '🎲'}
    >>> loads_text('{"text": "\\ud800"}')
    Traceback (most recent call last):
    ...
    ValueError: a JSON string holds a lone UTF-16 surrogate
    """
    data = json.loads(raw)
    escaped = "\\u" in raw if isinstance(raw, str) else b"\\u" in raw
    if escaped and _SURROGATE.search(json.dumps(data, ensure_ascii=False)):
        raise ValueError("a JSON string holds a lone UTF-16 surrogate")
    return data


def parse_client_message(raw: str | bytes, max_bytes: int) -> ClientMessage:
    """Check one client message; raise :class:`ServerError` if it is not acceptable.

    The error carries the message's ``id`` (``ServerError.msg_id``) when it could be read.
    """
    if isinstance(raw, bytes):
        raise ServerError("bad_json", "binary frames are not accepted: send JSON text")
    if len(raw) > max_bytes or len(raw.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ServerError("too_large", f"a message may be at most {max_bytes} bytes")
    if _SURROGATE.search(raw):  # a frame's text is UTF-8 on the wire; be safe anyway
        raise ServerError("bad_json", "the message is not valid UTF-8 text")
    try:
        data = loads_text(raw)
    except (ValueError, RecursionError) as exc:
        detail = "holds a lone UTF-16 surrogate" if "surrogate" in str(exc) else "is not valid JSON"
        raise ServerError("bad_json", f"the message {detail}") from None
    if not isinstance(data, dict):
        raise ServerError("bad_json", "a message is a JSON object")
    msg_id = data.get("id")
    if msg_id is not None and not (
        (isinstance(msg_id, str) and len(msg_id) <= 64)
        or (type(msg_id) is int and -_MAX_INT <= msg_id <= _MAX_INT)
    ):
        raise _bad("id must be text of at most 64 characters or an integer")
    try:
        return _check(data, msg_id)
    except ServerError as exc:
        exc.msg_id = msg_id
        raise


def _check(data: dict[str, Any], msg_id: str | int | None) -> ClientMessage:
    kind = data.get("type")
    spec = CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
    if spec is None:
        if isinstance(kind, str) and kind in ACTIONS:  # an action only the server submits
            raise ServerError("forbidden", f"only the server's clock submits a {kind}")
        shown = kind if isinstance(kind, str) else type(kind).__name__
        raise _bad(f"unknown message type {shown[:40]!r}")
    assert isinstance(kind, str)
    if _SERVER_FIELDS.get(kind, frozenset()) & data.keys():
        raise ServerError("forbidden", "the server rolls the dice: a roll message has no dice")
    fields: dict[str, Any] = {}
    for name, value in data.items():
        if name in ("type", "id"):
            continue
        check = spec.fields.get(name)
        if check is None:
            if kind == "hello":
                continue  # hello may carry fields of later protocol versions
            raise _bad(f"unexpected field {str(name)[:40]!r} in a {kind} message")
        fields[name] = check(value)
    for name in spec.required:
        if name not in fields:
            raise _bad(f"a {kind} message needs {name}")
    return ClientMessage(kind, msg_id, fields)


def clean_chat(text: str) -> str:
    """Chat text as stored: control characters removed, spaces trimmed, at most CHAT_MAX.

    >>> clean_chat("  gl\\x00 hf\\n ")
    'gl hf'
    """
    cleaned = "".join(
        " " if c in "\t\n\r" else c
        for c in text
        if unicodedata.category(c) != "Cc" or c in "\t\n\r"
    ).strip()
    if not cleaned:
        raise _bad("chat text is empty")
    if len(cleaned) > CHAT_MAX:
        raise _bad(f"chat text may be at most {CHAT_MAX} characters")
    return cleaned
