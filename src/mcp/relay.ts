import http from "node:http";
import type { Request, Response } from "express";
import { signRelayMark, verifyRelayMark } from "../auth/tokens.js";

/** The header a process of the cluster marks the MCP requests it passes on with (src/auth/tokens.ts's relay mark). */
export const RELAY_HEADER = "x-arena-relay";

/** The headers of an MCP request that go with it to the process it is passed to. */
const PASSED = ["authorization", "content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"] as const;
/** Headers of an answer that belong to its connection, not to the answer. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"]);
/**
 * How long the other process has to start answering (an SSE stream then runs as long as it runs):
 * longer than it waits itself for a moving world (src/mcp/follow.ts, FOLLOW_WAIT_MS), so that its
 * own answer comes first.
 */
const ANSWER_WITHIN_MS = 25_000;

/** Where a request is passed: a live process of the cluster, at the address it announced (CLUSTER_ADDRESS). */
export interface RelayTarget {
  processId: string;
  address: string;
}

/** The relay mark of a request passed on by a process of the cluster (undefined: it came from a client, or its mark is none of the cluster's). */
export function relayMarkOf(req: Request, secret: string): { to: string; address: string } | undefined {
  return verifyRelayMark(req.get(RELAY_HEADER), secret);
}

/** The relay mark of a request passed on to this process by another of the cluster (undefined: it came from a client). */
export function relayedHere(req: Request, secret: string, processId: string): { address: string } | undefined {
  const mark = relayMarkOf(req, secret);
  return mark && mark.to === processId ? { address: mark.address } : undefined;
}

/**
 * What became of a request passed on: answered (the answer went back, as it came), unreachable
 * (the process did not take the connection: nothing reached it, the request may go elsewhere), or
 * lost (it reached the process, which did not answer: it must not be sent again).
 */
export type RelayOutcome = "answered" | "unreachable" | "lost";

/** Connection errors that mean nothing reached the other process. */
const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);

/**
 * Pass an MCP request on to the process holding its session (or running its world) and its
 * answer back as it comes, an SSE stream included; the client leaving ends the request there too.
 */
export function relay(req: Request, res: Response, target: RelayTarget, clientAddress: string, secret: string): Promise<RelayOutcome> {
  const [host, port] = splitAddress(target.address);
  const headers: Record<string, string> = { [RELAY_HEADER]: signRelayMark({ to: target.processId, address: clientAddress }, secret) };
  for (const name of PASSED) {
    const v = req.get(name);
    if (v !== undefined) headers[name] = v;
  }
  const body = req.method === "POST" ? JSON.stringify(req.body) : undefined;
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  return new Promise<RelayOutcome>((resolve) => {
    // A connection of its own: a stopped process refuses it (unreachable), never a kept one that resets.
    const out = http.request({ host, port, method: req.method, path: req.originalUrl, headers, timeout: ANSWER_WITHIN_MS, agent: false });
    let answered = false;
    out.on("timeout", () => {
      if (!answered) out.destroy(new Error("no answer"));
    });
    out.on("error", (err: NodeJS.ErrnoException) => {
      if (answered) return void res.destroy();
      resolve(UNREACHABLE.has(err.code ?? "") ? "unreachable" : "lost");
    });
    out.on("response", (answer) => {
      answered = true;
      out.setTimeout(0);
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
      res.status(answer.statusCode ?? 502);
      res.flushHeaders();
      answer.pipe(res);
      answer.on("end", () => resolve("answered"));
      answer.on("error", () => resolve("answered"));
    });
    // The client left (a standing SSE stream closed, a call given up): so does the passed request.
    res.on("close", () => {
      out.destroy();
      resolve(answered ? "answered" : "lost");
    });
    out.end(body);
  });
}

function splitAddress(address: string): [string, number] {
  const at = address.lastIndexOf(":");
  return [address.slice(0, at), Number(address.slice(at + 1))];
}
