import type { Client } from "@colyseus/core";
import type { ServerMessages } from "../src/protocol/index.js";

/**
 * A room's client whose `send` takes only the protocol's server messages, each with its payload
 * (src/protocol/serverMessages.ts): a message that does not match fails to compile.
 */
export type ProtocolClient<UserData = unknown, Auth = unknown> = Client<{ userData: UserData; auth: Auth; messages: ServerMessages }>;

/**
 * For answers to the message being handled now that go out later (after a database read, a remote
 * room call): runs its argument as if that message were still being handled, so a /ws client's
 * answers sent during it echo the id of the frame that asked (src/ws/roomClients.ts `replyTo`);
 * other clients are sent to as usual.
 */
export function inReplyLater(client: ProtocolClient): (run: () => void) => void {
  const held = client as unknown as { replyTo?: string };
  const id = held.replyTo;
  return (run) => {
    const was = held.replyTo;
    held.replyTo = id;
    try {
      run();
    } finally {
      held.replyTo = was;
    }
  };
}

/** The client's `send` for a later answer to the message being handled now (inReplyLater). */
export function replier(client: ProtocolClient): ProtocolClient["send"] {
  const within = inReplyLater(client);
  return ((type: string, data: unknown) => within(() => (client.send as (t: string, d: unknown) => void)(type, data))) as ProtocolClient["send"];
}
