import { byId, h } from "./dom.js";
import type { Game } from "./game.js";
import { onSettings, setSettings, settings } from "./settings.js";

/** A note of an effect: its frequency (Hz), when it starts and how long it rings (seconds from the effect's start). */
export type Note = readonly [hz: number, at: number, length: number];

/** A sound effect made in code: one oscillator a note, through a short envelope. */
export interface Effect {
  wave: OscillatorType;
  /** Loudness of each note, 0–1. */
  gain: number;
  notes: readonly Note[];
  /** Each note glides down to this fraction of its frequency (a thump), else it holds. */
  glide?: number;
  /** A jingle: a new jingle cuts the one still ringing off (a level-up at a quest's completion). */
  jingle?: boolean;
}

/**
 * The effects (no audio files: the Web Audio API makes them). The level-up is a rising arpeggio,
 * the quest's completion a longer fanfare; hits a short thump (higher when you strike, lower when
 * you are struck); a pickup two quick rising blips; a menu entry's click a tick.
 */
export const EFFECTS = {
  levelUp: {
    wave: "triangle",
    gain: 0.22,
    jingle: true,
    notes: [
      [523.25, 0, 0.12],
      [659.25, 0.12, 0.12],
      [783.99, 0.24, 0.12],
      [1046.5, 0.36, 0.45],
    ],
  },
  questComplete: {
    wave: "triangle",
    gain: 0.22,
    jingle: true,
    notes: [
      [392, 0, 0.16],
      [523.25, 0.16, 0.16],
      [659.25, 0.32, 0.16],
      [783.99, 0.48, 0.3],
      [659.25, 0.8, 0.14],
      [783.99, 0.94, 0.14],
      [1046.5, 1.08, 0.7],
      [523.25, 1.08, 0.7],
    ],
  },
  hitDealt: { wave: "square", gain: 0.08, glide: 0.5, notes: [[196, 0, 0.09]] },
  hitTaken: { wave: "sawtooth", gain: 0.1, glide: 0.45, notes: [[110, 0, 0.14]] },
  pickup: {
    wave: "sine",
    gain: 0.18,
    notes: [
      [880, 0, 0.06],
      [1318.5, 0.06, 0.09],
    ],
  },
  click: { wave: "square", gain: 0.035, notes: [[1500, 0, 0.025]] },
} as const satisfies Record<string, Effect>;

export type EffectName = keyof typeof EFFECTS;

/** An effect asked for while the context was starting is dropped if it would sound later than this (ms). */
const LATE_MS = 1000;

/**
 * The page's sound: one AudioContext, made (or resumed) on the first click or key press (a browser
 * starts none before), through one master gain. Muted (settings.muted), nothing is made or played,
 * and a context already running is suspended at once (a jingle ringing stops).
 */
export class Sound {
  private ctx: AudioContext | null = null;
  private master: GainNode | null = null;
  /** The oscillators of the jingle ringing now. */
  private ringing: OscillatorNode[] = [];

  /** After a user's gesture: make or resume the context (unless muted). */
  unlock() {
    if (settings.muted) return;
    const ctx = this.context(true);
    if (ctx && ctx.state === "suspended") void ctx.resume().catch(() => {});
  }

  /** Mute or unmute at once (unmuted in a click: the context starts there). */
  apply() {
    if (settings.muted) {
      if (!this.ctx) return;
      this.master!.gain.value = 0;
      this.hush();
      void this.ctx.suspend().catch(() => {});
      return;
    }
    const ctx = this.context(false);
    if (!ctx) return;
    this.master!.gain.value = 1;
    if (ctx.state === "suspended") void ctx.resume().catch(() => {});
  }

  play(name: EffectName) {
    if (settings.muted) return;
    const ctx = this.context(false);
    if (!ctx || !this.master) return;
    if (ctx.state !== "running") {
      // Still starting (just made, or resumed): played once it runs, unless that is too late to
      // belong to what happened (a context never let start plays nothing).
      const asked = performance.now();
      void ctx
        .resume()
        .then(() => ctx.state === "running" && performance.now() - asked < LATE_MS && this.play(name))
        .catch(() => {});
      return;
    }
    const effect: Effect = EFFECTS[name];
    const t0 = ctx.currentTime + 0.01;
    const voices: OscillatorNode[] = [];
    if (effect.jingle) {
      this.hush();
      this.ringing = voices;
    }
    for (const [hz, at, length] of effect.notes) {
      const start = t0 + at;
      const end = start + length;
      const osc = ctx.createOscillator();
      osc.type = effect.wave;
      osc.frequency.value = hz;
      if (effect.glide) {
        osc.frequency.setValueAtTime(hz, start);
        osc.frequency.exponentialRampToValueAtTime(hz * effect.glide, end);
      }
      const env = ctx.createGain();
      env.gain.setValueAtTime(0.0001, start);
      env.gain.linearRampToValueAtTime(effect.gain, start + 0.01);
      env.gain.exponentialRampToValueAtTime(0.0001, end);
      osc.connect(env).connect(this.master);
      osc.start(start);
      osc.stop(end + 0.02);
      osc.onended = () => {
        env.disconnect();
        const i = this.ringing.indexOf(osc);
        if (i >= 0) this.ringing.splice(i, 1);
      };
      voices.push(osc);
    }
  }

  /** Where music goes (client/src/music.ts): the running context and its master gain; null while muted or not started. */
  output(): { ctx: AudioContext; master: GainNode } | null {
    if (settings.muted || !this.ctx || !this.master || this.ctx.state !== "running") return null;
    return { ctx: this.ctx, master: this.master };
  }

  /** Stop the jingle ringing now. */
  private hush() {
    for (const o of this.ringing) {
      try {
        o.stop();
      } catch {
        // Never started: nothing rings.
      }
    }
    this.ringing = [];
  }

  /** The context, made only in (or after) a user's gesture. */
  private context(inGesture: boolean): AudioContext | null {
    if (this.ctx) return this.ctx;
    const activated = inGesture || (navigator as { userActivation?: { hasBeenActive: boolean } }).userActivation?.hasBeenActive === true;
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!activated || !Ctx) return null;
    try {
      this.ctx = new Ctx();
    } catch {
      return null;
    }
    this.master = this.ctx.createGain();
    this.master.connect(this.ctx.destination);
    return this.ctx;
  }
}

/** A speaker drawn in SVG (no emoji font needed): with its sound waves, or crossed out. */
const SPEAKER = '<path d="M2 6h3l4-3v10l-4-3H2z" fill="currentColor"/>';
const SPEAKER_ON = `<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">${SPEAKER}<path d="M11 5.5a3.5 3.5 0 0 1 0 5M12.5 3.5a6 6 0 0 1 0 9" fill="none" stroke="currentColor" stroke-width="1.4"/></svg>`;
const SPEAKER_OFF = `<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">${SPEAKER}<path d="M11 5.5l4 5M15 5.5l-4 5" fill="none" stroke="currentColor" stroke-width="1.4"/></svg>`;

/** The speaker button under the zoom buttons: it mutes and unmutes (kept in settings). */
function installMuteButton() {
  const button = h("button", { id: "mute", className: "mute", onclick: () => setSettings({ muted: !settings.muted }) });
  const show = () => {
    button.innerHTML = settings.muted ? SPEAKER_OFF : SPEAKER_ON;
    button.title = settings.muted ? "Sound is off: click to turn it on" : "Sound is on: click to mute";
    button.setAttribute("aria-pressed", String(settings.muted));
  };
  show();
  onSettings(show);
  byId("zoom-out").parentElement!.append(button);
}

/**
 * Sound effects in play (not in watch mode, which never calls this): a level-up, a quest
 * completed, a blow struck or taken, an item picked up, a menu entry clicked. The context starts
 * on the first click or key press after joining.
 */
export function installSound(game: Game): Sound {
  const sound = new Sound();
  const net = game.net;
  const unlock = () => sound.unlock();
  document.addEventListener("pointerdown", unlock, true);
  document.addEventListener("keydown", unlock, true);
  onSettings(() => sound.apply());
  installMuteButton();

  net.on("skill:levelup", () => sound.play("levelUp"));
  net.on("quest:completed", () => sound.play("questComplete"));
  net.on("combat:hit", (hit) => {
    const me = game.me?.id;
    if (hit.attackerId === me) sound.play("hitDealt");
    else if (hit.targetId === me) sound.play("hitTaken");
  });
  // An item picked up: the pack holds more than before, right after going for a ground item.
  const held = (inv: Array<{ quantity: number }>) => inv.reduce((n, s) => n + s.quantity, 0);
  let before = { action: game.me?.action ?? null, held: held(game.me?.inventory ?? []) };
  net.on("player:sync", (s) => {
    const now = { action: s.action, held: held(s.inventory) };
    if (now.held > before.held && (before.action === "pickup" || now.action === "pickup")) sound.play("pickup");
    before = now;
  });
  // A click on an entry of the right-click (or slot) menu.
  // (Captured: an entry's own handler stops the click there.)
  byId("menu").addEventListener(
    "click",
    (ev) => {
      if (ev.target instanceof Element && ev.target.closest("button")) sound.play("click");
    },
    true,
  );
  return sound;
}
