import type { Client } from "@colyseus/core";
import type { ServerMessages } from "../src/protocol/index.js";

/**
 * A room's client whose `send` takes only the protocol's server messages, each with its payload
 * (src/protocol/serverMessages.ts): a message that does not match fails to compile.
 */
export type ProtocolClient<UserData = unknown, Auth = unknown> = Client<{ userData: UserData; auth: Auth; messages: ServerMessages }>;

/**
 * The client's `send` for replies to the message being handled now that go out later (after a
 * database read, a remote room call): a /ws client's replies still echo the id of the frame that
 * asked (src/ws/roomClients.ts `replyTo`); other clients are sent to as usual.
 */
export function replier(client: ProtocolClient): ProtocolClient["send"] {
  const held = client as unknown as { replyTo?: string };
  const id = held.replyTo;
  return ((type: string, data: unknown) => {
    const was = held.replyTo;
    held.replyTo = id;
    try {
      (client.send as (t: string, d: unknown) => void)(type, data);
    } finally {
      held.replyTo = was;
    }
  }) as ProtocolClient["send"];
}
