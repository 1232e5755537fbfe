"""``gammon play``: a game, match or money session against the bot in the terminal.

The loop reads one command per line, so it works in any terminal, in tmux, and
from a script.  Each prompt says what it accepts; ``help`` lists everything.

* Turn start: Enter or ``roll``; ``double``; ``resign [1|2|3]``; ``hint``.
* Moving: a move in any common notation (``24/18 13/11``, ``8/5(2)``, ``bar/22*``),
  or the number of a move from ``moves`` (``?``); the board after it is shown and
  Enter confirms, ``undo`` takes it back.
* Cube and resignation answers: ``take``, ``drop``, ``beaver``, ``raccoon``,
  ``accept``, ``reject``.
* Any time: ``abandon`` (ends the game, scored from the board), ``hint``,
  ``board``, ``quit`` (asks first, then saves the record).

At the end the server seed of the verifiable dice is revealed and the match is
saved as an action log in the data directory (see :func:`data_dir`), ready for
``gammon verify-dice`` and ``gammon analyse``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import secrets
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

from rich.console import Console
from rich.text import Text

from gammon.bots.advice import variant_advice
from gammon.bots.bot import LEVELS, Bot
from gammon.bots.seat import bot_for_level, choose_action, score_context
from gammon.dice import Dice
from gammon.errors import GammonError, InvalidOptionsError
from gammon.match import (
    Abandon,
    AcceptResign,
    Beaver,
    DiceRecord,
    Double,
    Drop,
    Match,
    Play,
    Raccoon,
    RejectResign,
    Resign,
    Roll,
    TableOptions,
    Take,
)
from gammon.match.actions import Action
from gammon.match.fairdice import VerifiableDice
from gammon.match.options import ClockSettings
from gammon.match.state import Event
from gammon.move import Move
from gammon.notation.drawing import draw
from gammon.variants import ROTATIONS, VARIANTS, rotation

__all__ = ["TerminalGame", "add_arguments", "run"]

HELP = """commands:
  Enter / roll          roll the dice (at the start of your turn)
  double                offer the cube before rolling
  <move>                play a move: 24/18 13/11, 8/5(2), bar/22*, 6/off ...
  moves / ?             list the legal moves; then type a number to pick one
  undo                  take back the move you typed (before confirming)
  take / drop / beaver / raccoon      answer a double
  accept / reject       answer a resignation
  resign [1|2|3]        offer to resign a single, gammon or backgammon
  abandon               "Abandonner": end the game now, scored from the board
  hint                  ask the bot
  board                 show the board again
  quit                  stop (after a yes) and save the match record"""


#: The second person of the verbs the event lines use (``You roll``, not ``You rolls``).
_SECOND_PERSON: Final = {
    "starts": "start",
    "rolls": "roll",
    "plays": "play",
    "doubles": "double",
    "takes": "take",
    "beavers": "beaver",
    "raccoons": "raccoon",
    "drops": "drop",
    "offers": "offer",
    "accepts": "accept",
    "rejects": "reject",
    "abandons": "abandon",
    "gets": "get",
    "wins": "win",
}


#: The answers that confirm a move (Enter alone does).
_CONFIRM: Final = frozenset({"", "y", "yes", "ok", "play"})


class Quit(Exception):  # noqa: N818 - control flow, not an error
    """The player typed ``quit`` or the input ended."""


class TerminalGame:
    """One match between a person (reading commands) and the bot."""

    def __init__(
        self,
        options: TableOptions,
        *,
        human: int = 0,
        bot: Bot,
        dice: VerifiableDice,
        read: Callable[[str], str],
        console: Console,
        names: tuple[str, str] = ("You", "Bot"),
        money_games: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford: bool | None = None,
    ) -> None:
        self.human = human
        self.bot = bot
        self.dice = dice
        self.read = read
        self.console = console
        self.money_games = money_games
        players = (names[0], names[1]) if human == 0 else (names[1], names[0])
        self.match = Match(
            options,
            players=players,
            dice=DiceRecord(dice.match_id, dice.commitment, dice.client_seeds),
            score=score,
            crawford=crawford,
        )
        self._listed: tuple[Move, ...] = ()

    # ------------------------------------------------------------------ output

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return self.match.players[seat]

    def show_board(self) -> None:
        g = self.match.state.game
        position = g.position
        if g.turn is not None and g.turn != self.human:
            position = position.flipped()
        text = Text(draw(position))
        text.highlight_words(["X"], "bold cyan")
        text.highlight_words(["O"], "bold red")
        self.console.print(text)
        state = self.match.state
        opts = state.options
        score = f"{self.name(0)} {state.score[0]} - {state.score[1]} {self.name(1)}"
        length = f" (match to {opts.match_length})" if opts.is_match else " (money)"
        cube = f"cube {g.cube.value}" + (
            " centred" if g.cube.owner is None else f" owned by {self.name(g.cube.owner)}"
        )
        extra = " - Crawford game" if g.crawford else ""
        self.console.print(f"You are X. {score}{length}, {cube}{extra}. Game {g.number}.")

    def subject(self, seat: int | None, verb: str) -> str:
        """``Bot rolls`` but ``You roll``: the player's name (``You`` for the person at the
        keyboard) and the verb agreeing with it (``verb`` is the third person singular)."""
        if seat == self.human:
            return f"You {_SECOND_PERSON.get(verb, verb)}"
        return f"{self.name(seat)} {verb}"

    def say_events(self, events: tuple[Event, ...]) -> None:
        for e in events:
            d = e.data
            if e.kind == "opening_roll":
                dice = d["dice"]
                self.console.print(
                    f"Opening roll: {self.name(0)} {dice[0]}, {self.name(1)} {dice[1]}"
                )
            elif e.kind == "automatic_double":
                self.console.print(f"Tie: the cube turns to {d['cube']} (automatic double)")
            elif e.kind == "starts":
                self.console.print(
                    f"{self.subject(e.player, 'starts')} with {d['dice'][0]}-{d['dice'][1]}"
                )
            elif e.kind == "rolled":
                self.console.print(
                    f"{self.subject(e.player, 'rolls')} {d['dice'][0]}-{d['dice'][1]}"
                )
            elif e.kind == "no_move":
                self.console.print(f"{self.subject(e.player, 'cannot')} move")
            elif e.kind == "moved" and e.player != self.human:
                self.console.print(f"{self.subject(e.player, 'plays')} {d['move']}", style="bold")
            elif e.kind == "doubled":
                self.console.print(
                    f"{self.subject(e.player, 'doubles')} to {d['cube']}", style="bold yellow"
                )
            elif e.kind == "took":
                self.console.print(f"{self.subject(e.player, 'takes')}: the cube is at {d['cube']}")
            elif e.kind == "beavered":
                self.console.print(
                    f"{self.subject(e.player, 'beavers')}: the cube is at {d['cube']}"
                )
            elif e.kind == "raccooned":
                self.console.print(
                    f"{self.subject(e.player, 'raccoons')}: the cube is at {d['cube']}"
                )
            elif e.kind == "dropped":
                self.console.print(f"{self.subject(e.player, 'drops')}")
            elif e.kind == "resign_offered":
                levels = {1: "a single game", 2: "a gammon", 3: "a backgammon"}
                self.console.print(
                    f"{self.subject(e.player, 'offers')} to resign {levels[d['level']]}"
                )
            elif e.kind == "resign_accepted":
                self.console.print(f"{self.subject(e.player, 'accepts')} the resignation")
            elif e.kind == "resign_rejected":
                self.console.print(f"{self.subject(e.player, 'rejects')} the resignation")
            elif e.kind in ("abandon", "timeout"):
                self.console.print(f"{self.subject(e.player, 'abandons')} the game")
            elif e.kind == "last_roll":
                self.console.print(f"{self.subject(e.player, 'gets')} a last roll to draw the game")
            elif e.kind == "draw":
                self.console.print("The game is a draw", style="bold")
            elif e.kind == "game_over":
                kinds = {0: "draw", 1: "single", 2: "gammon", 3: "backgammon"}
                self.console.print(
                    f"Game {d['game']} over: {self.subject(e.player, 'wins')} {d['points']} point(s) "
                    f"({kinds[d['result']]}); score {d['score'][0]}-{d['score'][1]}",
                    style="bold green",
                )
            elif e.kind == "match_over":
                self.console.print(
                    f"{self.subject(e.player, 'wins')} the match {d['score'][0]}-{d['score'][1]}",
                    style="bold green",
                )
            elif e.kind == "game_started":
                rotating = self.match.options.variant in ROTATIONS
                self.console.print(
                    f"Game {d['game']} starts"
                    + (f": {d['variant']}" if rotating else "")
                    + (" (Crawford game)" if d["crawford"] else "")
                )

    # ------------------------------------------------------------------ loop

    def push(self, action: Action) -> None:
        transition = self.match.push(action)
        self.say_events(transition.events)

    def finished(self) -> bool:
        state = self.match.state
        if state.over:
            return True
        return not state.options.is_match and 0 < self.money_games <= len(state.games)

    def run(self) -> None:
        self.console.print(
            f"Fair dice: commitment {self.dice.commitment} (sha256 of the server seed, "
            "revealed at the end)."
        )
        while not self.finished():
            seats = self.match.to_act()
            seat = self.human if self.human in seats else seats[0]
            if seat != self.human:
                self.push(choose_action(self.match.state, seat, bot=self.bot, dice=self.dice))
                continue
            self.human_turn()

    def ask(self, prompt: str) -> str:
        line = self.read(prompt)
        return line.strip()

    def human_turn(self) -> None:
        state = self.match.state
        g = state.game
        me = self.human
        allowed = self.match.allowed_actions()[me]
        phase = g.phase
        if phase in ("turn", "moving"):
            self.show_board()
        prompts = {
            "opening": "Enter to roll for the opening",
            "turn": "Enter to roll" + (", 'double'" if "double" in allowed else ""),
            "moving": f"Your {g.dice.d1}-{g.dice.d2}: your move ('?' lists them)" if g.dice else "",
            "doubled": "'take' or 'drop'" + (" or 'beaver'" if "beaver" in allowed else ""),
            "beavered": "'take' or 'drop'" + (" or 'raccoon'" if "raccoon" in allowed else ""),
            "raccooned": "'take' or 'drop'",
            "resigning": "'accept' or 'reject'",
        }
        command = self.ask(prompts.get(phase, "?") + " > ")
        word, _, rest = command.partition(" ")
        word = word.lower()
        try:
            if word in ("quit", "exit"):
                self.quit()
                return
            if word == "help":
                self.console.print(HELP)
            elif word == "board":
                self.show_board()
            elif word == "hint":
                self.hint()
            elif word == "abandon":
                if (
                    self.ask("Abandon this game? It is scored from the board. [y/N] > ")
                    .lower()
                    .startswith("y")
                ):
                    self.push(Abandon(me))
            elif word == "resign":
                level = int(rest) if rest.strip().isdigit() else 1
                self.push(Resign(me, level))
            elif word == "double":
                self.push(Double(me))
            elif word == "take":
                self.push(Take(me))
            elif word == "drop":
                self.push(Drop(me))
            elif word == "beaver":
                self.push(Beaver(me))
            elif word == "raccoon":
                self.push(Raccoon(me))
            elif word == "accept":
                self.push(AcceptResign(me))
            elif word == "reject":
                self.push(RejectResign(me))
            elif phase in ("opening", "turn") and word in ("", "roll", "r"):
                self.push(Roll(me, self.dice.roll()))
            elif phase == "moving":
                self.move(command)
            else:
                self.console.print(f"Not now: {command!r}. Type 'help'.", style="red")
        except GammonError as exc:
            self.console.print(str(exc), style="red")

    def quit(self) -> None:
        """Stop after the player says yes (the record is saved as it stands)."""
        answer = self.ask("Stop here? The match is saved as it stands. [y/N] > ").lower()
        if answer in ("y", "yes", "quit", "exit"):
            raise Quit
        self.console.print("Playing on.")

    def move(self, command: str) -> None:
        g = self.match.state.game
        assert g.dice is not None
        me = self.human
        if command in ("?", "moves"):
            self._listed = g.position.legal_moves(g.dice)
            for i, move in enumerate(self._listed, start=1):
                self.console.print(f"{i:3}. {move}")
            return
        if command.isdigit() and self._listed and 1 <= int(command) <= len(self._listed):
            move = self._listed[int(command) - 1]
        else:
            move = g.position.parse_move(command, g.dice)
        after = move.position_after()
        self.console.print(Text(draw(after.flipped())))
        while True:
            answer = self.ask(f"Play {move}? Enter to confirm, 'undo' to take it back > ").lower()
            if answer in _CONFIRM:
                break
            if answer in ("undo", "u", "n", "no"):
                self.console.print("Taken back.")
                return
            if answer in ("quit", "exit"):
                self.quit()
                continue
            self.console.print(
                f"{answer!r} is neither: press Enter (or 'y') to play {move}, "
                "'undo' to take it back.",
                style="red",
            )
        self._listed = ()
        self.push(Play(me, str(move)))

    def hint(self) -> None:
        state = self.match.state
        g = state.game
        me = self.human
        ctx = score_context(state, me)
        if g.phase == "moving" and g.dice is not None and not g.position.variant.standard_geometry:
            advice = variant_advice(g.position, g.dice)
            for value, move in advice.moves:
                self.console.print(f"  {move!s:<24} {advice.measure} {value:+.3f}")
            if advice.measure == "score":
                self.console.print("  (the hand-made bot's score, not an equity)")
        elif g.phase == "moving" and g.dice is not None:
            for ranked in self.bot.rank_moves(g.position, g.dice, ctx)[:5]:
                self.console.print(f"  {ranked.move!s:<24} equity {ranked.equity:+.3f}")
        elif g.phase == "turn" and g.turn == me and not ctx.cube_enabled:
            self.console.print("  roll (no cube in this game)")
        elif g.phase == "turn" and g.turn == me:
            decision = self.bot.cube_decision(g.position, ctx)
            self.console.print(f"  cube: {decision.action}")
        else:
            action = choose_action(state, me, bot=self.bot, dice=_NoDice())
            self.console.print(f"  the bot would: {type(action).__name__.lower()}")


class _NoDice:
    """A dice source for hints, which never roll."""

    def roll(self) -> Dice:  # pragma: no cover - hints are never rolls
        raise GammonError("a hint does not roll")


def _read_stdin(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        raise Quit from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``gammon play``: every table option as a flag."""
    p.add_argument(
        "--level", choices=LEVELS, default="expert", help="the bot's strength (default expert)"
    )
    length = p.add_mutually_exclusive_group()
    length.add_argument(
        "--match", type=int, default=5, metavar="N", help="match to N points (default 5)"
    )
    length.add_argument("--money", action="store_true", help="a money session instead of a match")
    p.add_argument(
        "--score",
        type=_score,
        default=(0, 0),
        metavar="YOU-BOT",
        help="matches: start at this score, yours first (e.g. 3-4 in a 5-point match)",
    )
    p.add_argument(
        "--post-crawford",
        action="store_true",
        help="with --score where one side needs one point: the Crawford game is already played",
    )
    p.add_argument(
        "--games",
        type=int,
        default=0,
        metavar="N",
        help="money: stop after N games (0 = until you quit)",
    )
    p.add_argument(
        "--variant",
        default="standard",
        choices=sorted([*VARIANTS, *ROTATIONS]),
        help="rules variant (those played without a cube have none); tavli: portes, "
        "plakoto and fevga in turn, one per game",
    )
    p.add_argument("--stake", type=int, default=0, help="money: stake per point")
    p.add_argument("--no-cube", action="store_true", help="play without the doubling cube")
    p.add_argument(
        "--cube-limit", type=int, choices=(2, 4, 8, 16, 32, 64), help="highest cube value"
    )
    p.add_argument("--no-crawford", action="store_true", help="matches: no Crawford rule")
    p.add_argument("--jacoby", action="store_true", help="money: Jacoby rule")
    p.add_argument("--beaver", action="store_true", help="money: allow beavers")
    p.add_argument("--raccoon", action="store_true", help="money: allow raccoons (needs --beaver)")
    p.add_argument(
        "--auto-doubles",
        type=int,
        default=0,
        metavar="N",
        help="money: automatic doubles on opening ties",
    )
    p.add_argument(
        "--end", choices=("oin", "mars", "cox"), default="cox", help="end setting (Oin/Mars/Cox)"
    )
    p.add_argument("--draw-last-roll", action="store_true", help="draw with the last roll")
    p.add_argument(
        "--first-move",
        choices=("rolloff", "loser", "alternate", "winner"),
        default=None,
        help="who starts games 2, 3, ... (default: the variant's custom, the winner in "
        "tavli, else a roll-off)",
    )
    p.add_argument(
        "--clock",
        action="store_true",
        help="record clock settings (delay 12 s, reserve 60 s + 60 s per point)",
    )
    p.add_argument(
        "--seat",
        type=int,
        choices=(0, 1),
        default=0,
        help="your seat (0 rolls first in the roll-off's d1)",
    )
    p.add_argument("--name", default="You", help="your name in the record")
    p.add_argument(
        "--client-seed", default="", help="your seed for the verifiable dice (default: random)"
    )
    p.add_argument(
        "--server-seed", help="replay with this server seed (64 hex digits) instead of a secret one"
    )
    p.add_argument(
        "--save",
        type=Path,
        help="where to save the action log (default: gammon-<time>.jsonl in $GAMMON_DATA_DIR, "
        "else $XDG_DATA_HOME/gammon/games, i.e. ~/.local/share/gammon/games)",
    )
    p.add_argument("--no-color", action="store_true", help="plain text output")


def data_dir() -> Path:
    """Where ``gammon play`` saves its records unless ``--save`` says otherwise:
    ``$GAMMON_DATA_DIR``, else ``$XDG_DATA_HOME/gammon/games`` (``~/.local/share/gammon/games``;
    ``%LOCALAPPDATA%\\gammon\\games`` on Windows)."""
    own = os.environ.get("GAMMON_DATA_DIR")
    if own:
        return Path(own).expanduser()
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "gammon" / "games"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "gammon" / "games"


def _score(text: str) -> tuple[int, int]:
    """``A-B`` as two numbers (argparse type of ``--score``)."""
    a, sep, b = text.partition("-")
    if not (sep and a.strip().isdigit() and b.strip().isdigit()):
        raise argparse.ArgumentTypeError(f"expected a score like 3-4, not {text!r}")
    return int(a), int(b)


def run(
    args: argparse.Namespace,
    read: Callable[[str], str] | None = None,
    console: Console | None = None,
) -> int:
    """Run ``gammon play``; returns the exit status."""
    options = TableOptions(
        variant=args.variant,
        match_length=0 if args.money else args.match,
        stake=args.stake,
        cube=not args.no_cube and all(v.cube for v in rotation(args.variant)),
        cube_limit=args.cube_limit,
        crawford=not args.no_crawford,
        jacoby=args.jacoby,
        beaver=args.beaver,
        raccoon=args.raccoon,
        automatic_doubles=args.auto_doubles,
        end_setting=args.end,
        draw_last_roll=args.draw_last_roll,
        first_move=args.first_move,
        clock=ClockSettings() if args.clock else None,
    )
    out = console or Console(no_color=args.no_color, highlight=False)
    match_id = "play-" + secrets.token_hex(6)
    seeds = (args.client_seed or secrets.token_hex(8), "bot")
    if args.seat == 1:
        seeds = (seeds[1], seeds[0])
    seed = bytes.fromhex(args.server_seed) if args.server_seed else secrets.token_bytes(32)
    dice = VerifiableDice(seed, match_id, seeds)
    mine, theirs = args.score
    if not options.is_match and (args.score != (0, 0) or args.post_crawford):
        raise InvalidOptionsError("--score and --post-crawford are for matches, not --money")
    if args.post_crawford and options.match_length - 1 not in args.score:
        raise InvalidOptionsError(
            f"--post-crawford needs a --score where one side needs one point, not {mine}-{theirs}"
        )
    game = TerminalGame(
        options,
        human=args.seat,
        bot=bot_for_level(args.level),
        dice=dice,
        read=read or _read_stdin,
        console=out,
        names=(args.name, f"bot ({args.level})"),
        money_games=args.games,
        score=(mine, theirs) if args.seat == 0 else (theirs, mine),
        crawford=False if args.post_crawford else None,
    )
    try:
        game.run()
    except (Quit, KeyboardInterrupt):
        out.print("Stopped.")
    game.match.server_seed = dice.reveal()
    path = args.save or data_dir() / f"gammon-{_dt.datetime.now():%Y%m%d-%H%M%S}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(game.match.to_log(), encoding="utf-8")
    out.print(f"Server seed revealed: {game.match.server_seed}")
    out.print(f"Saved the match to {path} (check the dice: gammon verify-dice {path})")
    return 0


def scripted(lines: list[str]) -> Callable[[str], str]:
    """A ``read`` function that answers prompts from a list (for tests and demos)."""
    it: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise Quit from None

    return read
