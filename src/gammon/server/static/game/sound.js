// @ts-check
// Sounds of the game page, made in the browser with WebAudio oscillators (no sound files):
// the dice, a checker move, and "your turn". Muting is remembered in localStorage
// ("gammon.mute" = "1"). Browsers only let a page make sound after a click or a key, so the
// audio context is created on the first one.

const KEY = "gammon.mute";

// kind -> notes: [frequency (Hz), start (s), length (s), wave, gain]
/** @type {Record<string, [number, number, number, OscillatorType, number][]>} frequency, start, length, wave, gain */
const NOTES = {
  dice: [
    [620, 0, 0.035, "square", 0.05],
    [480, 0.06, 0.035, "square", 0.05],
    [700, 0.11, 0.03, "square", 0.04],
  ],
  move: [[220, 0, 0.06, "triangle", 0.18]],
  turn: [
    [660, 0, 0.12, "sine", 0.12],
    [880, 0.13, 0.16, "sine", 0.12],
  ],
};

function stored() {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}

class Sound {
  constructor() {
    this.muted = stored();
    this.ctx = null;
    /** @type {string[]} */
    this.played = []; // kinds played (unmuted), newest last: for the tests and nothing else
    const unlock = () => {
      this.context();
      window.removeEventListener("pointerdown", unlock, true);
      window.removeEventListener("keydown", unlock, true);
    };
    window.addEventListener("pointerdown", unlock, true);
    window.addEventListener("keydown", unlock, true);
  }

  context() {
    if (this.ctx) return this.ctx;
    const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctx) return null;
    try {
      this.ctx = new Ctx();
    } catch {
      this.ctx = null;
    }
    return this.ctx;
  }

  /** @param {boolean} muted */
  setMuted(muted) {
    this.muted = Boolean(muted);
    try {
      localStorage.setItem(KEY, this.muted ? "1" : "0");
    } catch {
      // storage disabled: the choice lasts as long as the page
    }
  }

  /** @param {"dice" | "move" | "turn"} kind */
  play(kind) {
    if (this.muted || !NOTES[kind]) return;
    this.played.push(kind);
    if (this.played.length > 50) this.played.shift();
    const ctx = this.ctx; // never created before a gesture
    if (!ctx || ctx.state === "closed") return;
    const t0 = ctx.currentTime + 0.01;
    for (const [freq, start, length, wave, gain] of NOTES[kind]) {
      const osc = ctx.createOscillator();
      const amp = ctx.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      amp.gain.setValueAtTime(gain, t0 + start);
      amp.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
      osc.connect(amp).connect(ctx.destination);
      osc.start(t0 + start);
      osc.stop(t0 + start + length + 0.02);
    }
  }
}

export const sound = new Sound();
