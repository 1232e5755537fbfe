// @ts-check
// Recomputing a match's dice in the browser (docs/dice.md), with WebCrypto only:
// sha256(server_seed) must equal the published commitment, and the dice are the bytes below
// 252 of HMAC-SHA256(key = server_seed, msg = "{match_id}:{seed_0}:{seed_1}:{counter}"),
// each giving b % 6 + 1, two dice per roll, in the order of the log's roll actions.

const encoder = new TextEncoder();

/** @param {string} hex */
export function hexToBytes(hex) {
  const clean = String(hex).trim().toLowerCase();
  if (!/^([0-9a-f]{2})*$/.test(clean)) return null;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {ArrayBuffer | Uint8Array} bytes */
export function bytesToHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {Uint8Array<ArrayBuffer>} bytes */
export async function sha256Hex(bytes) {
  return bytesToHex(await crypto.subtle.digest("SHA-256", bytes));
}

/** A log that does not read: `key` and `params` name the problem for the page's catalogue. */
export class LogError extends Error {
  /**
   * @param {string} key the catalogue key (verify.log.*)
   * @param {Record<string, string | number>} [params]
   * @param {string} [english] the message in English (for the console and the tests)
   */
  constructor(key, params = {}, english = key) {
    super(english);
    this.key = key;
    this.params = params;
  }
}

// The commit-reveal scheme this page knows (gammon.match.fairdice.DICE_SCHEME).
export const SCHEME = "hmac-sha256-v1";

// Read a gammon action log (JSON lines): the header's dice record, the roll actions in order
// and the reveal line. Throws LogError naming the bad line.
/**
 * A gammon-action-log (JSON lines) read: its players, dice header, rolls and revealed seed.
 * @param {string} text
 */
export function parseLog(text) {
  const lines = String(text).split(/\r?\n/).filter((l) => l.trim());
  if (!lines.length) throw new LogError("verify.log.empty", {}, "empty log");
  /**
   * @param {string} line
   * @param {number} n
   */
  const parse = (line, n) => {
    try {
      return JSON.parse(line);
    } catch {
      throw new LogError("verify.log.not_json", { n }, `line ${n} is not JSON`);
    }
  };
  const header = parse(lines[0], 1);
  if (!header || typeof header !== "object" || header.format !== "gammon-action-log") {
    throw new LogError("verify.log.no_header", {}, "line 1 is not a gammon-action-log header");
  }
  const players = Array.isArray(header.players) ? header.players.map(String) : ["0", "1"];
  const dice = header.dice && typeof header.dice === "object" ? header.dice : null;
  /** @type {{index: number, player: number, dice: string, line: number}[]} */
  const rolls = [];
  /** @type {string | null} */
  let serverSeed = null;
  lines.slice(1).forEach((line, i) => {
    const data = parse(line, i + 2);
    if (data && data.type === "reveal") {
      serverSeed = String(data.server_seed ?? "");
      return;
    }
    if (data && data.type === "roll") {
      const d = String(data.dice ?? "");
      if (!/^[1-6]{2}$/.test(d)) {
        const params = { n: i + 2, dice: JSON.stringify(data.dice) };
        throw new LogError("verify.log.bad_dice", params, `line ${i + 2}: bad dice ${params.dice}`);
      }
      rolls.push({ index: rolls.length, player: data.player, dice: d, line: i + 2 });
    }
  });
  if (dice && dice.scheme !== undefined && dice.scheme !== SCHEME) {
    const params = { scheme: JSON.stringify(dice.scheme), known: SCHEME };
    throw new LogError("verify.log.scheme", params, `unknown dice scheme ${params.scheme}: this page verifies ${SCHEME}`);
  }
  return {
    players,
    dice: dice && {
      scheme: String(dice.scheme ?? "hmac-sha256-v1"),
      matchId: String(dice.match_id ?? ""),
      commitment: String(dice.commitment ?? "").trim().toLowerCase(),
      clientSeeds: Array.isArray(dice.client_seeds) ? dice.client_seeds.map(String) : ["", ""],
    },
    rolls,
    serverSeed,
  };
}

// An async source of dice: next() gives the next die (1..6).
/**
 * @param {Uint8Array<ArrayBuffer>} seedBytes
 * @param {string} matchId
 * @param {string[]} clientSeeds
 */
export async function diceSource(seedBytes, matchId, clientSeeds) {
  const key = await crypto.subtle.importKey("raw", seedBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const prefix = `${matchId}:${clientSeeds[0]}:${clientSeeds[1]}:`;
  let counter = 0;
  /** @type {ArrayLike<number>} */
  let block = [];
  let pos = 0;
  return {
    async next() {
      for (;;) {
        while (pos < block.length) {
          const b = block[pos++];
          if (b < 252) return (b % 6) + 1;
        }
        const sig = await crypto.subtle.sign("HMAC", key, encoder.encode(`${prefix}${counter}`));
        counter += 1;
        block = new Uint8Array(sig);
        pos = 0;
      }
    },
    get blocks() {
      return counter;
    },
  };
}

// Check a parsed log. Returns {status, commitmentOk, actual, rows, firstBad}; status is
// "ok", "bad_roll", "bad_commitment", "bad_seed", "no_seed" or "no_dice".
/** @param {ReturnType<typeof parseLog>} log */
export async function verifyLog(log) {
  if (!log.dice) return { status: "no_dice", rows: [] };
  if (log.serverSeed === null) return { status: "no_seed", rows: [] };
  const seed = hexToBytes(log.serverSeed);
  if (!seed || seed.length !== 32) return { status: "bad_seed", rows: [] };
  const actual = await sha256Hex(seed);
  const commitmentOk = actual === log.dice.commitment;
  const source = await diceSource(seed, log.dice.matchId, log.dice.clientSeeds);
  const rows = [];
  let firstBad = null;
  for (const roll of log.rolls) {
    const computed = `${await source.next()}${await source.next()}`;
    const ok = computed === roll.dice;
    if (!ok && firstBad === null) firstBad = roll.index;
    rows.push({ ...roll, computed, ok });
  }
  let status = "ok";
  if (!commitmentOk) status = "bad_commitment";
  else if (firstBad !== null) status = "bad_roll";
  return { status, commitmentOk, actual, rows, firstBad };
}
