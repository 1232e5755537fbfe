// @ts-check
// Texts and numbers of the analysis board (pure).

/** @typedef {import("./types.js").Step} Step */
/** @typedef {(key: string) => string} Say */

/** The marks' signs, as gnubg and XG write them. */
export const MARK_SIGN = /** @type {Record<string, string>} */ ({ none: "", doubtful: "?!", error: "?", blunder: "??" });

/**
 * An equity with its sign and 3 decimals ("+0.123", "−0.050").
 * @param {number} x
 */
export function equity(x) {
  const text = Math.abs(x).toFixed(3);
  return (x < 0 && text !== "0.000" ? "\u2212" : "+") + text;
}

/**
 * A chance (0..1) as a percentage with one decimal ("53.2%").
 * @param {number} x
 */
export function percent(x) {
  return `${(100 * x).toFixed(1)}%`;
}

/**
 * What a step says in the move list, without the player's name ("31: 8/5 6/5", "doubles to 4").
 * @param {Step} step
 * @param {Say} say
 */
export function stepText(step, say) {
  const dice = step.dice ? `${Math.max(...step.dice.values)}${Math.min(...step.dice.values)}` : "";
  switch (step.kind) {
    case "move":
      return `${dice}: ${step.text}`;
    case "dance":
      return `${dice}: ${say("cannot move")}`;
    case "rolloff": {
      // each seat's die, seat 0's first: a tie is rolled again; else its winner starts
      const [a, b] = step.dice ? step.dice.values : [0, 0];
      return step.p === null ? `${say("Opening roll")} ${a}\u2013${b}: ${say("a tie, rolled again")}` : `${say("wins the opening roll")} ${a}\u2013${b}`;
    }
    case "double":
      return `${say("doubles to")} ${step.cube.offer ? step.cube.offer.value : 2 * step.cube.value}`;
    case "take":
      return say("takes");
    case "drop":
      return say("passes");
    case "beaver":
      return say("redoubles (beaver)");
    case "raccoon":
      return say("redoubles (raccoon)");
    case "resign":
      return `${say("offers to resign")} (${say(["a single game", "a gammon", "a backgammon"][(step.level || 1) - 1])})`;
    case "accept":
      return say("accepts the resignation");
    case "reject":
      return say("rejects the resignation");
    case "end":
      return `${say("wins")} ${step.points ?? 0} (${step.score.join("\u2013")})`;
    default:
      return `${say("Game")} ${step.g}${step.crawford ? ` (${say("Crawford")})` : ""}: ${step.score.join("\u2013")}`;
  }
}
