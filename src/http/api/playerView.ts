import type { Character } from "@prisma/client";
import type { ServerContext } from "../../context.js";
import { loadCharacter } from "../../db/characterRepo.js";
import { combatLevel, maxHealth, skillLevels } from "../../game/skills.js";
import { EQUIPMENT_SLOTS, SKILLS } from "../../game/types.js";
import type { CharacterSnapshot } from "../../game/world/entities.js";

/**
 * A character as a list shows it (the account's characters, friends, ignores, a lookup): its saved
 * row, with the name and combat level of its live copy while it is online in some world.
 */
export function listedCharacter(c: Pick<Character, "id" | "name" | "combatLevel" | "isAgent">, live: { name: string; combatLevel: number } | undefined) {
  return { id: c.id, name: live?.name ?? c.name, combatLevel: live?.combatLevel ?? c.combatLevel, isAgent: c.isAgent, online: live !== undefined };
}

/** A character as the REST API shows it: the live world's copy when online, else the saved one. */
export async function playerView(ctx: Pick<ServerContext, "db" | "world">, c: Character) {
  const live = await ctx.world.character(c.id);
  const snap: CharacterSnapshot | null = live ?? (await loadCharacter(ctx.db.sql, c.id));
  if (!snap) return null;
  const levels = skillLevels(snap.xp);
  return {
    id: c.id,
    accountId: c.accountId,
    name: live?.name ?? c.name,
    isAgent: c.isAgent,
    appearance: c.appearance,
    combatLevel: combatLevel(levels),
    health: snap.health,
    maxHealth: maxHealth(levels.constitution),
    skills: skillsOf(snap),
    inventory: snap.inventory.flatMap((s, slot) => (s ? [{ slot, itemId: s.itemId, quantity: s.quantity }] : [])),
    equipment: Object.fromEntries(EQUIPMENT_SLOTS.flatMap((slot) => (snap.equipment[slot] ? [[slot, { ...snap.equipment[slot] }]] : []))),
    position: { x: snap.tile.x, y: 0, z: snap.tile.z },
    online: live !== undefined,
    createdAt: c.createdAt.toISOString(),
  };
}

/** `{<skill>: {level, xp}}` for every skill. */
export function skillsOf(snap: Pick<CharacterSnapshot, "xp">) {
  const levels = skillLevels(snap.xp);
  return Object.fromEntries(SKILLS.map((s) => [s, { level: levels[s], xp: Math.floor(snap.xp[s]) }]));
}
