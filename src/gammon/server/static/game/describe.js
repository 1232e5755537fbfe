// @ts-check
// The board as text, for screen readers (issue #18): each seat's checkers point by point in
// the viewer's numbering, the bar, the checkers borne off (or still to enter), the dice and
// the cube. Pure: the words come from `tr` (the page's `t`).

/**
 * @typedef {object} Described
 * @property {number} bottom the viewer's seat (whose numbering the points use)
 * @property {number[][]} board per seat, its 26 counts in its own numbering (0 off, 25 bar)
 * @property {number[]} other the variant's mapping: other[q] is the viewer's number of the other seat's q
 * @property {string[]} names the seats' names
 * @property {number[] | null} [waiting] per seat, checkers still to enter (acey-deucey)
 * @property {{seat: number, values: number[]} | null} dice
 * @property {{value: number, owner: number | null} | null} cube null without a cube
 */

/**
 * @param {Described} d
 * @param {(key: string, params?: Record<string, string | number>) => string} tr
 * @returns {string[]} one sentence per seat, then the dice and the cube
 */
export function describeBoard(d, tr) {
  const out = [];
  for (const seat of [d.bottom, 1 - d.bottom]) {
    const counts = d.board[seat] || [];
    /** @type {[number, number][]} */
    const points = [];
    for (let q = 1; q <= 24; q++) {
      if (!counts[q]) continue;
      points.push([seat === d.bottom ? q : d.other[q], counts[q]]);
    }
    points.sort((a, b) => b[0] - a[0]);
    const list = points.map(([n, count]) => tr("desc.point", { n, count })).join(", ");
    out.push(tr("desc.seat", {
      name: d.names[seat],
      color: tr(seat === 0 ? "color.light" : "color.dark"),
      points: list || tr("desc.none"),
      bar: counts[25] || 0,
      off: counts[0] || 0,
    }) + (d.waiting && d.waiting[seat] ? ` ${tr("desc.waiting", { count: d.waiting[seat] })}` : ""));
  }
  if (d.dice && d.dice.values.length) {
    out.push(tr("desc.dice", { name: d.names[d.dice.seat], dice: d.dice.values.join(" ") }));
  }
  if (d.cube) {
    out.push(d.cube.owner === null || d.cube.owner === undefined
      ? tr("desc.cube_centre", { value: d.cube.value })
      : tr("desc.cube_owned", { value: d.cube.value, name: d.names[d.cube.owner] }));
  }
  return out;
}
