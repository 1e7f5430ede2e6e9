import { schema, t, type SchemaType } from "@colyseus/schema";

/** A player as every nearby client sees it. */
export const PlayerState = schema(
  {
    id: t.string(),
    name: t.string(),
    x: t.number(),
    z: t.number(),
  },
  "PlayerState",
);
export type PlayerState = SchemaType<typeof PlayerState>;

/** The synchronised state of one world shard. */
export const WorldState = schema(
  {
    tick: t.number(),
    players: t.map(PlayerState),
  },
  "WorldState",
);
export type WorldState = SchemaType<typeof WorldState>;
