import type { Catalogue } from "./api.js";
import type { Game } from "./game.js";
import { onSettings, settings } from "./settings.js";
import type { Sound } from "./sound.js";

export type Track = Catalogue["music"][number];

/** A note of a tune: its frequency (Hz), when it starts and how long it rings, in beats from the loop's start. */
type TuneNote = readonly [hz: number, beat: number, beats: number];

/** A track as played: its notes over one loop, the loop's length in beats and the tempo. */
export interface Tune {
  track: Track;
  beatSeconds: number;
  loopBeats: number;
  melody: TuneNote[];
  bass: TuneNote[];
}

/** A track lasts this long when the world does not say (music.json's `duration`). */
const DEFAULT_SECONDS = 180;
/** How far ahead notes are handed to the audio clock, and how often the next ones are (ms). */
const AHEAD_S = 0.6;
const EVERY_MS = 200;
const MELODY_GAIN = 0.045;
const BASS_GAIN = 0.05;
/** Scale degrees as semitones over the root: a major pentatonic for the calm moods, a minor one for the tense. */
const MAJOR = [0, 2, 4, 7, 9];
const MINOR = [0, 3, 5, 7, 10];
const ROOTS = [196, 220, 246.94, 261.63];

/** A small seeded random source (mulberry32), so a track's tune is the same at every visit. */
function seeded(text: string): () => number {
  let a = 0;
  for (let i = 0; i < text.length; i++) a = (Math.imul(a, 31) + text.charCodeAt(i)) | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const tense = (t: Track) => t.category === "combat" || /tense|dark|grim|fierce/i.test(t.mood ?? "");

/**
 * A track's tune, made from its id: a scale by its mood (minor when tense, else major), a tempo by
 * its category (quicker for a fight), a root note, and an eight-bar melody walking the scale over a
 * bass on each bar's first and third beats.
 */
export function tuneOf(track: Track): Tune {
  const rnd = seeded(track.id);
  const scale = tense(track) ? MINOR : MAJOR;
  const root = ROOTS[Math.floor(rnd() * ROOTS.length)]!;
  const bpm = track.category === "combat" ? 132 : /calm|quiet/i.test(track.mood ?? "") ? 72 : 88;
  const hz = (degree: number, octave: number) => {
    const d = ((degree % scale.length) + scale.length) % scale.length;
    const up = Math.floor(degree / scale.length) + octave;
    return root * 2 ** ((scale[d]! + 12 * up) / 12);
  };
  const melody: TuneNote[] = [];
  const bass: TuneNote[] = [];
  const bars = 8;
  let degree = 2;
  for (let beat = 0; beat < bars * 4; beat += 0.5) {
    if (beat % 2 === 0) bass.push([hz([0, 3, 4, 0][Math.floor(beat / 4) % 4]!, -1), beat, 1.8]);
    if (rnd() < 0.35) continue;
    degree = Math.max(0, Math.min(9, degree + Math.floor(rnd() * 5) - 2));
    const long = rnd() < 0.3 && beat % 1 === 0;
    melody.push([hz(degree, 1), beat, long ? 0.9 : 0.45]);
  }
  return { track, beatSeconds: 60 / bpm, loopBeats: bars * 4, melody, bass };
}

/**
 * Music made in code (no audio files: the world's music.json names mp3 files that only a build
 * downloads): each track of the catalogue's `music` is played as the tune `tuneOf` makes from it,
 * looping. The normal tracks take turns, each for its length; a combat track plays while the
 * player fights. "Music" in Options turns it off (kept in settings), and the sound's mute silences
 * it with the effects. Not in watch mode, which never installs it.
 */
export class Music {
  /** The track playing now, null when none is (off, muted, or the audio not started yet). */
  playing: Track | null = null;
  private tune: Tune | null = null;
  /** When the tune's current loop started (audio clock) and the next note to hand over. */
  private loopStart = 0;
  private next = { melody: 0, bass: 0 };
  private out: GainNode | null = null;
  private voices = new Set<OscillatorNode>();
  private normalAt = 0;
  private normalSince = 0;
  private fighting = false;
  /** The track playing changed since `takeChange` was last asked. */
  private changed = false;

  /** Did the track playing change since the last call? */
  takeChange(): boolean {
    const was = this.changed;
    this.changed = false;
    return was;
  }

  constructor(
    private readonly sound: Sound,
    private readonly tracks: () => Track[],
  ) {}

  /** The player fights (or not): a combat track while it does. */
  setFighting(fighting: boolean) {
    this.fighting = fighting;
  }

  /** Called every EVERY_MS: start, switch or stop the tune, and hand the next notes to the audio clock. */
  step() {
    const output = settings.music ? this.sound.output() : null;
    if (!output) return this.stop();
    const { ctx, master } = output;
    const wanted = this.choose(ctx.currentTime);
    if (!wanted) return this.stop();
    if (wanted.id !== this.tune?.track.id) this.start(wanted, ctx, master);
    this.schedule(ctx);
  }

  private choose(now: number): Track | null {
    const all = this.tracks();
    const combat = all.filter((t) => t.category === "combat");
    const normal = all.filter((t) => t.category !== "combat");
    if (this.fighting && combat.length) return combat[0]!;
    if (!normal.length) return null;
    const current = normal[this.normalAt % normal.length]!;
    if (this.normalSince === 0) this.normalSince = now;
    if (now - this.normalSince > (current.seconds ?? DEFAULT_SECONDS)) {
      this.normalAt++;
      this.normalSince = now;
    }
    return normal[this.normalAt % normal.length]!;
  }

  private start(track: Track, ctx: AudioContext, master: GainNode) {
    this.stop();
    this.changed = true;
    this.out = ctx.createGain();
    this.out.connect(master);
    this.tune = tuneOf(track);
    this.playing = track;
    this.loopStart = ctx.currentTime + 0.05;
    this.next = { melody: 0, bass: 0 };
  }

  private schedule(ctx: AudioContext) {
    const tune = this.tune!;
    const until = ctx.currentTime + AHEAD_S;
    const loopSeconds = tune.loopBeats * tune.beatSeconds;
    for (;;) {
      const m = tune.melody[this.next.melody];
      const b = tune.bass[this.next.bass];
      const mAt = m ? this.loopStart + m[1] * tune.beatSeconds : Infinity;
      const bAt = b ? this.loopStart + b[1] * tune.beatSeconds : Infinity;
      if (!m && !b) {
        // The loop is handed over whole: the next one starts where it ends.
        this.loopStart += loopSeconds;
        this.next = { melody: 0, bass: 0 };
        continue;
      }
      if (Math.min(mAt, bAt) > until) return;
      if (mAt <= bAt) {
        this.voice(ctx, "triangle", MELODY_GAIN, m![0], mAt, m![2] * tune.beatSeconds);
        this.next.melody++;
      } else {
        this.voice(ctx, "sine", BASS_GAIN, b![0], bAt, b![2] * tune.beatSeconds);
        this.next.bass++;
      }
    }
  }

  private voice(ctx: AudioContext, wave: OscillatorType, gain: number, hz: number, at: number, length: number) {
    const start = Math.max(at, ctx.currentTime);
    const osc = ctx.createOscillator();
    osc.type = wave;
    osc.frequency.value = hz;
    const env = ctx.createGain();
    env.gain.setValueAtTime(0.0001, start);
    env.gain.linearRampToValueAtTime(gain, start + 0.02);
    env.gain.exponentialRampToValueAtTime(0.0001, start + length);
    osc.connect(env).connect(this.out!);
    osc.start(start);
    osc.stop(start + length + 0.02);
    this.voices.add(osc);
    osc.onended = () => {
      env.disconnect();
      this.voices.delete(osc);
    };
  }

  /** Stop at once: what was handed to the audio clock is cut off. */
  stop() {
    if (!this.tune) return;
    this.changed = true;
    for (const o of this.voices) {
      try {
        o.stop();
      } catch {
        // Not started yet: it never sounds.
      }
    }
    this.voices.clear();
    this.out?.disconnect();
    this.out = null;
    this.tune = null;
    this.playing = null;
  }
}

/** The page's music, once installed. */
let current: Music | null = null;

/** What the Options panel says of the music: the track playing, or why none is. */
export function nowPlayingText(): string {
  if (!settings.music) return "";
  if (settings.muted) return " (silent: the sound is off)";
  return current?.playing ? ` — now playing: ${current.playing.name}` : "";
}

/** The music in play: the catalogue's tracks, a combat track while the player fights. */
export function installMusic(game: Game, sound: Sound): Music {
  const music = new Music(sound, () => game.catalogue.music ?? []);
  current = music;
  game.net.on("player:sync", (s) => music.setFighting(s.action === "attack"));
  const tick = () => {
    music.step();
    if (!music.takeChange()) return;
    const shown = document.getElementById("now-playing");
    if (shown) shown.textContent = nowPlayingText();
  };
  onSettings(tick);
  setInterval(tick, EVERY_MS);
  return music;
}
