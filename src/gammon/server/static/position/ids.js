// @ts-check
// A position's IDs, written in the browser as gammon.notation writes them (bit-exact with
// gnubg and eXtreme Gammon): the XGID, gnubg's Position ID (with gammon's suffix for
// plakoto's pins and acey-deucey's waiting checkers) and Match ID. The seat at the bottom
// is XGID's turn 1 and gnubg's player 1 (gammon.server.analysis.positions). Pure: tests/js/ids.test.mjs.

/**
 * A position as the board editor holds it: each seat's 26 counts in its own numbering
 * (0 off, 1..24, 25 the bar), seat 0 at the bottom.
 * @typedef {object} Setup
 * @property {string} variant
 * @property {number[][]} board
 * @property {number[][]} pinned per seat, its pinned checkers' points
 * @property {number[]} waiting per seat, its checkers still to enter
 * @property {number} turn the seat on roll
 * @property {number[] | null} dice
 * @property {{value: number, owner: number | null}} cube
 * @property {number} length 0 for money
 * @property {number[]} score per seat
 * @property {boolean} crawford
 * @property {boolean} jacoby
 * @property {number} [max_cube] the XGID's largest cube (1024 when not given)
 */

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/**
 * Base64 of bytes (padding left off).
 * @param {number[]} bytes
 */
function base64(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.ceil(((Math.min(3, bytes.length - i)) * 8) / 6);
    for (let k = 0; k < chars; k++) out += B64[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

/**
 * Bits (least significant first) into bytes.
 * @param {number[]} bits
 * @param {number} size
 */
function pack(bits, size) {
  const bytes = new Array(size).fill(0);
  bits.forEach((bit, i) => {
    if (bit) bytes[i >> 3] |= 1 << (i & 7);
  });
  return bytes;
}

/**
 * gnubg's Position ID: the side not on roll first, then the side on roll.
 * @param {number[]} player the side on roll
 * @param {number[]} opponent
 */
export function positionId(player, opponent) {
  /** @type {number[]} */
  const bits = [];
  for (const side of [opponent, player]) {
    for (let i = 1; i <= 25; i++) {
      for (let n = 0; n < side[i]; n++) bits.push(1);
      bits.push(0);
    }
  }
  return base64(pack(bits.slice(0, 80), 10)).slice(0, 14);
}

/**
 * A pin mask's hex digits (bit p = point p).
 * @param {number[]} points
 */
function mask(points) {
  return points.reduce((m, p) => m + 2 ** p, 0).toString(16);
}

/**
 * gammon's Position ID of a setup (gnubg's, with ``:p`` pins or ``:w`` waiting checkers).
 * @param {Setup} s
 */
export function setupPositionId(s) {
  const me = s.turn;
  const them = 1 - me;
  const id = positionId(s.board[me], s.board[them]);
  const pinned = s.pinned || [[], []];
  const waiting = s.waiting || [0, 0];
  if (pinned[0].length || pinned[1].length) return `${id}:p${mask(pinned[me])}.${mask(pinned[them])}`;
  if (waiting[0] || waiting[1]) return `${id}:w${waiting[me]}.${waiting[them]}`;
  return id;
}

/**
 * gnubg's Match ID of a setup (the bottom seat is gnubg's player 1).
 * @param {Setup} s
 */
export function matchId(s) {
  const dice = s.dice ? [Math.max(...s.dice), Math.min(...s.dice)] : [0, 0];
  const owner = s.cube.owner === null ? 3 : 1 - s.cube.owner;
  const fields = [
    [0, 4, Math.log2(s.cube.value)],
    [4, 2, owner],
    [6, 1, 1 - s.turn],
    [7, 1, s.crawford ? 1 : 0],
    [8, 3, 1],
    [11, 1, 1 - s.turn],
    [12, 1, 0],
    [13, 2, 0],
    [15, 3, dice[0]],
    [18, 3, dice[1]],
    [21, 15, s.length],
    [36, 15, s.score[1]],
    [51, 15, s.score[0]],
    [66, 1, s.jacoby ? 0 : 1],
  ];
  const bits = new Array(72).fill(0);
  for (const [offset, width, value] of fields) {
    for (let k = 0; k < width; k++) bits[offset + k] = Math.floor(value / 2 ** k) % 2;
  }
  return base64(pack(bits, 9));
}

/**
 * The XGID of a setup on the backgammon board (null elsewhere: ``standard`` false).
 * @param {Setup} s
 * @param {boolean} standard whether the variant is on the backgammon board
 */
export function xgid(s, standard) {
  if (!standard) return null;
  const maxCube = s.max_cube ?? 1024;
  const [bottom, top] = s.board;
  const letter = (/** @type {number} */ n, /** @type {number} */ base) => (n ? String.fromCharCode(base + n) : "-");
  let board = letter(top[25], 96);
  for (let i = 1; i <= 24; i++) board += bottom[i] ? letter(bottom[i], 64) : letter(top[25 - i], 96);
  board += letter(bottom[25], 64);
  const owner = s.cube.owner === null ? 0 : s.cube.owner === 0 ? 1 : -1;
  const dice = s.dice ? `${s.dice[0]}${s.dice[1]}` : "00";
  const rules = s.length ? (s.crawford ? 1 : 0) : s.jacoby ? 1 : 0;
  const max = Math.max(maxCube, s.cube.value);
  const fields = [board, Math.log2(s.cube.value), owner, s.turn === 0 ? 1 : -1, dice, s.score[0], s.score[1], rules, s.length, Math.log2(max)];
  return `XGID=${fields.join(":")}`;
}

/**
 * The page's address that reproduces a setup: ``/analysis?variant=&pos=&match=``.
 * @param {Setup} s
 * @param {string} origin
 */
export function shareLink(s, origin) {
  const q = new URLSearchParams({ variant: s.variant, pos: setupPositionId(s), match: matchId(s) });
  return `${origin}/analysis?${q}`;
}
