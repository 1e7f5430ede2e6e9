import { z } from "zod";
import { ACTIVITY_KINDS } from "../../agentActivity.js";
import { AgentParams } from "../../http/api/agents.js";
import { answer, bool, err, int, ok, Skills, str, tagged, when } from "../../http/openapi.js";
import { ActivityQuery, WatchBody } from "./spectateRoutes.js";

const Entry = z.object({ seq: int, at: when, kind: z.enum(ACTIVITY_KINDS), text: str });
const watchErrors = {
  403: err("someone else's agent, a watch token of another agent, or a watch token on a route that acts", "FORBIDDEN", "TOKEN_READ_ONLY"),
  404: err("no such agent", "AGENT_NOT_FOUND"),
};

/** Watching agents in the OpenAPI document. */
export const SPECTATE_DOCS = tagged("agents", [
  {
    route: "POST /api/agents/{agentId}/watch",
    summary: "A watch link: a spectator token that watches this agent and acts nowhere (its owner or an admin)",
    params: AgentParams,
    body: WatchBody,
    bodyNote: "ttlSeconds: 60 to 604800 (7 days), default 86400. A watch token cannot be revoked before it expires.",
    responses: {
      201: answer(
        "the token and the web client's watch link (/#watch=<token>)",
        ok({ agentId: str, characterId: str, name: str, token: str, expiresIn: int, watchUrl: str }),
      ),
      400: err("ttlSeconds out of bounds, an unknown field", "INVALID_PAYLOAD"),
      ...watchErrors,
    },
  },
  {
    route: "GET /api/agents/{agentId}/activity",
    summary: "What the agent is doing: where it plays, its goal, its character and its activity's lines (its owner, an admin, or a watch token of it)",
    params: AgentParams,
    query: ActivityQuery,
    responses: {
      200: answer(
        "the lines kept (the last 100, oldest first; after `since` when given) and `next`, the seq to pass as `since` next time",
        ok({
          agent: z.object({
            agentId: str,
            characterId: str,
            name: str,
            runtime: str,
            running: bool,
            online: bool,
            world: int.nullable(),
            goal: z.record(str, z.unknown()).nullable(),
            goalsPaused: bool,
          }),
          character: z
            .object({
              combatLevel: int,
              health: int,
              maxHealth: int,
              position: z.object({ x: int, z: int }),
              skills: Skills,
              inventory: z.array(z.object({ slot: int, itemId: str, quantity: int })),
              equipment: z.record(str, z.unknown()),
            })
            .nullable(),
          activity: z.array(Entry),
          next: int,
        }),
      ),
      400: err("since that is not a whole number", "INVALID_PAYLOAD"),
      ...watchErrors,
    },
  },
  {
    route: "GET /api/agents/{agentId}/activity/stream",
    summary: "The agent's activity as server-sent events: `event: activity`, `id: <seq>`, `data: {seq, at, kind, text}` (the same callers as /activity)",
    params: AgentParams,
    query: ActivityQuery,
    responses: {
      200: answer("text/event-stream: the lines after `since` (or Last-Event-ID) kept so far, then each new one; a comment every 15 s"),
      400: err("since that is not a whole number", "INVALID_PAYLOAD"),
      429: err("20 streams of this agent already", "TOO_MANY_STREAMS"),
      503: err("500 streams on this server already", "TOO_MANY_STREAMS"),
      ...watchErrors,
    },
  },
]);
