import { matchMaker } from "@colyseus/core";
import type { Request, Response } from "express";
import { clusterAddressOf } from "../../rooms/cluster/worldDirectory.js";
import { liveProcesses } from "../../rooms/cluster/worldHosting.js";
import type { TokenClaims } from "../auth/tokens.js";
import type { WorldEntry } from "../worldSpecs.js";
import { Refusal } from "./refusal.js";
import { relayedHere, type RelayOutcome, type RelayTarget } from "./relay.js";
import type { McpSession } from "./session.js";
import type { McpSessionRecord, McpSessionRecords } from "./sessionRecords.js";
import type { Sdk } from "./sessionServer.js";

/** How long a request for a session whose world runs nowhere yet (moving, or taken over after a crash) waits for it. */
export const FOLLOW_WAIT_MS = 15_000;
/** How often such a request looks again. */
export const FOLLOW_LOOK_MS = 150;

/** The event a session taken up on another process starts with (after those it carried). */
export const MOVED_EVENT = "session:moved";

/** Where a request for a session this process does not hold goes. */
export type SessionPlace =
  /** Take it up here: it is free and its world runs here. */
  | { at: "here" }
  /** Pass it on: another live process holds the session, or runs its world (and takes it up). */
  | { at: "relay"; target: RelayTarget }
  /** Not yet: its world runs nowhere now (it is moving), or its holder has not said where it is reached. */
  | { at: "wait"; why: string };

/**
 * Where a session goes, from its record and the cluster as it stands: its holder while that
 * process lives; once it is free (its world moved off its process, or the process died) the
 * process that runs its world now.
 */
export function placeOf(
  record: McpSessionRecord,
  self: string,
  worlds: readonly WorldEntry[],
  live: ReadonlySet<string>,
  addresses: ReadonlyMap<string, string | undefined>,
): SessionPlace {
  const toward = (processId: string): SessionPlace => {
    const address = addresses.get(processId);
    return address ? { at: "relay", target: { processId, address } } : { at: "wait", why: `process ${processId} has not said where it is reached` };
  };
  if (record.processId && record.processId !== self && live.has(record.processId)) return toward(record.processId);
  const world = worlds.find((w) => w.id === record.worldId);
  if (!world || world.status !== "online" || !world.processId) return { at: "wait", why: `world ${record.worldId} is not running right now` };
  return world.processId === self ? { at: "here" } : toward(world.processId);
}

/** What following a session takes from the endpoint. */
export interface FollowNeeds {
  records(): McpSessionRecords;
  /** The session if this process holds it now (and it is not moving out). */
  held(sid: string): McpSession | undefined;
  /** Take up a free session here (its world runs here): a session held here from then on. */
  takeUp(req: Request, sid: string, record: McpSessionRecord, parts: Sdk): Promise<McpSession>;
  /** Serve one request of a session held here. */
  serve(s: McpSession, req: Request, res: Response, parts: Sdk, claims: TokenClaims): Promise<void>;
  /** Pass the request on to another process (src/mcp/relay.ts). */
  passOn(req: Request, res: Response, target: RelayTarget): Promise<RelayOutcome>;
  /** This process is on its way out (a drain, a shutdown): it neither passes requests on nor takes sessions up. */
  stopping(): boolean;
  /** The cluster's token secret (the relay marks are signed with it). */
  secret: string;
  worlds(): Promise<WorldEntry[]>;
}

/**
 * Serve a request for a session this process does not hold: passed on to the process that holds
 * it; or, once it is free (its world moved, its process died), taken up by the process running
 * its world, here or there (passed on), with the same session id. A world that runs nowhere yet
 * (moving) is waited for, FOLLOW_WAIT_MS at most, then 503 WORLD_UNAVAILABLE with Retry-After.
 */
export function sessionFollow(needs: FollowNeeds) {
  /** Sessions being taken up here now: requests of one session arriving together take it up once. */
  const takingUp = new Map<string, Promise<McpSession>>();
  const takeUpOnce = async (req: Request, sid: string, record: McpSessionRecord, parts: Sdk) => {
    // Taken up meanwhile by a request of the same session that came a moment before: that one serves this too.
    const here = needs.held(sid);
    if (here) return here;
    let p = takingUp.get(sid);
    if (!p) {
      p = needs.takeUp(req, sid, record, parts).finally(() => takingUp.delete(sid));
      takingUp.set(sid, p);
    }
    return p;
  };

  /** Where the session's requests go now, from the cluster's presence and world listings. */
  async function placeNow(record: McpSessionRecord): Promise<SessionPlace> {
    const [worlds, live] = await Promise.all([needs.worlds(), liveProcesses(matchMaker.presence)]);
    live.add(matchMaker.processId);
    const ids = new Set([record.processId, worlds.find((w) => w.id === record.worldId)?.processId].filter((x): x is string => !!x));
    const addresses = new Map(await Promise.all([...ids].map(async (pid) => [pid, await clusterAddressOf(pid)] as const)));
    return placeOf(record, matchMaker.processId, worlds, live, addresses);
  }

  return async (req: Request, res: Response, claims: TokenClaims, sid: string, parts: Sdk): Promise<void> => {
    // What this process would pass on could be cut when it exits: the client calls again, and another process answers.
    if (needs.stopping()) {
      res.set("Retry-After", "1");
      throw new Refusal(
        503,
        "WORLD_UNAVAILABLE",
        "This server process is stopping (an upgrade): call again in a moment; the session goes on on another process",
      );
    }
    const relayed = relayedHere(req, needs.secret, matchMaker.processId) !== undefined;
    const deadline = Date.now() + FOLLOW_WAIT_MS;
    // A client that gave up (or a process that passed the request on and stopped waiting) is not served after all.
    let gone = false;
    res.on("close", () => (gone = true));
    let why = "";
    while (!gone) {
      const record = await needs.records().read(sid);
      if (!record)
        return void res
          .status(404)
          .json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found: it ended (or never was); initialize a new one" }, id: null });
      if (record.accountId !== claims.sub) throw new Refusal(403, "FORBIDDEN", "That MCP session belongs to another account");
      // Ending a free session (moved, or its process dead) needs no world: its record goes.
      if (req.method === "DELETE" && (record.processId === null || !(await liveProcesses(matchMaker.presence)).has(record.processId))) {
        await needs.records().forget(sid);
        return void res.status(200).end();
      }
      const place = await placeNow(record);
      if (place.at === "here") {
        const s = await takeUpOnce(req, sid, record, parts).catch((err) => {
          // The world is not ready for the player yet (its character still held, the room filling): look again.
          if (err instanceof Refusal && err.status === 503 && Date.now() < deadline) return undefined;
          throw err;
        });
        // Taken up; a request whose client left meanwhile is not run.
        if (s) return gone ? undefined : needs.serve(s, req, res, parts, claims);
        why = "the world is not ready for the session yet";
      } else if (place.at === "relay") {
        // One hop: a request passed here is not passed on again (the cluster's view settles meanwhile).
        if (!relayed) {
          const outcome = await needs.passOn(req, res, place.target);
          if (outcome === "answered") return;
          // It reached the process, which did not answer: never sent twice (it may have run).
          if (outcome === "lost") throw lost(res, place.target.processId);
        }
        why = `process ${place.target.processId} does not take it yet`;
      } else why = place.why;
      if (Date.now() >= deadline) {
        res.set("Retry-After", "2");
        throw new Refusal(503, "WORLD_UNAVAILABLE", `The session's world is moving between server processes (${why}); try again in a moment`);
      }
      await new Promise((r) => setTimeout(r, FOLLOW_LOOK_MS));
    }
  };
}

/** The refusal of a request another process took and did not answer: call again (it is not sent twice from here). */
export function lost(res: Response, processId: string): Refusal {
  res.set("Retry-After", "1");
  return new Refusal(503, "WORLD_UNAVAILABLE", `Server process ${processId} took the request and did not answer; call again`);
}

/**
 * A session taken up here gets back what it carried: the events its client was not told yet, then
 * `session:moved`; its resource subscriptions; the goal it played.
 */
export function giveBack(s: McpSession, record: McpSessionRecord): void {
  const carried = record.carried;
  const p = s.player;
  const moved = {
    type: MOVED_EVENT,
    data: {
      world: s.worldId,
      from: carried?.from ?? record.processId,
      message: `World ${s.worldId} moved to another server process (an upgrade, or its process stopped); this session followed it: the character is as it was last saved, and a trade or duel under way was called off`,
    },
    tick: p.sight.tick,
  };
  p.events = [...(carried?.events ?? []), moved];
  p.dropped = carried?.dropped ?? 0;
  s.subscriptions?.restore(carried?.subscribed ?? []);
  if (carried?.goal) p.mind.goal = carried.goal;
}
