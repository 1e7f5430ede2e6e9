import { matchMaker } from "@colyseus/core";
import type { WorldEntry, WorldSpec } from "../../src/worldSpecs.js";
import { liveProcesses, sharingProcesses, worldClaims, worldRoomId } from "./worldHosting.js";

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

/** The presence hash of each process's public address, by process id (written at its start). */
export const PROCESS_ADDRESSES_KEY = "arena:process-addresses";
/** The presence hash of the address each process's HTTP port is reached at by the others (its CLUSTER_ADDRESS). */
export const CLUSTER_ADDRESSES_KEY = "arena:process-cluster-addresses";

/**
 * Say where this process is reached: by clients (its PUBLIC_ADDRESS, for the players of a world
 * moving off another) and by the cluster's other processes (`clusterAddress`, for the MCP requests
 * they pass on to it).
 */
export async function announceAddress(clusterAddress: string): Promise<void> {
  await matchMaker.presence.hset(PROCESS_ADDRESSES_KEY, matchMaker.processId, matchMaker.publicAddress);
  await matchMaker.presence.hset(CLUSTER_ADDRESSES_KEY, matchMaker.processId, clusterAddress);
}

/** The public address of a process, as it announced it (undefined: it never did). */
export async function addressOf(processId: string): Promise<string | undefined> {
  return (await matchMaker.presence.hget(PROCESS_ADDRESSES_KEY, processId)) ?? undefined;
}

/** Where the cluster's processes reach a process's HTTP port, as it announced it (undefined: it never did). */
export async function clusterAddressOf(processId: string): Promise<string | undefined> {
  return (await matchMaker.presence.hget(CLUSTER_ADDRESSES_KEY, processId)) ?? undefined;
}

/** This process stops: its addresses go from the hashes. */
export async function forgetAddress(): Promise<void> {
  await matchMaker.presence.hdel(PROCESS_ADDRESSES_KEY, matchMaker.processId);
  await matchMaker.presence.hdel(CLUSTER_ADDRESSES_KEY, matchMaker.processId);
}

/**
 * The public addresses of the other live processes that are not draining (those that run no world
 * yet too): where the players of a world moving off this process may knock (`world:moving`'s `hosts`).
 */
export async function otherHosts(): Promise<string[]> {
  const presence = matchMaker.presence;
  const others = (await sharingProcesses(presence, await liveProcesses(presence))).filter((pid) => pid !== matchMaker.processId);
  const addresses = await Promise.all(others.map((pid) => presence.hget(PROCESS_ADDRESSES_KEY, pid)));
  return [...new Set(addresses.filter((a): a is string => typeof a === "string" && a !== ""))].sort();
}
