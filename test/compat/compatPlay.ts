import { PRODUCTION_KINDS } from "../../src/protocol/vocabulary.js";
import assert from "node:assert/strict";
import type { ResourceEntity } from "../../src/game/world/entities.js";
import type { Tile } from "../../src/game/types.js";
import { type GameData } from "../../src/manifests/index.js";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { type WorldPlayer } from "../helpers/worldClient.js";
import { besideOf, place } from "../helpers/worldRoom.js";
import { effectsOf } from "../../src/manifests/dialogue.js";

/** What the compat suite of dialogue, stores and quests shares: finding npcs, talking, quests handed in, nodes to gather from. */

/** The ones the 2026 set names that are not played: reported once, ignored. */
export const UNPLAYED_LOG = "dialogue effect not played by this server; ignored";

export const slotOf = (p: WorldPlayer, room: WorldRoom, itemId: string) => room.world.players.get(p.id)!.inventory.findIndex((s) => s?.itemId === itemId);
export const countIn = (sync: any, itemId: string) =>
  sync.inventory.filter((s: { itemId: string }) => s.itemId === itemId).reduce((n: number, s: { quantity: number }) => n + s.quantity, 0);
export const questIn = (sync: any, questId: string) => sync.quests.quests.find((q: { questId: string }) => q.questId === questId);

export function npcNamed(room: WorldRoom, defId: string) {
  const npc = [...room.world.npcs.values()].find((n) => n.defId === defId && n.deadUntilTick == null);
  assert.ok(npc, `no ${defId} in the world`);
  return npc;
}

/** Every effect named by a node or a response of an npc's dialogue, with the npc naming it. */
export function dialogueEffects(data: GameData): Array<{ npcId: string; effect: string }> {
  return [...data.npcs.values()].flatMap((npc) => (npc.dialogue ? effectsOf(npc.dialogue).map(({ effect }) => ({ npcId: npc.id, effect })) : []));
}

/**
 * Can the server play this stage now? Dialogue and kills always; gathering when some gathering node
 * yields the item; `interact` when it is lighting a fire or cooking (the other things made need
 * production, not built yet).
 */
export function stagePlayable(data: GameData, stage: { type: string; target?: string; npcId?: string }): boolean {
  switch (stage.type) {
    case "dialogue":
      return !!stage.npcId && data.npcs.has(stage.npcId);
    case "kill":
      return !!stage.target && data.npcs.get(stage.target)?.combat.attackable === true;
    case "gather":
      return Object.values(data.gathering).some((m) => [...m.values()].some((g) => g.yields.some((y) => y.itemId === stage.target)));
    case "interact":
      return (
        stage.target === "fire" ||
        ["cooking", ...PRODUCTION_KINDS].some((kind) => (data.recipes[kind] ?? []).some((r) => r.outputs.some((o) => o.itemId === stage.target)))
      );
    default:
      return false;
  }
}

/** Talk to an npc from beside it: resolves with the first node shown. */
export async function talkTo(p: WorldPlayer, room: WorldRoom, defId: string) {
  const npc = npcNamed(room, defId);
  place(room, p.id, besideOf(room, npc.position));
  const since = p.mark();
  p.send("player:action", { action: "talk", targetId: npc.id });
  return { npc, node: await p.next("dialogue:node", (n) => n.npcId === npc.id, { since }) };
}

/** Answer the node shown with the response reading `text`; resolves with the next node shown. */
export async function answerWith(p: WorldPlayer, node: any, text: string, nextNodeId: string) {
  const response = node.responses.find((r: { text: string }) => r.text === text);
  assert.ok(response, `node ${node.nodeId} offers no "${text}": ${JSON.stringify(node.responses)}`);
  const since = p.mark();
  p.send("dialogue:respond", { index: response.index });
  return p.next("dialogue:node", (n) => n.nodeId === nextNodeId, { since });
}

/** Accept a quest from its start npc: greeting -> offer -> accept. Resolves with quest:started. */
export async function acceptQuest(p: WorldPlayer, room: WorldRoom, npcId: string, ask: string, accept: string) {
  const { node } = await talkTo(p, room, npcId);
  assert.equal(node.nodeId, "greeting");
  const offer = await answerWith(p, node, ask, "quest_offer");
  const since = p.mark();
  const accepted = await answerWith(p, offer, accept, "quest_accepted");
  assert.equal(accepted.responses.length, 0);
  await p.next("dialogue:end", (e) => e.reason === "finished", { since });
  return p.next("quest:started", () => true, { since });
}

/** Back to the npc with the quest ready: its quest_complete node completes it. Resolves with quest:completed. */
export async function handIn(p: WorldPlayer, room: WorldRoom, npcId: string, questId: string) {
  const since = p.mark();
  const { node } = await talkTo(p, room, npcId);
  assert.equal(node.nodeId, "quest_complete");
  const done = await p.next("quest:completed", (q) => q.questId === questId, { since });
  const sync = await p.next("player:sync", (s) => questIn(s, questId)?.status === "completed", { since });
  assert.equal(countIn(sync, "xp_lamp_100"), 1, "the lamp is in the pack");
  return { done, sync };
}

/** Rub the reward lamp into a skill: 100 xp, and the lamp is gone. */
export async function rubLamp(p: WorldPlayer, room: WorldRoom, skill: string) {
  const before = room.world.players.get(p.id)!.xp[skill as "woodcutting"];
  const since = p.mark();
  p.send("inventory:use", { slot: slotOf(p, room, "xp_lamp_100"), action: "rub", skill });
  const xp = await p.next("skill:xp", (m) => m.skill === skill, { since });
  assert.equal(xp.gained, 100);
  assert.equal(xp.xp, before + 100);
  const sync = await p.next("player:sync", (s) => countIn(s, "xp_lamp_100") === 0, { since });
  assert.equal(sync.skills[skill].xp, before + 100);
}

/** A gathering node of the set yielding `itemId`: one the world placed, else one of the set's own planted beside `near`. */
export function nodeYielding(room: WorldRoom, itemId: string, near: Tile): { node: ResourceEntity; planted: boolean } {
  const { data } = room.world;
  const placed = [...room.world.resources.values()].find(
    (r) =>
      r.skill !== "firemaking" &&
      !r.depleted &&
      data.gathering[r.skill].get(r.resourceId)?.yields.some((y) => y.itemId === itemId && (y.levelRequired ?? 1) <= 1),
  );
  if (placed) return { node: placed, planted: false };
  for (const skill of ["woodcutting", "fishing", "mining"] as const) {
    const def = [...data.gathering[skill].values()].find(
      (g) => g.levelRequired <= 1 && g.yields.some((y) => y.itemId === itemId && (y.levelRequired ?? 1) <= 1),
    );
    if (!def) continue;
    const node: ResourceEntity = {
      id: `res:scene:${def.id}`,
      resourceId: def.id,
      skill,
      name: def.name,
      tile: besideOf(room, near),
      depleted: false,
      respawnAtTick: null,
    };
    room.world.resources.set(node.id, node);
    room.world.place("resource", node.id, node.tile);
    return { node, planted: true };
  }
  throw new Error(`the set has no level-1 gathering node yielding ${itemId}`);
}

/** Walkable tiles near `around` with nothing standing on them (for fires). */
export function clearTiles(room: WorldRoom, around: Tile, n: number): Tile[] {
  const out: Tile[] = [];
  const taken = new Set([...room.world.resources.values()].map((r) => `${r.tile.x},${r.tile.z}`));
  for (let r = 2; r < 12 && out.length < n; r++) {
    for (let dx = -r; dx <= r && out.length < n; dx++) {
      for (const dz of [-r, r]) {
        const t = { x: around.x + dx, z: around.z + dz };
        if (out.length < n && room.world.map.isWalkable(t.x, t.z) && !taken.has(`${t.x},${t.z}`)) {
          out.push(t);
          taken.add(`${t.x},${t.z}`);
        }
      }
    }
  }
  assert.equal(out.length, n, "not enough clear tiles for the fires");
  return out;
}
