import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import type { AgentDriver } from "../../src/agents/driver.js";
import { rest } from "./rest.js";
import type { TestServer } from "./server.js";
import { guestToken } from "./worldClient.js";

/** What the agent suites that watch a built-in agent in a real world share. */

/**
 * The first message of `type` the agent takes in matching `pred` (or, with type "*", the first
 * moment `pred` holds after any message): bounded by the world ticks it sees, never by time.
 */
export function heard(d: AgentDriver, type: string, pred: (data: any) => boolean = () => true, maxTicks = 100): Promise<any> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const on = (t: string, data: any) => {
      if ((type === "*" || t === type) && pred(data)) {
        d.heard.off("message", on);
        resolve(data);
      } else if (t === "world:update" && ++seen > maxTicks) {
        d.heard.off("message", on);
        reject(new Error(`the agent heard no ${type} matching within ${maxTicks} ticks (goal: ${JSON.stringify(d.mind.goal?.step)})`));
      }
    };
    d.heard.on("message", on);
  });
}

/** A new agent (registered over REST by a new guest, running in the built-in runtime), its driver and its player. */
export async function newAgent(server: TestServer, room: WorldRoom, name: string) {
  const owner = await guestToken(server);
  const r = await rest(server, "POST", "/api/agent/register", owner.token, { name });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const a = r.body as { agentId: string; characterId: string };
  const d = server.arena.agents.driver(a.agentId)!;
  if (!d.sight.self) await heard(d, "player:sync");
  return { owner, a, d, p: room.world.players.get(a.characterId)! };
}
