import type { Client } from "@colyseus/core";
import type { ServerMessages } from "../src/protocol/index.js";

/**
 * A room's client whose `send` takes only the protocol's server messages, each with its payload
 * (src/protocol/serverMessages.ts): a message that does not match fails to compile.
 */
export type ProtocolClient<UserData = unknown, Auth = unknown> = Client<{ userData: UserData; auth: Auth; messages: ServerMessages }>;
