import { matchMaker } from "@colyseus/core";
import type { WorldEntry, WorldSpec } from "../../src/worldSpecs.js";
import { DRAINING_KEY, liveProcesses, worldClaims, worldRoomId } from "./worldHosting.js";

/**
 * The configured worlds as they stand across the cluster, from the matchmaker's listings (every
 * process's, with the Redis driver) and the worlds' claims: `online` when the room of the process
 * holding the claim is listed and that process is alive, `starting` while a live process holds the
 * claim but its room is not listed yet (or is moving out, a drain), `offline` while no live process holds it (its process
 * died: another takes it over).
 */
export async function worldDirectory(specs: WorldSpec[]): Promise<WorldEntry[]> {
  const listings = new Map((await matchMaker.query({ name: "world" })).map((l) => [l.roomId, l]));
  const claims = worldClaims(matchMaker.presence);
  const holders = await Promise.all(specs.map((s) => claims.holderOf(s.id)));
  const live = await liveProcesses(matchMaker.presence);
  if (matchMaker.processId) live.add(matchMaker.processId);
  return specs.map((spec, i) => {
    const holder = holders[i] && live.has(holders[i]) ? holders[i] : undefined;
    const listing = listings.get(worldRoomId(spec.id));
    // A room moving out (a drain) is no longer the world's: it runs again on another process in a moment.
    const running = listing !== undefined && holder !== undefined && listing.processId === holder && listing.metadata?.moving !== true;
    const players = running ? Math.max(0, Number(listing.clients) || 0) : 0;
    return {
      id: spec.id,
      name: spec.name,
      capacity: spec.capacity,
      players,
      status: running ? "online" : holder ? "starting" : "offline",
      full: running && (players >= spec.capacity || listing.locked === true),
      roomId: running ? listing.roomId : null,
      processId: running ? listing.processId : null,
      publicAddress: running ? (listing.publicAddress ?? null) : null,
    };
  });
}

/**
 * The public addresses of the other processes that run worlds and are not draining: where the
 * players of a world moving off this process may knock (`world:moving`'s `hosts`).
 */
export async function otherHosts(): Promise<string[]> {
  const draining = new Set(await matchMaker.presence.smembers(DRAINING_KEY));
  const listings = await matchMaker.query({ name: "world" });
  const hosts = listings
    .filter((l) => l.processId !== matchMaker.processId && !draining.has(l.processId) && l.publicAddress)
    .map((l) => l.publicAddress as string);
  return [...new Set(hosts)].sort();
}
