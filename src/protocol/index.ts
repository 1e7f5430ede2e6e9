/**
 * The wire contract, in one place: every client → server message schema, every server → client
 * message and its payload, the close, error and notice codes, and the game's words and limits the
 * messages carry. Browser-safe: it imports nothing but zod (test/protocol checks it), so the web
 * client, the agents, the /ws adapter, the rooms and the tests all use the same definitions.
 */
export * from "./agentMessages.js";
export * from "./clientMessages.js";
export * from "./codes.js";
export * from "./duelMessages.js";
export * from "./featureMessages.js";
export * from "./restAnswers.js";
export * from "./serverMessages.js";
export * from "./shapes.js";
export * from "./vocabulary.js";
