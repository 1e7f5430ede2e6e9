import { z } from "zod";
import { Agent, GoalState, Mapping, QuickActions, Told, answer, err, int, ok, str, tagged, worldDown, type RouteDoc } from "./openapi.js";
import { AgentParams, GoalBody, MessageBody, RegisterBody } from "./api/agents.js";

/** The agent routes of the OpenAPI document (openapiRoutes.ts has the rest). */

const agentErrors = { 403: err("someone else's agent", "FORBIDDEN"), 404: err("no such agent", "AGENT_NOT_FOUND") };
const goalAnswer = { 200: answer("the goal, whether goals are paused, the goals it could take", GoalState), ...agentErrors, ...worldDown };
const agentRoute = { params: AgentParams };

export const AGENT_ROUTES: RouteDoc[] = [
  ...tagged("agents", [
    {
      route: "POST /api/agent/register",
      summary: "Register an agent: a new character the built-in runtime runs",
      body: RegisterBody,
      responses: {
        201: answer("its ids and a token for an external runtime", ok({ agentId: str, characterId: str, token: str, expiresIn: int })),
        400: err("a taken name, or 10 agents already", "NAME_TAKEN", "AGENT_LIMIT"),
      },
    },
    { route: "GET /api/agent", summary: "Your agents", responses: { 200: answer("each with its runtime and state", ok({ agents: z.array(Agent) })) } },
    {
      route: "POST /api/agent/{agentId}/start",
      summary: "Bring the agent into the world in the built-in runtime",
      ...agentRoute,
      responses: { 200: answer("remembered across restarts", ok({ agentId: str, running: z.literal(true) })), ...agentErrors },
    },
    {
      route: "POST /api/agent/{agentId}/stop",
      summary: "Take the agent out of the world (its character is saved)",
      ...agentRoute,
      responses: { 200: answer("remembered across restarts", ok({ agentId: str, running: z.literal(false) })), ...agentErrors },
    },
    {
      route: "GET /api/agents/mapping/{agentId}",
      summary: "The agent's mapping",
      ...agentRoute,
      responses: { 200: answer("agent, character and owner", ok({ mapping: Mapping })), ...agentErrors },
    },
    { route: "GET /api/agents/{agentId}/goal", summary: "The agent's goal", ...agentRoute, responses: goalAnswer },
    {
      route: "POST /api/agents/{agentId}/goal",
      summary: "Set the agent's goal",
      ...agentRoute,
      body: GoalBody,
      bodyNote: "goalId: one of availableGoals; or a type (and target). count only for production and buy goals.",
      responses: { ...goalAnswer, 400: err("not one of availableGoals, or not available now", "UNKNOWN_GOAL", "GOAL_UNAVAILABLE") },
    },
    { route: "POST /api/agents/{agentId}/goal/stop", summary: "Cancel the goal and pause autonomous goals", ...agentRoute, responses: goalAnswer },
    { route: "POST /api/agents/{agentId}/goal/resume", summary: "Resume autonomous goals", ...agentRoute, responses: goalAnswer },
    {
      route: "POST /api/agents/{agentId}/message",
      summary: "Tell the agent something: a command is queued, anything else gets a reply",
      ...agentRoute,
      body: MessageBody,
      responses: { 200: answer("queued, or an in-character reply said in world chat", Told), 400: err("no one drives it", "AGENT_OFFLINE"), ...agentErrors },
    },
    {
      route: "GET /api/agents/{agentId}/quick-actions",
      summary: "The quick actions the agent could take now",
      ...agentRoute,
      responses: { 200: answer("actions, nearby locations and the pack", QuickActions), ...agentErrors, ...worldDown },
    },
  ]),
];
