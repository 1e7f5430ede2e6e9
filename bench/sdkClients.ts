/**
 * A child process holding a few real @colyseus/sdk players (real WebSockets over loopback), so the
 * benchmark can check its in-memory clients' byte counts against what a real client receives.
 * Driven by the parent over IPC:
 *   {type: "join", url, names}      → {type: "joined", players: [{idx, sessionId, playerId}]}
 *   {type: "send", idx, msgType, payload}
 *   {type: "report"}                → {type: "report", players: [{idx, bytes, frames, byTick: [tick, [bytes, stateBytes]]}]}
 *   {type: "leave"}                 → leaves and exits
 * Bytes are counted where the SDK's WebSocket hands a message to the room (payload bytes, no
 * WebSocket framing); `byTick` is the running total right after the last patch of each world tick
 * (its own, or a hand-over frame between zones' views sent after it).
 */
import { Client, Protocol, type Room } from "@colyseus/sdk";

interface Player {
  idx: number;
  room: Room<any>;
  playerId: string;
  bytes: number;
  frames: number;
  /** Bytes of state frames (the first state and patches). */
  stateBytes: number;
  /** Running totals of all bytes and of state bytes, by tick. */
  byTick: Map<number, [number, number]>;
}

const players: Player[] = [];
/** Resolvers waiting for a player's first player:sync, by index. */
const pending = new Map<number, (data: any) => void>();
// Never outlive the benchmark.
setTimeout(() => process.exit(3), 8 * 60_000).unref();
process.on("disconnect", () => process.exit(0));

const reply = (m: unknown) => process.send?.(m);

async function joinOne(url: string, name: string, idx: number): Promise<Player> {
  const res = await fetch(`${url}/api/auth/guest`, { method: "POST" });
  if (res.status !== 201) throw new Error(`guest: ${res.status}`);
  const { token } = (await res.json()) as { token: string };
  const sdk = new Client(url);
  sdk.auth.token = token;
  const firstSync = new Promise<any>((resolve) => {
    pending.set(idx, resolve);
  });
  const room = await sdk.joinOrCreate("world", { name });
  room.onMessage("*", (type: string | number, data: any) => {
    if (type === "player:sync") pending.get(idx)?.(data);
  });
  const player: Player = { idx, room, playerId: "", bytes: 0, frames: 0, stateBytes: 0, byTick: new Map() };
  // Count every message the socket delivers, then let the SDK decode it as usual.
  const events = (room as any).connection.events;
  const original = events.onmessage;
  events.onmessage = (event: { data: ArrayBuffer }) => {
    player.bytes += event.data.byteLength;
    player.frames++;
    const code = new Uint8Array(event.data)[0];
    if (code === Protocol.ROOM_STATE_PATCH || code === Protocol.ROOM_STATE) player.stateBytes += event.data.byteLength;
    original(event);
    // Through the last patch of the tick: the tick's own, or a hand-over frame sent after it.
    const tick = room.state?.tick;
    if (typeof tick === "number" && code === Protocol.ROOM_STATE_PATCH) player.byTick.set(tick, [player.bytes, player.stateBytes]);
  };
  const sync = await Promise.race([firstSync, new Promise((_, reject) => setTimeout(() => reject(new Error("no player:sync")), 15_000))]);
  player.playerId = (sync as { id: string }).id;
  return player;
}

process.on("message", async (m: any) => {
  try {
    if (m.type === "join") {
      const joined: Player[] = [];
      for (const name of m.names as string[]) {
        const p = await joinOne(m.url, name, players.length);
        players.push(p);
        joined.push(p);
      }
      reply({ type: "joined", players: joined.map((p) => ({ idx: p.idx, sessionId: p.room.sessionId, playerId: p.playerId })) });
    } else if (m.type === "send") {
      players[m.idx]?.room.send(m.msgType, m.payload);
    } else if (m.type === "report") {
      reply({ type: "report", players: players.map((p) => ({ idx: p.idx, bytes: p.bytes, frames: p.frames, byTick: [...p.byTick] })) });
    } else if (m.type === "leave") {
      await Promise.all(players.map((p) => p.room.leave().catch(() => {})));
      process.exit(0);
    }
  } catch (err) {
    reply({ type: "error", message: String((err as Error)?.stack ?? err) });
  }
});

reply({ type: "ready" });
