// @ts-check
// Click-to-move without asking the server: from the state alone (the legal moves with their
// steps, the dice, the board) it answers which single steps may follow the steps played so
// far, whether they make a complete legal move and which one, and the dice left. Pure: no DOM.
//
// The server lists each legal move once, its steps in one canonical order; a player plays the
// steps in any order. A played sequence is valid when each step is one of the listed steps (or
// the same checker's other route over an open point, see `routes`), starts from a point that
// holds a checker of the mover's able to move at that moment (the bar first; a bear-off only
// once every checker is home and none pinned, a larger die only from the highest point) and
// the sequence can be completed into the board of a listed move. So the move finally sent is
// always one of the listed moves, and the server accepts it. Hits are derived from the board.

/** @typedef {[number, number, number, boolean]} Step from, to, die, hit (mover's numbering) */
/** @typedef {{move: string, steps: Step[]}} LegalMove */
/**
 * What may follow the steps played so far, like the server's `steps` answer.
 * @typedef {object} StepAnswer
 * @property {Step[]} steps the single steps that can follow (each at most once)
 * @property {boolean} complete whether the played steps make a legal move
 * @property {string | null} move that move's text when complete
 * @property {number[]} dice_left the dice still to play
 */
/**
 * One turn of the player to move, as the state describes it (the mover's view).
 * @typedef {object} Turn
 * @property {LegalMove[]} moves the legal moves (`match.moves`)
 * @property {number[]} dice the two dice rolled
 * @property {number[]} mine the mover's 26 counts (0 off, 1..24, 25 bar), own numbering
 * @property {number[]} theirs the other seat's 26 counts, in its own numbering
 * @property {number[]} other `variant.other_point`: the other seat's number of a point
 * @property {string} [landing] `variant.geometry.landing`: "hit" (default), "pin" or "block"
 * @property {number[]} [minePinned] points (own numbering) where a checker of the mover's lies pinned
 * @property {number[]} [theirsPinned] points (their numbering) where one of theirs lies pinned
 * @property {number} [waiting] the mover's checkers still to enter (acey-deucey)
 */
/**
 * The board during the turn.
 * @typedef {{mine: number[], theirs: number[], pins: number[], waiting: number}} Board
 */

/** @param {Board} b */
export function boardKey(b) {
  return `${b.mine.join(",")}|${b.theirs.join(",")}|${[...b.pins].sort((x, y) => x - y).join(",")}|${b.waiting}`;
}

/** @param {number[]} dice */
function sortedKey(dice) {
  return [...dice].sort((x, y) => x - y).join("");
}

/**
 * The multiset `dice` less `used` (those of `used` it holds).
 * @param {number[]} dice
 * @param {number[]} used
 */
function minus(dice, used) {
  const left = [...dice];
  for (const d of used) {
    const i = left.indexOf(d);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

/**
 * Whether `small` is a sub-multiset of `big`.
 * @param {number[]} small
 * @param {number[]} big
 */
function within(small, big) {
  return minus(big, small).length === big.length - small.length;
}

/**
 * A step played on a board: the board after it and whether it hits (or, in plakoto, pins:
 * a lone checker of theirs not pinned already). A checker entering comes from the bar, else
 * from those waiting; a pinning checker leaving its point frees the checker under it.
 * @param {Board} board
 * @param {number} from
 * @param {number} to
 * @param {number[]} other `variant.other_point`
 * @param {string} landing `variant.geometry.landing`: "hit", "pin" or "block"
 * @returns {{board: Board, hit: boolean}}
 */
export function playOn(board, from, to, other, landing) {
  const mine = board.mine.slice();
  const theirs = board.theirs.slice();
  let pins = board.pins;
  let waiting = board.waiting;
  const q = other[to];
  const hit = landing !== "block" && to >= 1 && to <= 24 && theirs[q] === 1 && !pins.includes(q);
  if (from === 25 && !mine[25] && waiting > 0) waiting -= 1;
  else mine[from] -= 1;
  mine[to] += 1;
  if (landing === "pin" && from >= 1 && from <= 24 && !mine[from]) {
    pins = pins.filter((p) => p !== other[from]); // the checker it pinned is free again
  }
  if (hit) {
    if (landing === "pin") {
      pins = [...pins, q];
    } else {
      theirs[q] -= 1;
      theirs[25] += 1;
    }
  }
  return { board: { mine, theirs, pins, waiting }, hit };
}

export class MoveBuilder {
  /** @param {Turn} turn */
  constructor(turn) {
    this.other = turn.other;
    this.landing = turn.landing || "hit";
    this.minePinned = new Set(turn.minePinned || []);
    /** @type {Board} */
    this.start = {
      mine: turn.mine.slice(),
      theirs: turn.theirs.slice(),
      pins: (turn.theirsPinned || []).slice(),
      waiting: turn.waiting || 0,
    };
    const [a, b] = turn.dice;
    /** the rolled dice: four of a double */
    this.rolled = a === b ? [a, a, a, a] : [a, b];
    this.moves = turn.moves;
    /** each listed move's board after it, its length and dice */
    this.targets = turn.moves.map((m) => {
      let board = this.start;
      for (const [from, to] of m.steps) board = this.apply(board, from, to).board;
      return { key: boardKey(board), length: m.steps.length, dice: m.steps.map((s) => s[2]) };
    });
    this.longest = Math.max(0, ...this.targets.map((t) => t.length));
    /** every part of a listed move's dice (sorted keys): the dice a turn may use so far */
    this.diceParts = new Set();
    for (const key of new Set(this.targets.map((t) => sortedKey(t.dice)))) {
      const dice = key.split("").map(Number);
      for (let mask = 0; mask < 1 << dice.length; mask++) {
        this.diceParts.add(sortedKey(dice.filter((_, i) => mask >> i & 1)));
      }
    }
    /** @type {Map<string, [number, number, number]>} the steps a move may be made of */
    this.vocabulary = new Map();
    for (const m of turn.moves) {
      for (const [from, to, die] of m.steps) this.vocabulary.set(`${from},${to},${die}`, [from, to, die]);
    }
    for (const step of this.routes()) this.vocabulary.set(step.join(","), step);
    /** @type {Map<string, boolean>} */
    this.memo = new Map();
    /** @type {Map<string, StepAnswer | null>} the answers given, by the steps played */
    this.answers = new Map();
  }

  /**
   * The same checker's other route: a listed a/b/c by the dice x then y may also go a/b'/c by
   * y then x when b' holds none of the other seat's checkers (or is a listed landing). The
   * board a route leads to is still checked against the listed moves.
   * @returns {[number, number, number][]}
   */
  routes() {
    const landings = new Set();
    for (const m of this.moves) for (const s of m.steps) landings.add(s[1]);
    /** @type {[number, number, number][]} */
    const out = [];
    for (const m of this.moves) {
      for (const [a, b, x] of m.steps) {
        for (const [b2, c, y] of m.steps) {
          if (b2 !== b || x === y || b === 0) continue;
          const via = a - y;
          if (via < 1 || via > 24 || via - x > c || (c > 0 && via - x !== c)) continue;
          if (this.start.theirs[this.other[via]] && !landings.has(via)) continue;
          out.push([a, via, y], [via, c, x]);
        }
      }
    }
    return out;
  }

  /**
   * @param {Board} board
   * @param {number} from
   * @param {number} to
   */
  apply(board, from, to) {
    return playOn(board, from, to, this.other, this.landing);
  }

  /**
   * Whether a checker of the mover's may leave `from` now (by `die`, to `to`).
   * @param {Board} board
   * @param {number} from
   * @param {number} to
   * @param {number} die
   */
  canStep(board, from, to, die) {
    const mine = board.mine;
    if (mine[25] > 0 && from !== 25) return false; // the bar first
    if (from === 25) return mine[25] + board.waiting > 0;
    if (mine[from] - (this.minePinned.has(from) ? 1 : 0) <= 0) return false;
    if (to !== 0) return true;
    // bearing off: every checker home, none waiting or pinned; a larger die from the highest
    if (board.waiting || this.minePinned.size || mine.slice(7).some((n) => n > 0)) return false;
    return die === from || (die > from && !mine.slice(from + 1, 7).some((n) => n > 0));
  }

  /**
   * The dice still to play from the roll after `used`; null when `die` cannot be played next.
   * After the roll (an acey-deucey 1-2) a die is allowed when a listed move has it.
   * @param {number[]} used
   * @param {number} die
   */
  allowsDie(used, die) {
    const left = minus(this.rolled, used);
    if (left.length) return left.includes(die);
    return this.diceParts.has(sortedKey([...used, die]));
  }

  /**
   * The steps that may be played from `board` after `used` dice, with the board each leads to.
   * @param {Board} board
   * @param {number[]} used
   * @returns {{step: Step, board: Board}[]}
   */
  next(board, used) {
    const out = [];
    for (const [from, to, die] of this.vocabulary.values()) {
      if (!this.allowsDie(used, die) || !this.canStep(board, from, to, die)) continue;
      const after = this.apply(board, from, to);
      /** @type {Step} */
      const step = [from, to, die, after.hit];
      out.push({ step, board: after.board });
    }
    return out;
  }

  /**
   * The index of the listed move whose board this is, after as many steps (or, once the
   * roll's dice are played, an acey-deucey 1-2 going on with a double: after any number;
   * the server lists one move per board, whatever double reaches it); -1 if none.
   * @param {Board} board
   * @param {number[]} used the dice played
   */
  listed(board, used) {
    const key = boardKey(board);
    const free = minus(this.rolled, used).length === 0;
    return this.targets.findIndex((t) => t.key === key && (free || t.length === used.length));
  }

  /**
   * Whether some listed move's board can be reached from `board` with `count` steps played.
   * @param {Board} board
   * @param {number[]} used
   */
  reaches(board, used) {
    const count = used.length;
    const key = `${boardKey(board)}/${sortedKey(used)}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    let found = this.listed(board, used) >= 0;
    if (!found && count < this.longest) {
      found = this.next(board, used).some((n) => this.reaches(n.board, [...used, n.step[2]]));
    }
    this.memo.set(key, found);
    return found;
  }

  /**
   * The board after `played`, or null when a step cannot be played there.
   * @param {ArrayLike<number | boolean>[]} played steps [from, to, die, ...]
   * @returns {{board: Board, used: number[]} | null}
   */
  replay(played) {
    let board = this.start;
    /** @type {number[]} */
    const used = [];
    for (const s of played) {
      const [from, to, die] = [Number(s[0]), Number(s[1]), Number(s[2])];
      if (!this.vocabulary.has(`${from},${to},${die}`)) return null;
      if (!this.allowsDie(used, die) || !this.canStep(board, from, to, die)) return null;
      board = this.apply(board, from, to).board;
      used.push(die);
    }
    return { board, used };
  }

  /**
   * What may follow `played` (the steps made so far, in the order made): like the server's
   * `steps` answer, or null when they cannot lead to a legal move.
   * @param {ArrayLike<number | boolean>[]} played
   * @returns {StepAnswer | null}
   */
  options(played) {
    const key = JSON.stringify(played.map((s) => [s[0], s[1], s[2]]));
    let answer = this.answers.get(key);
    if (answer === undefined) {
      answer = this.answer(played);
      this.answers.set(key, answer);
    }
    return answer;
  }

  /**
   * The steps that finish the move when `played` leaves a single listed move to reach (and
   * is not one already): one of its orders. Empty when there is a choice left.
   * @param {ArrayLike<number | boolean>[]} played
   * @returns {Step[]}
   */
  rest(played) {
    const start = this.options(played);
    if (!start || start.complete || !start.steps.length) return [];
    /** @type {Set<string>} */
    const finals = new Set();
    /** @type {Step[] | null} */
    let path = null;
    /** @param {Step[]} prefix */
    const walk = (prefix) => {
      const opts = this.options([...played, ...prefix]);
      if (!opts) return;
      if (opts.complete && opts.move) {
        finals.add(opts.move);
        if (!path) path = prefix;
      }
      for (const step of opts.steps) {
        if (finals.size > 1) return;
        walk([...prefix, step]);
      }
    };
    walk([]);
    return finals.size === 1 && path ? path : [];
  }

  /**
   * The boards of the listed moves that `played` can still lead to (each once; at most
   * `limit` looked at): for choosing what a click most likely means (firstclick.js).
   * @param {ArrayLike<number | boolean>[]} played
   * @param {number} [limit]
   * @returns {Board[]}
   */
  ends(played, limit = 400) {
    const at = this.replay(played);
    if (!at) return [];
    /** @type {Board[]} */
    const out = [];
    const seen = new Set();
    /**
     * @param {Board} board
     * @param {number[]} used
     */
    const walk = (board, used) => {
      const key = `${boardKey(board)}/${sortedKey(used)}`;
      if (seen.has(key) || seen.size >= limit) return;
      seen.add(key);
      if (this.listed(board, used) >= 0) out.push(board);
      if (used.length >= this.longest) return;
      for (const n of this.next(board, used)) {
        const after = [...used, n.step[2]];
        if (this.reaches(n.board, after)) walk(n.board, after);
      }
    };
    walk(at.board, at.used);
    return out;
  }

  /**
   * @param {ArrayLike<number | boolean>[]} played
   * @returns {StepAnswer | null}
   */
  answer(played) {
    if (!this.moves.length) return { steps: [], complete: true, move: null, dice_left: [] };
    const at = this.replay(played);
    if (!at) return null;
    const i = this.listed(at.board, at.used);
    /** @type {Map<string, Step>} */
    const steps = new Map();
    if (played.length < this.longest) {
      for (const n of this.next(at.board, at.used)) {
        const id = n.step.slice(0, 3).join(",");
        if (!steps.has(id) && this.reaches(n.board, [...at.used, n.step[2]])) steps.set(id, n.step);
      }
    }
    if (i < 0 && !steps.size) return null;
    let diceLeft = minus(this.rolled, at.used);
    if (!diceLeft.length && steps.size) {
      // after the roll (an acey-deucey 1-2): the rest of a listed move's dice
      const open = this.targets.find((t) => within(at.used, t.dice) && t.length > played.length);
      if (open) diceLeft = minus(open.dice, at.used);
    }
    // a listed move may also go on (acey-deucey: the 1 and the 2, or with a double after them)
    return {
      steps: [...steps.values()],
      complete: i >= 0,
      move: i >= 0 ? this.moves[i].move : null,
      dice_left: steps.size ? diceLeft : [],
    };
  }
}

/**
 * The turn of the seat to move as the builder reads it from a `state` message, or null when
 * the state does not list the moves (not this seat's turn to move, or `moves_omitted`).
 * @param {any} state the `state` object (docs/protocol.md)
 * @param {number | null} seat the viewer's seat (null: a spectator, never the mover)
 * @returns {Turn | null}
 */
export function turnFromState(state, seat) {
  const m = state && state.match;
  const g = m && m.game;
  if (!g || seat === null || !Array.isArray(m.moves) || !g.dice || g.turn !== seat) return null;
  const variant = (state.table && state.table.variant) || {};
  const other = Array.isArray(variant.other_point) && variant.other_point.length === 26
    ? variant.other_point
    : Array.from({ length: 26 }, (_, q) => (q >= 1 && q <= 24 ? 25 - q : 0));
  return {
    moves: m.moves,
    dice: g.dice,
    mine: g.board[seat],
    theirs: g.board[1 - seat],
    other,
    landing: (variant.geometry && variant.geometry.landing) || "hit",
    minePinned: g.pinned ? g.pinned[seat] : [],
    theirsPinned: g.pinned ? g.pinned[1 - seat] : [],
    waiting: g.waiting ? g.waiting[seat] : 0,
  };
}

/**
 * A new `state` whose `match.moves_kept` says the mover holds its legal moves already (an
 * event that did not change them: docs/protocol.md) gets them back from the previous state;
 * any other state is returned as it is.
 * @param {any} previous the state held so far (or null)
 * @param {any} next the state just received
 * @returns {any}
 */
export function withKeptMoves(previous, next) {
  const m = next && next.match;
  if (!m || !m.moves_kept) return next;
  const p = previous && previous.match;
  if (!p || !(Array.isArray(p.moves) || p.moves_omitted)) return next; // nothing to keep: asks nothing
  const match = { ...m, moves: p.moves, moves_omitted: p.moves_omitted, forced: p.forced, step_options: p.step_options };
  delete match.moves_kept;
  return { ...next, match };
}
