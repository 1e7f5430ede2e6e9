import { z } from "zod";

/**
 * The WorldRoom's client → server messages, by their documented event names, with the payload
 * each must have. Anything else is answered with `error` INVALID_PAYLOAD and changes nothing.
 * (docs/PROTOCOL.md documents every one.)
 */
const coordinate = z.number().finite().min(-1_000_000).max(1_000_000);
const slot = z.number().int().min(0).max(27);
const quantity = z.number().int().positive().max(2_147_483_647);
const id = z.string().min(1).max(128);

export const ClientMessages = {
  "player:move": z.object({ x: coordinate, z: coordinate, run: z.boolean().optional() }).strict(),
  "player:action": z
    .object({
      action: z.enum(["gather", "attack", "pickup", "stop", "style"]),
      targetId: id.optional(),
      style: z.enum(["accurate", "aggressive", "defensive", "controlled"]).optional(),
    })
    .strict(),
  "player:chat": z.object({ message: z.string().max(1000), channel: z.enum(["local", "world"]).optional() }).strict(),
  "inventory:use": z
    .object({
      slot,
      targetSlot: slot.optional(),
      targetId: id.optional(),
      action: z.enum(["use", "eat", "equip", "unequip", "drop", "cook", "light"]).optional(),
      quantity: quantity.optional(),
    })
    .strict(),
  "bank:deposit": z.object({ slot, quantity }).strict(),
  "bank:withdraw": z.object({ itemId: id, quantity }).strict(),
} as const;

export type ClientMessageType = keyof typeof ClientMessages;
export type ClientMessage<T extends ClientMessageType> = z.infer<(typeof ClientMessages)[T]>;

/** Join options a client may pass to the world room. */
export const JoinOptions = z
  .object({
    characterId: z.string().min(1).max(128).optional(),
    name: z.string().optional(),
    /** Receive `world:update` JSON deltas each tick (the /ws adapter asks for them). */
    worldUpdates: z.boolean().optional(),
    /** "ws" (the /ws adapter's) and "runtime" (the built-in agent runtime's) take no schema patches. */
    clientType: z.enum(["colyseus", "ws", "agent", "runtime"]).optional(),
  })
  .passthrough();

/** A short, readable reason from a zod error: the first issue's path and message. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.length ? issue.path.join(".") : "payload";
  return `${where}: ${issue.message}`;
}
