import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { tuneOf, type Track } from "../../client/src/music.js";
import { EFFECTS } from "../../client/src/sound.js";
import { beginQuest, finishQuest, questDeed, questTalk } from "../../src/game/world/questing.js";
import { grantXp } from "../../src/game/world/xp.js";
import { givePack, theWorld } from "../helpers/worldRoom.js";
import { browserSuite, screenshot } from "./browser.js";

/** What the page's audio did, as the init script below counts it. */
interface AudioLog {
  /** AudioContexts made. */
  contexts: number;
  /** resume() calls. */
  resumed: number;
  /** The newest context's state. */
  state: string | null;
  /** The frequency of every oscillator started, in order. */
  started: number[];
}

/** Count the page's Web Audio: an init script wrapping AudioContext and OscillatorNode.start (`window.audioLog`). */
async function countAudio(page: Page) {
  await page.addInitScript(() => {
    const log = { contexts: 0, resumed: 0, ctx: null as AudioContext | null, started: [] as number[] };
    (window as any).audioLog = log;
    const Real = window.AudioContext;
    window.AudioContext = class extends Real {
      constructor(options?: AudioContextOptions) {
        super(options);
        log.contexts++;
        log.ctx = this;
      }
      resume() {
        log.resumed++;
        return super.resume();
      }
    };
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
      log.started.push(this.frequency.value);
      return start.call(this, when);
    };
  });
}

/**
 * Sound and the quest-complete window, in Debian's Chromium against a real server. The page's
 * Web Audio is counted by an init script wrapping AudioContext and OscillatorNode.start; the
 * level-ups and the quests are brought about on the server by the world's own rules (experience
 * granted, quests started, their deeds counted and completed), so the page gets exactly the
 * messages the room sends.
 */
describe("web client in Chromium: sound effects and the quest-complete window", function () {
  this.timeout(180_000);
  const suite = browserSuite();

  const audio = (page: Page): Promise<AudioLog> =>
    page.evaluate(() => {
      const log = (window as any).audioLog;
      return { contexts: log.contexts, resumed: log.resumed, state: log.ctx?.state ?? null, started: [...log.started] };
    });

  /** The page's player on the server. */
  async function me(page: Page) {
    const id = await page.evaluate(() => (window as any).arena.game.net.playerId as string);
    const room = await theWorld();
    const p = room.world.players.get(id);
    assert.ok(p, "the player is in the world");
    return { room, p };
  }

  /** Level a skill from 1 to 2 (83 xp), as a gathering or a fight would, and wait for the page to say so. */
  async function levelUp(page: Page, skill: "woodcutting" | "mining" | "fishing" | "cooking") {
    const { room, p } = await me(page);
    grantXp(room.world, p, skill, 100);
    await page.locator(".chat .log div", { hasText: `your ${skill} level is now 2` }).waitFor();
  }

  const levelUpNotes = EFFECTS.levelUp.notes.map(([hz]) => hz);
  const questNotes = EFFECTS.questComplete.notes.map(([hz]) => hz);
  /** Wait until the page has started oscillators playing `notes` after the first `from`. */
  async function heard(page: Page, from: number, notes: number[]) {
    await page.waitForFunction(
      ([n, want]) => {
        const played: number[] = (window as any).audioLog.started.slice(n);
        return played.some((_, i) => want.every((hz, j) => played[i + j] !== undefined && Math.abs(played[i + j]! - hz) < 0.01));
      },
      [from, notes] as const,
      { timeout: 10_000 },
    );
  }

  it("plays a jingle on a level-up, nothing while muted, keeps the mute over a reload; the quest-complete window shows the rewards", async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1060, height: 760 } });
    const problems: string[] = [];
    page.on("pageerror", (err) => problems.push(err.message));
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    await countAudio(page);
    try {
      await page.goto(suite.server.url);
      await page.fill("#name", "Listener");
      await page.click("#play");
      await page.waitForSelector("#game:not([hidden])", { timeout: 20_000 });
      await page.locator("#mute").waitFor();
      assert.equal(await page.locator("#mute").getAttribute("aria-pressed"), "false", "sound is on at first");

      // The first gesture after joining starts the audio; a level-up then plays its jingle.
      await page.click('#tabs button:has-text("Skills")');
      await page.waitForFunction(() => (window as any).audioLog.ctx?.state === "running");
      const first = await audio(page);
      assert.equal(first.contexts, 1, "one AudioContext, made at the gesture (running from there)");
      await levelUp(page, "woodcutting");
      await heard(page, first.started.length, levelUpNotes);

      // Muted in the Options panel: the level-up's message comes, no oscillator is started.
      await page.click('#tabs button:has-text("Options")');
      await page.locator("#sound-on").uncheck();
      await page.waitForFunction(() => (window as any).audioLog.ctx?.state === "suspended");
      assert.equal(await page.locator("#mute").getAttribute("aria-pressed"), "true", "the mute button shows the mute");
      const muted = (await audio(page)).started.length;
      await levelUp(page, "mining");
      assert.equal((await audio(page)).started.length, muted, "nothing is played while muted");
      assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem("arena.settings") ?? "{}").muted), true, "the mute is kept in settings");

      // A reload signs back in, still muted: a gesture makes no audio at all, a level-up plays nothing.
      await page.reload();
      await page.waitForSelector("#game:not([hidden])", { timeout: 20_000 });
      await page.click('#tabs button:has-text("Options")');
      assert.equal(await page.locator("#sound-on").isChecked(), false, "the Options panel shows the sound off after the reload");
      assert.equal(await page.locator("#mute").getAttribute("aria-pressed"), "true");
      await levelUp(page, "fishing");
      assert.deepEqual(await audio(page), { contexts: 0, resumed: 0, state: null, started: [] }, "no audio while muted after the reload");

      // The mute button turns the sound on again, at once.
      await page.click("#mute");
      await page.waitForFunction(() => (window as any).audioLog.ctx?.state === "running");
      assert.equal(await page.locator("#sound-on").isChecked(), true, "the Options panel follows the button");
      assert.equal((await audio(page)).contexts, 1, "the context is made by the click that unmutes");
      const unmuted = (await audio(page)).started.length;
      await levelUp(page, "cooking");
      await heard(page, unmuted, levelUpNotes);

      // The Warden's Letter completed by its rules (started, the letter handed to Odessa, completed):
      // the window names it, its quest point and its rewards, with the fanfare; Escape closes it.
      const box = page.locator("#quest-complete");
      {
        const { room, p } = await me(page);
        const before = (await audio(page)).started.length;
        beginQuest(room.world, p, "the_wardens_letter");
        questTalk(room.world, p, { defId: "bank_clerk", name: "Odessa the Banker" });
        finishQuest(room.world, p, "the_wardens_letter");
        await box.waitFor();
        await heard(page, before, questNotes);
      }
      const text = (await box.textContent()) ?? "";
      assert.match(text, /Quest complete!/);
      assert.match(text, /You have completed The Warden's Letter/);
      assert.equal(await box.locator(".quest-points").textContent(), "+1 quest point");
      assert.equal(await box.locator('[data-item="bronze_shortsword"]').textContent(), "1 × Bronze Shortsword");
      assert.equal(await box.locator('[data-item="coins"]').textContent(), "150 × Coins");
      assert.equal(await box.locator('[data-item="iron_hatchet"]').textContent(), "1 × Iron Hatchet");
      assert.equal(await box.locator(".next-goal").count(), 0, "another quest is left: no next goal yet");
      await screenshot(page, "quest-complete-1");
      await page.keyboard.press("Escape");
      await box.waitFor({ state: "hidden" });

      // Mudfoot Menace, the last quest (three goblins, three logs, handed to the warden): xp per
      // skill among the rewards, and a next goal instead of nothing; Close closes it.
      {
        const { room, p } = await me(page);
        beginQuest(room.world, p, "mudfoot_menace");
        for (let i = 0; i < 3; i++) questDeed(room.world, p, { type: "kill", target: "goblin" });
        questDeed(room.world, p, { type: "gather", target: "logs", count: 3 });
        givePack(room, p.id, [["logs", 3]]);
        finishQuest(room.world, p, "mudfoot_menace");
      }
      await box.locator(".quest-complete-name", { hasText: "Mudfoot Menace" }).waitFor();
      assert.equal(await box.locator('[data-skill="attack"]').textContent(), "250 Attack xp");
      assert.equal(await box.locator('[data-item="coins"]').textContent(), "100 × Coins");
      assert.equal(await box.locator('[data-item="lamp_of_learning"]').textContent(), "1 × Lamp of Learning");
      assert.match((await box.locator(".next-goal").textContent()) ?? "", /every quest.*Next goal: train your .+ \(level \d+ now\).*hiscores/);
      await box.locator("button", { hasText: "Hiscores" }).waitFor();
      await screenshot(page, "quest-complete-2-last");
      await box.locator("button", { hasText: "Close" }).click();
      await box.waitFor({ state: "hidden" });
      // The journal says it too.
      await page.click('#tabs button:has-text("Quests")');
      await page.locator("#panel .next-goal", { hasText: "Next goal" }).waitFor();
      assert.deepEqual(problems, [], "no errors in the page's console");
    } catch (err) {
      await screenshot(page, "sound-failed");
      throw new Error(`${(err as Error).message}\nchat: ${(await page.locator(".chat .log").textContent()) ?? ""}`);
    } finally {
      await page.close();
    }
  });

  it("plays the world's music made in code: the normal track's tune from the first gesture, the combat track in a fight, nothing once Music is off", async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1060, height: 760 } });
    await countAudio(page);
    try {
      await page.goto(suite.server.url);
      await page.fill("#name", "Hummer");
      await page.click("#play");
      await page.waitForSelector("#game:not([hidden])", { timeout: 20_000 });
      const tracks = (await page.evaluate(() => (window as any).arena.game.catalogue.music)) as Track[];
      const morning = tracks.find((t) => t.category === "normal")!;
      const combat = tracks.find((t) => t.category === "combat")!;
      assert.ok(morning && combat, "the default world's music.json has a normal and a combat track");
      const notesOf = (t: Track) => {
        const tune = tuneOf(t);
        return new Set([...tune.melody, ...tune.bass].map(([hz]) => Math.round(hz * 100)));
      };

      // The first gesture starts the audio, and with it the first normal track, its notes those of its tune.
      await page.click('#tabs button:has-text("Options")');
      await page.locator("#now-playing", { hasText: `now playing: ${morning.name}` }).waitFor();
      await page.waitForFunction(() => (window as any).audioLog.started.length >= 8);
      const heardFirst = (await audio(page)).started;
      const tune = notesOf(morning);
      assert.ok(
        heardFirst.every((hz) => tune.has(Math.round(hz * 100))),
        `every note started is one of ${morning.name}'s (${heardFirst.join(", ")})`,
      );

      // A fight: the combat track.
      const { room, p } = await me(page);
      const goblin = [...room.world.npcs.values()].find((n) => room.world.data.npcs.get(n.defId)?.combat.attackable)!;
      p.action = { type: "attack", targetId: goblin.id };
      room.world.touchPlayer(p);
      await page.locator("#now-playing", { hasText: `now playing: ${combat.name}` }).waitFor();
      const from = (await audio(page)).started.length;
      await page.waitForFunction((n) => (window as any).audioLog.started.length >= n + 8, from);
      // (The fight's blows sound too.)
      const fightTune = new Set([...notesOf(combat), ...[EFFECTS.hitDealt, EFFECTS.hitTaken].map((e) => Math.round(e.notes[0][0] * 100))]);
      const heardFight = (await audio(page)).started.slice(from + 4);
      assert.ok(
        heardFight.every((hz) => fightTune.has(Math.round(hz * 100))),
        `the notes are ${combat.name}'s (${heardFight.join(", ")})`,
      );
      p.action = null;
      room.world.touchPlayer(p);

      // Music off (kept in settings): what sounds after is the level-up's jingle alone.
      await page.locator("#music-on").uncheck();
      await page.waitForFunction(() => document.getElementById("now-playing")?.textContent === "");
      assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem("arena.settings") ?? "{}").music), false, "kept in settings");
      const off = (await audio(page)).started.length;
      await levelUp(page, "woodcutting");
      await heard(page, off, levelUpNotes);
      assert.deepEqual(
        (await audio(page)).started.slice(off).map((hz) => Math.round(hz)),
        levelUpNotes.map((hz) => Math.round(hz)),
        "no music once it is off, the sound effects still play",
      );
    } finally {
      await page.close();
    }
  });
});
