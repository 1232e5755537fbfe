"""Table options: every setting of the seeds, validated when built.

>>> TableOptions(match_length=7).is_match
True
>>> TableOptions(match_length=7, beaver=True)
Traceback (most recent call last):
...
gammon.errors.InvalidOptionsError: beaver is a money-play option; it is refused in a 7-point match
>>> TableOptions(stake=10, cube_limit=8, end_setting="mars").required_balance()
160

Greek tavli is a rotation: portes, plakoto and fevga in turn, the winner of a game
starting the next one unless the table says otherwise:

>>> tavli = TableOptions(variant="tavli", match_length=5, cube=False)
>>> tavli.game_variant(2).name, tavli.first_move, tavli.end_coefficient
('plakoto', 'winner', 2)
>>> TableOptions(variant="tavli", match_length=5, cube=False, first_move="rolloff").first_move
'rolloff'

After the one-die roll-off its winner plays those two numbers (``opening`` ``play``,
today's backgammon) or rolls both dice again (``reroll``: the older rules, and the
custom of the Greek games, so a first move may be a double).  By default the variant
says:

>>> TableOptions().opening, tavli.opening, TableOptions(opening="reroll").game_opening(1)
('play', 'reroll', 'reroll')

Visitors (signed in, not seated) may chat at a casual table; at a rated or staked one they
may not unless the table says so, since a kibitzer could coach a player there:

>>> TableOptions(match_length=5).spectator_chat, TableOptions(match_length=5, rated=True).spectator_chat
(True, False)
>>> TableOptions(stake=5, cube_limit=8).spectator_chat, TableOptions(rated=True, match_length=3, spectator_chat=True).spectator_chat
(False, True)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Final, Literal, get_args

from gammon.errors import InvalidOptionsError
from gammon.variants import ROTATIONS, VARIANTS, Opening, Variant, game_variant, rotation

__all__ = [
    "BOOLEAN_OPTIONS",
    "CORRESPONDENCE_MAX_DELAY",
    "CUBE_LIMITS",
    "END_COEFFICIENTS",
    "MAX_CUBE",
    "MAX_STAKE",
    "ClockSettings",
    "EndSetting",
    "FirstMove",
    "TableOptions",
    "boolean_fields",
]

#: Oin / Mars / Cox (seed 004): the largest result a game can score under each setting.
EndSetting = Literal["oin", "mars", "cox"]
#: Who starts games 2, 3, ... of a series: a one-die roll-off each time (standard), the
#: loser of the previous game, the players in turn (seed 004, rules.md D13), or the
#: winner of the previous game (Greek tavli's custom).
FirstMove = Literal["rolloff", "loser", "alternate", "winner"]

END_COEFFICIENTS: Final[dict[str, int]] = {"oin": 1, "mars": 2, "cox": 3}
#: The cube limits a table may choose ("Cube Davé").
CUBE_LIMITS: Final = (2, 4, 8, 16, 32, 64)
#: Without a table limit the cube stops here (gnubg's MAX_CUBE).
MAX_CUBE: Final = 4096
#: The largest stake per point: with the largest cube (4096) and a backgammon a game
#: moves at most 3 x 4096 x 10**6 units, far inside a 64-bit balance.
MAX_STAKE: Final = 1_000_000


#: The longest delay per move of a correspondence clock: 7 days, in seconds.
CORRESPONDENCE_MAX_DELAY: Final = 7 * 86400


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """A clock per player: a delay for each move, then a reserve that is used up.

    The reserve is ``reserve_base + reserve_per_point * match_length`` seconds (money
    sessions use the base alone).  Stored here; the server enforces it and submits a
    ``Timeout`` action when a reserve runs out.
    """

    delay: float = 12.0
    reserve_base: float = 60.0
    reserve_per_point: float = 60.0
    #: Correspondence play (docs/notifications.md): days per move, no reserve; the
    #: delay may then be up to :data:`CORRESPONDENCE_MAX_DELAY` seconds (7 days).
    correspondence: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.correspondence, bool):
            raise InvalidOptionsError("clock correspondence must be true or false")
        for name in ("delay", "reserve_base", "reserve_per_point"):
            value = getattr(self, name)
            top = CORRESPONDENCE_MAX_DELAY if self.correspondence and name == "delay" else 86400
            if (
                not isinstance(value, int | float)
                or isinstance(value, bool)
                or not 0 <= value <= top
            ):
                raise InvalidOptionsError(f"clock {name} must be 0..{top} seconds, got {value!r}")
        if self.correspondence and (self.reserve_base or self.reserve_per_point):
            raise InvalidOptionsError("a correspondence clock has no reserve")

    def reserve(self, match_length: int) -> float:
        """The starting reserve, in seconds, for a match of this length (0 = money)."""
        return self.reserve_base + self.reserve_per_point * match_length


@dataclass(frozen=True, slots=True)
class TableOptions:
    """Every option of a table.  Invalid combinations raise :class:`InvalidOptionsError`."""

    #: A variant (:data:`gammon.variants.VARIANTS`) or a rotation of them, one per game
    #: (:data:`gammon.variants.ROTATIONS`: ``tavli``).
    variant: str = "standard"
    #: Points to win the match; 0 is a money session (games until the players leave).
    match_length: int = 0
    #: Money sessions: stake units per point (0 = play for nothing).
    stake: int = 0
    #: Whether the doubling cube is used.
    cube: bool = True
    #: The highest cube value (2, 4, ..., 64), or None for no table limit.
    cube_limit: int | None = None
    #: Matches: the Crawford rule (no cube in the game after a player first reaches N-1);
    #: always False without a cube (there is no Crawford game then).
    crawford: bool = True
    #: Money: gammons count single while the cube is centred.
    jacoby: bool = False
    #: Money: the doubled player may redouble at once and keep the cube.
    beaver: bool = False
    #: Money: after a beaver, the doubler may redouble again at once.
    raccoon: bool = False
    #: Money: how many times an opening tie doubles the cube (0 = off).
    automatic_doubles: int = 0
    end_setting: EndSetting = "cox"
    #: The player who started second gets a last roll that can draw the game.
    draw_last_roll: bool = False
    #: None (the default) is the variant's custom: ``winner`` for tavli, else ``rolloff``;
    #: the options always hold the resolved value.
    first_move: FirstMove | None = None
    #: What the winner of a game's one-die roll-off does: plays the two dice rolled
    #: (``play``) or rolls both dice again for the first turn (``reroll``; the first
    #: move may then be a double).  None (the default) is the variant's custom:
    #: ``reroll`` for the Greek games (tavli's three too), long nardy, jacquet and
    #: acey-deucey, else ``play``; the options hold the resolved value (None stays
    #: only for a rotation whose variants differ, each game then following its own).
    opening: Opening | None = None
    clock: ClockSettings | None = None
    #: A rated match (docs/ratings.md): a match of at least 1 point between two
    #: signed-in accounts; money sessions are never rated.
    rated: bool = False
    #: Whether visitors (signed in, not seated) may write in the table's chat.  None (the
    #: default) is the table's kind: on at a casual table, off at a rated or staked one (a
    #: kibitzer could coach a player there, as a hint would); the options always hold the
    #: resolved value.
    spectator_chat: bool | None = None

    def __post_init__(self) -> None:
        def need(cond: bool, message: str) -> None:
            if not cond:
                raise InvalidOptionsError(message)

        need(
            self.variant in VARIANTS or self.variant in ROTATIONS,
            f"unknown variant {self.variant!r}; known: {', '.join(sorted([*VARIANTS, *ROTATIONS]))}",
        )
        if self.first_move is None:
            custom = "winner" if self.variant in ROTATIONS else "rolloff"
            object.__setattr__(self, "first_move", custom)
        if self.opening is None:
            customs = {v.opening for v in rotation(self.variant)}
            if len(customs) == 1:
                object.__setattr__(self, "opening", customs.pop())
        if self.cube is False:  # no cube, no Crawford game (rules.md, docs/rules.md)
            object.__setattr__(self, "crawford", False)
        if self.spectator_chat is None:
            casual = not (self.rated is True or (type(self.stake) is int and self.stake > 0))
            object.__setattr__(self, "spectator_chat", casual)
        for name in ("match_length", "stake", "automatic_doubles"):
            value = getattr(self, name)
            need(
                type(value) is int and value >= 0,
                f"{name} must be a non-negative integer, got {value!r}",
            )
        need(
            self.match_length <= 255, f"match_length {self.match_length} is too long (at most 255)"
        )
        need(self.stake <= MAX_STAKE, f"stake {self.stake} is too large (at most {MAX_STAKE})")
        for name in (*BOOLEAN_OPTIONS, "spectator_chat"):
            need(type(getattr(self, name)) is bool, f"{name} must be true or false")
        need(
            self.end_setting in get_args(EndSetting),
            f"end_setting must be oin, mars or cox, got {self.end_setting!r}",
        )
        need(
            self.first_move in get_args(FirstMove),
            f"first_move must be rolloff, loser, alternate or winner, got {self.first_move!r}",
        )
        need(
            self.opening is None or self.opening in get_args(Opening),
            f"opening must be play or reroll, got {self.opening!r}",
        )
        need(
            self.cube_limit is None
            or (type(self.cube_limit) is int and self.cube_limit in CUBE_LIMITS),
            f"cube_limit must be one of {', '.join(map(str, CUBE_LIMITS))} or none, got {self.cube_limit!r}",
        )
        need(
            self.clock is None or isinstance(self.clock, ClockSettings),
            "clock must be ClockSettings or none",
        )
        if self.cube and not all(v.cube for v in rotation(self.variant)):
            raise InvalidOptionsError(f"the {self.variant} variant is played without a cube")
        if not self.cube:
            need(self.cube_limit is None, "cube_limit needs the cube")
            need(
                not (self.beaver or self.raccoon or self.automatic_doubles),
                "beaver, raccoon and automatic doubles need the cube",
            )
        need(not self.raccoon or self.beaver, "raccoon needs beaver")
        # each automatic double doubles the cube once, up to the cube's highest value
        most = self.cube_max.bit_length() - 1
        need(
            self.automatic_doubles <= most,
            f"automatic_doubles must be 0..{most} (the cube stops at {self.cube_max}), "
            f"got {self.automatic_doubles}",
        )
        if self.match_length:
            for name in ("beaver", "raccoon", "jacoby"):
                need(
                    not getattr(self, name),
                    f"{name} is a money-play option; it is refused in a {self.match_length}-point match",
                )
            need(
                not self.automatic_doubles,
                f"automatic doubles are a money-play option; refused in a {self.match_length}-point match",
            )
            need(not self.stake, "stakes are per point of a money session; a match has none")
        need(
            not self.rated or self.is_match,
            "only a match of at least 1 point is rated; money sessions are never rated",
        )
        if self.stake:
            need(
                not self.cube or self.cube_limit is not None,
                "a staked table needs a cube limit (or no cube) so that the largest loss is known",
            )

    @property
    def is_match(self) -> bool:
        """True for a match to ``match_length`` points, False for a money session."""
        return self.match_length > 0

    @property
    def end_coefficient(self) -> int:
        """The largest result factor under the end setting (Oin 1, Mars 2, Cox 3) and variant."""
        most = max(v.max_result for v in rotation(self.variant))
        return min(END_COEFFICIENTS[self.end_setting], most)

    def game_variant(self, number: int) -> Variant:
        """The variant of game ``number`` (1, 2, ...): the table's, or its rotation's turn."""
        return game_variant(self.variant, number)

    def game_opening(self, number: int) -> Opening:
        """What the roll-off's winner does in game ``number``: the table's ``opening``,
        else (a rotation whose variants differ) that game's variant's custom."""
        return self.opening or self.game_variant(number).opening

    @property
    def cube_max(self) -> int:
        """The highest value the cube may reach at this table (1 without a cube)."""
        if not self.cube:
            return 1
        return self.cube_limit if self.cube_limit is not None else MAX_CUBE

    def require_backgammon_geometry(self, file_format: str) -> None:
        """Refuse a variant that gnubg's files cannot describe (rules.md: Position IDs).

        ``.mat`` and SGF know only the backgammon board: tavla and portes fit (they are
        written as backgammon games), plakoto's pins, the same-direction games and
        acey-deucey's entry from off the board do not, nor a rotation such as tavli
        (one variant for the whole file).

        >>> TableOptions(variant="fevga", cube=False).require_backgammon_geometry(".mat")
        Traceback (most recent call last):
        ...
        gammon.errors.InvalidOptionsError: a .mat file cannot describe fevga: gnubg's formats know only the backgammon board (same-direction, pinning or off-board entry games are not representable)
        >>> TableOptions(variant="tavli", cube=False).require_backgammon_geometry("SGF")
        Traceback (most recent call last):
        ...
        gammon.errors.InvalidOptionsError: a SGF file cannot describe tavli: it changes variant from game to game (portes, plakoto, fevga), and the file has one variant
        """
        if self.variant in ROTATIONS:
            names = ", ".join(v.name for v in rotation(self.variant))
            raise InvalidOptionsError(
                f"a {file_format} file cannot describe {self.variant}: it changes variant "
                f"from game to game ({names}), and the file has one variant"
            )
        if not VARIANTS[self.variant].standard_geometry:
            raise InvalidOptionsError(
                f"a {file_format} file cannot describe {self.variant}: gnubg's formats know "
                "only the backgammon board (same-direction, pinning or off-board entry "
                "games are not representable)"
            )

    def required_balance(self) -> int:
        """Seed 004's admission rule: stake x cube limit x end coefficient.

        A player may sit at a staked table, or accept a cube there, only with a
        balance of at least this much.  Without a cube the limit counts as 1.
        """
        return self.stake * self.cube_max * self.end_coefficient

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``from_dict`` reads it back)."""
        data = asdict(self)
        if self.clock is not None and not self.clock.correspondence:
            del data["clock"]["correspondence"]  # a live clock's dict as it always was
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableOptions:
        """Build options from a dict such as ``to_dict`` writes; unknown keys are refused."""
        if not isinstance(data, dict):
            raise InvalidOptionsError(f"options must be an object, got {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise InvalidOptionsError(f"unknown options: {', '.join(sorted(unknown))}")
        values = dict(data)
        clock = values.get("clock")
        if isinstance(clock, dict):
            try:
                values["clock"] = ClockSettings(**clock)
            except TypeError as exc:
                raise InvalidOptionsError(f"bad clock settings {clock!r}: {exc}") from None
        return cls(**values)


def boolean_fields(cls: type) -> tuple[str, ...]:
    """The fields of a dataclass typed plainly ``bool`` (not ``bool | None``), in order.

    >>> boolean_fields(TableOptions)
    ('cube', 'crawford', 'jacoby', 'beaver', 'raccoon', 'draw_last_roll', 'rated')
    """
    return tuple(f.name for f in fields(cls) if f.type in ("bool", bool))


#: The on/off options of a table, one list for every reader (the lobby's form, the JSON
#: API): the fields of :class:`TableOptions` typed ``bool``.  ``spectator_chat`` (``bool |
#: None``: None is the table's kind) is read on its own.
BOOLEAN_OPTIONS: Final = boolean_fields(TableOptions)
