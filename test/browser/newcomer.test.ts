import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { DrawnMarker } from "../../client/src/view.js";
import { setRng, theWorld, ticks } from "../helpers/worldRoom.js";
import { browserSuite, screenshot } from "./browser.js";

/** A quest marker as the page draws it, in page coordinates. */
type Marker = DrawnMarker;

/**
 * The must-show journey, in Debian's Chromium against a real server: a newcomer opens the page,
 * plays as a guest and finishes "The Warden's Letter" and "Mudfoot Menace" with nothing but
 * clicks on what the page shows: the markers on the map and the minimap, the answers of the
 * conversations, the tabs. The page is read through what it shows (the journal, the chat, the
 * dialogue) and through its read-only test aid, `window.arenaDrawn`, which says where the quest
 * markers are drawn so that they can be clicked; nothing acts through a handle. The world's dice
 * are fixed while it fights (each of the newcomer's blows lands for 1, each goblin's misses, so a
 * goblin falls in about 12 s; with real dice a fight takes 31 s at the median and up to 85, which
 * `npm run bench:newcomer` measures) and while it chops (each swing cuts a log, as the woodcutting
 * test does), so that the journey's time is the page's and not the dice's.
 * Screenshots of the journey go to test-results/screenshots (newcomer-*.png; docs/screenshots
 * keeps a set of them).
 */
describe("web client in Chromium: a newcomer's first quests, guided by the markers", function () {
  this.timeout(600_000);
  const suite = browserSuite();

  const markers = (page: Page): Promise<Marker[]> => page.evaluate(() => (window as any).arenaDrawn.markers());
  const player = (page: Page): Promise<{ x: number; z: number; moving: boolean } | null> => page.evaluate(() => (window as any).arenaDrawn.player());
  const journal = (page: Page, questId: string) => page.locator(`#panel [data-quest="${questId}"]`);
  const stageOf = async (page: Page, questId: string) =>
    (
      (await journal(page, questId)
        .locator(".stage")
        .textContent()
        .catch(() => null)) ?? ""
    ).trim();
  const chatLines = (page: Page, text: string) => page.locator(".chat .log div", { hasText: text }).count();

  /** Until a marker is drawn on the map over its target: click the minimap's marker (walking there), and wait to get there. */
  async function walkToMarker(page: Page, label: RegExp) {
    for (let leg = 0; leg < 12; leg++) {
      const all = await markers(page);
      const onMap = all.find((m) => m.where === "map" && !m.edge);
      if (onMap) {
        assert.match(onMap.label, label);
        return;
      }
      const mini = all.find((m) => m.where === "minimap");
      assert.ok(mini, `a marker on the minimap (${JSON.stringify(all)})`);
      assert.match(mini.label, label);
      const before = await player(page);
      await page.mouse.click(mini.x, mini.y);
      // Walking until a marker shows on the map, or the walk is over.
      await page.waitForFunction(
        (from) => {
          const drawn = (window as any).arenaDrawn;
          const me = drawn.player();
          const moved = me && (me.x !== from?.x || me.z !== from?.z);
          return drawn.markers().some((m: Marker) => m.where === "map" && !m.edge) || (moved && !me.moving);
        },
        before,
        { timeout: 90_000 },
      );
    }
    assert.fail(`never reached the marker ${label}`);
  }

  /**
   * The marker on the map, read from a frame in which the view has settled (the player stands
   * still, the view centred on its tile): a marker read while the view glides after a walk would
   * be clicked where it no longer is.
   */
  async function mapMarker(page: Page): Promise<Marker> {
    const handle = await page.waitForFunction(
      () => {
        const drawn = (window as any).arenaDrawn;
        return drawn.settled() ? (drawn.markers().find((k: Marker) => k.where === "map" && !k.edge) ?? null) : null;
      },
      null,
      { timeout: 60_000 },
    );
    return (await handle.jsonValue()) as Marker;
  }

  /**
   * Mudfoot Menace's stage moved on past `stage` ("next"), or a marker labelled `label` is drawn
   * ("marker"): the markers follow a stage's end at once, the journal within a tick.
   */
  async function stageOrMarker(page: Page, stage: string, label: string): Promise<"next" | "marker"> {
    const outcome = await page.waitForFunction(
      ([s, l]) =>
        !(document.querySelector('#panel [data-quest="mudfoot_menace"] .stage')?.textContent ?? "").trim().startsWith(s)
          ? "next"
          : (window as any).arenaDrawn.markers().some((k: Marker) => k.label.includes(l))
            ? "marker"
            : false,
      [stage, label] as const,
      { timeout: 30_000 },
    );
    return (await outcome.jsonValue()) as "next" | "marker";
  }

  /** Walk to the marker and click what it stands over (its first action: talk, attack, chop). */
  async function clickMarker(page: Page, label: RegExp): Promise<Marker> {
    await walkToMarker(page, label);
    let m = await mapMarker(page);
    if (!m.entityId) {
      // A place from the map (its npc or tree not in sight yet): walk onto it first.
      await page.mouse.click(m.x, m.y);
      await page.waitForFunction(() => (window as any).arenaDrawn.markers().some((k: Marker) => k.where === "map" && !k.edge && k.entityId), null, {
        timeout: 60_000,
      });
      m = await mapMarker(page);
    }
    await page.mouse.click(m.x, m.y);
    return m;
  }

  /** Talk to the npc the marker stands over, and wait for what they say. */
  async function talkVia(page: Page, label: RegExp, npcName: string) {
    await clickMarker(page, label);
    await page.locator("#dialog h3", { hasText: npcName }).waitFor({ timeout: 60_000 });
  }

  /**
   * Right-click a figure where the page draws it now and choose a menu entry. Its place is read once
   * the view has settled (the player still, the view centred on its tile); should the menu not offer
   * the entry (a zoom or a step moved the figure from under the pointer), it is cancelled and the
   * figure looked for again.
   */
  async function rightClickFigure(page: Page, name: string, entry: string) {
    for (let attempt = 0; attempt < 5; attempt++) {
      const handle = await page.waitForFunction((wanted) => {
        const drawn = (window as any).arenaDrawn;
        return drawn.settled() ? (drawn.figures().find((f: { name: string }) => f.name === wanted) ?? null) : null;
      }, name);
      const at = (await handle.jsonValue()) as { x: number; y: number };
      await page.mouse.click(at.x, at.y, { button: "right" });
      const choice = page.locator("#menu button", { hasText: entry });
      if (
        await choice
          .first()
          .waitFor({ timeout: 3_000 })
          .then(
            () => true,
            () => false,
          )
      ) {
        await choice.first().click();
        return;
      }
      await page
        .locator("#menu button", { hasText: "Cancel" })
        .click()
        .catch(() => {});
    }
    assert.fail(`no "${entry}" in the menu of ${name}`);
  }

  /** The quest-complete window, opened once the conversation is closed: it names the quest and a reward; its Close closes it. */
  async function closeQuestWindow(page: Page, quest: string, reward: string) {
    const box = page.locator("#quest-complete");
    await box.locator(".quest-complete-name", { hasText: quest }).waitFor();
    assert.match((await box.locator(".rewards").textContent()) ?? "", new RegExp(reward));
    await box.locator("button", { hasText: "Close" }).click();
    await box.waitFor({ state: "hidden" });
  }

  const answer = (page: Page, text: string) => page.locator("#dialog button", { hasText: text }).first().click();
  async function done(page: Page) {
    await answer(page, "Continue");
    await page.locator("#dialog").waitFor({ state: "hidden" });
  }

  /** What the journey is doing now, named in a failure (a step that never ends is stopped by `JOURNEY_MS`). */
  let step = "opening the page";
  /** Under mocha's timeout, so that a stuck step is named, its chat printed and a screenshot taken. */
  const JOURNEY_MS = 540_000;

  it("a guest plays through The Warden's Letter and Mudfoot Menace by following the markers", async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1060, height: 760 } });
    let timer: NodeJS.Timeout | undefined;
    try {
      const stuck = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the journey took over ${JOURNEY_MS / 60_000} minutes`)), JOURNEY_MS);
      });
      await Promise.race([journey(page), stuck]);
    } catch (err) {
      await screenshot(page, "newcomer-failed");
      throw new Error(`${(err as Error).message} (while ${step})\nchat: ${(await page.locator(".chat .log").textContent()) ?? ""}`);
    } finally {
      clearTimeout(timer);
    }
  });

  /** How many of an item the newcomer's pack holds, as the server has it. */
  function carried(world: Awaited<ReturnType<typeof theWorld>>, itemId: string): number {
    const me = [...world.world.players.values()].find((p) => p.name === "Newcomer")!;
    return me.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
  }

  async function journey(page: Page) {
    const problems: string[] = [];
    page.on("pageerror", (err) => problems.push(err.message));
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    await page.goto(suite.server.url);
    await page.fill("#name", "Newcomer");
    await page.click("#play");
    await page.waitForSelector("#game:not([hidden])", { timeout: 20_000 });
    const world = await theWorld();
    const dice = (world.world as unknown as { rng: unknown }).rng;

    // The first visit: a hint names the first quest's giver; the markers point at him.
    const hint = page.locator("#hint");
    await hint.waitFor();
    assert.match((await hint.textContent()) ?? "", /Warden Holt/);
    await page.waitForFunction(() => (window as any).arenaDrawn.markers().some((m: Marker) => m.where === "minimap"));
    await page.click('#tabs button:has-text("Quests")');
    await journal(page, "the_wardens_letter").waitFor();
    await screenshot(page, "newcomer-1-arrival");
    await hint.locator("button", { hasText: "Got it" }).click();
    await hint.waitFor({ state: "hidden" });

    // The Warden's Letter: the warden gives a sealed letter for the bank.
    step = "taking the warden's letter";
    await talkVia(page, /talk to Warden Holt/, "Warden Holt");
    await answer(page, "What do you need?");
    await page.locator("#dialog p", { hasText: "sealed letter" }).waitFor();
    await screenshot(page, "newcomer-2-warden");
    await answer(page, "I'll take it.");
    await page.locator("#dialog p", { hasText: "Take this to Odessa" }).waitFor();
    await done(page);
    await journal(page, "the_wardens_letter").locator(".stage", { hasText: "Hand the sealed letter to Odessa" }).waitFor();
    // The journal's target follows the stage; wait for it rather than read it once.
    await journal(page, "the_wardens_letter")
      .locator(".target", { hasText: /Talk to Odessa the Banker/ })
      .waitFor();

    step = "bringing the letter to Odessa";
    await talkVia(page, /Talk to Odessa the Banker/, "Odessa the Banker");
    await page.locator("#dialog p", { hasText: "The warden's seal, unbroken" }).waitFor();
    await screenshot(page, "newcomer-3-bank");
    await answer(page, "Goodbye.");
    await done(page);
    await journal(page, "the_wardens_letter").locator(".stage", { hasText: "Tell Warden Holt the letter arrived" }).waitFor();
    assert.equal(carried(world, "sealed_letter"), 0, "the letter stayed with Odessa");

    step = "telling the warden the letter arrived";
    await talkVia(page, /Talk to Warden Holt/, "Warden Holt");
    await page.locator("#dialog p", { hasText: "for your honesty" }).waitFor();
    await page.locator(".chat .log div", { hasText: "Quest complete: The Warden's Letter" }).waitFor();
    await done(page);
    await closeQuestWindow(page, "The Warden's Letter", "Bronze Shortsword");
    await journal(page, "the_wardens_letter").and(page.locator('[data-status="completed"]')).waitFor();

    // Mudfoot Menace: offered by the same warden, the marker on him again.
    step = "taking Mudfoot Menace";
    await journal(page, "mudfoot_menace").waitFor();
    await talkVia(page, /talk to Warden Holt/, "Warden Holt");
    await page.locator("#dialog p", { hasText: "Goblins from Mudfoot Fields" }).waitFor();
    await answer(page, "Consider it done.");
    await done(page);
    await journal(page, "mudfoot_menace").locator(".stage", { hasText: "Drive off three goblins" }).waitFor();

    // Before the fields, as a careful newcomer does: wield the reward's sword as the chat's hint says, and buy shrimp from Pell.
    await page.locator(".chat .log div", { hasText: "Wield your new bronze shortsword" }).waitFor();
    await page.click('#tabs button:has-text("Pack")');
    // A click on a weapon wields it (the slot's first thing).
    await page.click('.slot[data-item="bronze_shortsword"]');
    await page.locator('.slot[data-item="bronze_shortsword"]').waitFor({ state: "detached" });
    step = "buying shrimp from Pell";
    await page.click("#zoom-out");
    await page.click("#zoom-out");
    await rightClickFigure(page, "Pell the Trader", "Trade Pell the Trader");
    await page.locator("#dialog h3", { hasText: "Pell" }).waitFor({ timeout: 60_000 });
    // The shelf's menu: Buy-X, the amount typed in the amount box.
    await page.click('#dialog [data-shelf="shrimp"]', { button: "right" });
    await page.click('#menu button:has-text("Buy-X… Shrimp")');
    await page.locator("#amount:not([hidden]) input").fill("10");
    await page.keyboard.press("Enter");
    await page.locator(".chat .log div", { hasText: "You bought 10 Shrimp" }).waitFor();
    await screenshot(page, "newcomer-4-store");
    await page.click('#dialog button:has-text("Close")');
    await page.locator("#dialog").waitFor({ state: "hidden" });
    await page.click("#zoom-in");
    await page.click("#zoom-in");
    await page.click('#tabs button:has-text("Quests")');

    // Three goblins: the markers lead to Mudfoot Fields, then over the goblins themselves. The
    // dice at one half: the newcomer's every blow lands for 1, a goblin's misses, no one wanders.
    setRng(world, 0.5);
    await page.click("#run");
    let shotFight = false;
    for (let attempt = 1; (await stageOf(page, "mudfoot_menace")).startsWith("Drive off"); attempt++) {
      step = `fighting goblins (attempt ${attempt}, ${await chatLines(page, "You defeated the Goblin")} defeated)`;
      assert.ok(attempt <= 40, "three goblins defeated within 40 clicks on their markers");
      const kills = await chatLines(page, "You defeated the Goblin");
      // The last goblin may have fallen since the journal was read.
      if ((await stageOrMarker(page, "Drive off", "Defeat 3 Goblins")) === "next") break;
      const m = await clickMarker(page, /Defeat 3 Goblins/);
      assert.ok(m.entityId, "the marker stands over a goblin");
      // The status line says "attack" once the click reached the goblin; a goblin that stepped away
      // from under the pointer took a walk instead: look for the marker again.
      const attacking = await page
        .waitForFunction(() => /· attack/.test(document.getElementById("status")?.textContent ?? ""), null, { timeout: 15_000 })
        .then(
          () => true,
          () => false,
        );
      if (!attacking) continue;
      if (!shotFight) {
        // The first blows (hit splats on the view; the fight's xp is told at the kill).
        await page
          .waitForFunction(() => ((window as any).arena.view.splats?.length ?? 0) > 0, null, { timeout: 60_000 })
          .catch(async (err) => {
            await screenshot(page, "newcomer-failed");
            throw new Error(`no fight: ${(await page.locator(".chat .log").textContent()) ?? ""} (${err.message})`);
          });
        await screenshot(page, "newcomer-5-goblins");
        shotFight = true;
      }
      // That goblin falls (or another marker is followed if someone else took it).
      await page.waitForFunction(
        ([n, id]) =>
          Array.from(document.querySelectorAll(".chat .log div")).filter((d) => d.textContent?.includes("You defeated the Goblin")).length > (n as number) ||
          !(window as any).arenaDrawn.markers().some((k: Marker) => k.entityId === id),
        [kills, m.entityId] as const,
        { timeout: 120_000 },
      );
    }
    await journal(page, "mudfoot_menace").locator(".stage", { hasText: "Cut three logs" }).waitFor();
    // A fight's xp is one line at the kill, not a line a blow.
    assert.ok((await chatLines(page, "xp)")) >= 1, "the kills' lines carry the fight's xp");
    assert.equal(await chatLines(page, "constitution xp ("), 0, "no line per blow");

    // Three logs: the marker shows the nearest standing tree; a felled one is a stump, and it moves on.
    // Every roll of the world succeeds meanwhile: each swing cuts a log, and each tree falls after one.
    // First, any goblin still fighting the newcomer falls (at the fight's dice): with every roll at
    // zero a blow lands for nothing, and a fight that goes on (auto-retaliate) would never end.
    step = "finishing a goblin still fighting back";
    const me = [...world.world.players.values()].find((p) => p.name === "Newcomer")!;
    const fighting = () => [...world.world.npcs.values()].some((n) => n.target === me.id && n.deadUntilTick == null) || me.action?.type === "attack";
    for (let tick = 0; fighting(); tick++) {
      assert.ok(tick < 100, "a goblin still fights the newcomer after 100 ticks");
      await ticks(world, 1);
    }
    setRng(world, 0);
    let shotChop = false;
    for (let attempt = 1; (await stageOf(page, "mudfoot_menace")).startsWith("Cut three logs"); attempt++) {
      step = `cutting logs (attempt ${attempt})`;
      assert.ok(attempt <= 20, "three logs cut within 20 clicks on tree markers");
      const before = await stageOf(page, "mudfoot_menace");
      if ((await stageOrMarker(page, "Cut three logs", "Gather 3 Logs")) === "next") break;
      const m = await clickMarker(page, /Gather 3 Logs/);
      await page.waitForFunction(
        ([text, id]) => {
          const stage = document.querySelector('#panel [data-quest="mudfoot_menace"] .stage')?.textContent?.trim();
          return stage !== text || !(window as any).arenaDrawn.markers().some((k: Marker) => k.entityId === id);
        },
        [before, m.entityId] as const,
        { timeout: 120_000 },
      );
      if (!shotChop) {
        await screenshot(page, "newcomer-6-chopping");
        shotChop = true;
      }
    }
    await journal(page, "mudfoot_menace").locator(".stage", { hasText: "Bring the three logs to Warden Holt" }).waitFor();
    (world.world as unknown as { rng: unknown }).rng = dice;
    const logs = () => carried(world, "logs");
    const logsBefore = logs();
    assert.ok(logsBefore >= 3, `${logsBefore} logs cut`);

    // Back to the warden for the reward.
    step = "bringing the logs to the warden";
    await talkVia(page, /Talk to Warden Holt/, "Warden Holt");
    await page.locator("#dialog p", { hasText: "Brindlemere is in your debt" }).waitFor();
    await page.locator(".chat .log div", { hasText: "Quest complete: Mudfoot Menace" }).waitFor();
    await done(page);
    await closeQuestWindow(page, "Mudfoot Menace", "250 Attack xp");
    await journal(page, "mudfoot_menace").and(page.locator('[data-status="completed"]')).waitFor();
    assert.equal(logs(), logsBefore - 3, "the warden took the three logs for the fence");
    await page.locator("#panel h3", { hasText: "Quest points: 2" }).waitFor();
    await screenshot(page, "newcomer-7-done");
    // No quest left: no marker.
    await page.waitForFunction(() => (window as any).arenaDrawn.markers().length === 0);

    // The server agrees.
    const id = [...world.world.players.values()].find((p) => p.name === "Newcomer")!.id;
    const quests = world.world.players.get(id)!.quests;
    assert.equal(quests.get("the_wardens_letter")?.completions, 1);
    assert.equal(quests.get("mudfoot_menace")?.completions, 1);
    assert.deepEqual(problems, [], "no errors in the page's console");
    await page.close();
  }
});
