import type { QuestTargetView, QuestView } from "../../src/protocol/index.js";
import { callAs } from "./api.js";
import type { Game } from "./game.js";

/** A quest marker: where the stage in force is done. `entityId`: the npc or resource drawn there, null for a place from the map. */
export interface Marker {
  x: number;
  z: number;
  entityId: string | null;
  label: string;
}

/** The quest the markers follow, and what its stage asks. */
export interface Tracked {
  quest: QuestView;
  target: QuestTargetView;
  /** "Talk to Warden Holt", "Kill 3 Goblins (1/3)", "Gather 3 Logs from a Tree". */
  doing: string;
}

const MAX_KILL_MARKERS = 4;

/**
 * Where to go next. The journal (`player:sync`) names the stage in force of every quest started,
 * and its target (an npc to talk to, an npc kind to kill, an item to gather); the character's
 * quest list (GET /api/characters/:id/quests) adds the quests not started yet, each pointing at
 * the npc who gives it. The first quest under way is followed, else the first not started. Its
 * target is found among what the room shows (the npcs and resources in view), else at the
 * places the map names (the npc's post or spawn, the resources' spots), nearest first.
 */
export class Guidance {
  /** Every quest of the world with where the character stands in it (the REST list). */
  all: QuestView[] = [];
  private readonly resourcesFor = new Map<string, Set<string>>();
  private readonly listeners: Array<() => void> = [];

  constructor(private readonly game: Game) {
    this.indexResources();
    const net = game.net;
    net.on("quest:started", () => void this.refresh());
    net.on("quest:completed", () => void this.refresh());
    net.on("player:sync", () => this.changed());
  }

  /** Which resources give each item (again after the game data changed). */
  indexResources() {
    this.resourcesFor.clear();
    for (const r of this.game.catalogue.resources) {
      for (const item of r.yields) {
        const set = this.resourcesFor.get(item) ?? new Set();
        set.add(r.id);
        this.resourcesFor.set(item, set);
      }
    }
  }

  onChange(fn: () => void) {
    this.listeners.push(fn);
  }

  private changed() {
    for (const fn of this.listeners) fn();
  }

  /** Read the character's quest list again (the quests not started). */
  async refresh() {
    try {
      const body = await callAs<{ quests: QuestView[] }>(this.game.net.token, "GET", `/api/characters/${encodeURIComponent(this.game.me.id)}/quests`);
      this.all = body.quests;
      this.changed();
    } catch (err) {
      this.game.log(`The quest list could not be read: ${err instanceof Error ? err.message : String(err)}`, "error");
    }
  }

  /** The quests not started yet, in the world's order. */
  notStarted(): QuestView[] {
    const started = new Set(this.game.me.quests.quests.map((q) => q.questId));
    return this.all.filter((q) => q.status === "not_started" && !started.has(q.questId));
  }

  tracked(): Tracked | null {
    const journal = this.game.me.quests.quests;
    const quest = journal.find((q) => (q.status === "in_progress" || q.status === "ready_to_complete") && q.target) ?? this.notStarted().find((q) => q.target);
    if (!quest?.target) return null;
    return { quest, target: quest.target, doing: this.describe(quest, quest.target) };
  }

  /** What a stage's target asks, in words. */
  describe(quest: QuestView, target: QuestTargetView): string {
    const game = this.game;
    const left = quest.needed > 0 ? ` (${quest.count}/${quest.needed})` : "";
    switch (target.type) {
      case "talk":
        return `${quest.status === "not_started" ? "Start it: talk" : "Talk"} to ${game.npc(target.id)?.name ?? target.id}`;
      case "kill":
        return `Defeat ${quest.needed || ""} ${game.npc(target.id)?.name ?? target.id}${quest.needed > 1 ? "s" : ""}${left}`.replace("  ", " ");
      case "gather": {
        const from = [...(this.resourcesFor.get(target.id) ?? [])].map((id) => game.catalogue.resources.find((r) => r.id === id)?.name).filter(Boolean);
        return `Gather ${quest.needed || ""} ${game.itemName(target.id)}${from.length ? ` from a ${from[0]}` : ""}${left}`.replace("  ", " ");
      }
      default:
        return `Make ${game.itemName(target.id)}${left}`;
    }
  }

  /** Where the markers go now, nearest to the player first. */
  markers(): Marker[] {
    const t = this.tracked();
    if (!t) return [];
    const game = this.game;
    const state = game.net.state;
    const me = game.me.position;
    const dist = (m: { x: number; z: number }) => Math.max(Math.abs(m.x - me.x), Math.abs(m.z - me.z));
    const label = t.doing;
    const live: Marker[] = [];
    if (t.target.type === "talk" || t.target.type === "kill") {
      state.npcs?.forEach((n) => {
        if (n.npcId === t.target.id && n.state !== "dead") live.push({ x: n.x, z: n.z, entityId: n.id, label });
      });
      live.sort((a, b) => dist(a) - dist(b));
      if (live.length) return live.slice(0, t.target.type === "kill" ? MAX_KILL_MARKERS : 1);
      const places = game.map.npcs.filter((n) => n.npcId === t.target.id).map((n) => ({ x: n.x, z: n.z, entityId: null, label }));
      places.sort((a, b) => dist(a) - dist(b));
      return places.slice(0, 1);
    }
    if (t.target.type === "gather") {
      const ids = this.resourcesFor.get(t.target.id) ?? new Set<string>();
      const depleted = new Set<string>();
      state.resources?.forEach((r) => {
        if (!ids.has(r.resourceId)) return;
        if (r.depleted) depleted.add(`${r.x},${r.z}`);
        else live.push({ x: r.x, z: r.z, entityId: r.id, label });
      });
      live.sort((a, b) => dist(a) - dist(b));
      if (live.length) return live.slice(0, 1);
      const places = game.map.resources
        .filter((r) => ids.has(r.resourceId) && !depleted.has(`${r.x},${r.z}`))
        .map((r) => ({ x: r.x, z: r.z, entityId: null, label }));
      places.sort((a, b) => dist(a) - dist(b));
      return places.slice(0, 1);
    }
    return [];
  }
}
