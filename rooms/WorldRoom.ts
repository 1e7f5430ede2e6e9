import { Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import { TokenError, verifyToken, type TokenClaims } from "../src/auth/tokens.js";
import type { ServerContext } from "../src/context.js";
import { PlayerState, WorldState } from "../schema/WorldState.js";

/** The game tick: every rule advances once per tick. */
export const TICK_MS = 600;

/**
 * One world shard. Thin: it authenticates, keeps the synchronised state and drives the tick;
 * the rules live in src/game.
 */
export class WorldRoom extends Room<{ state: WorldState; client: Client<{ auth: TokenClaims }> }> {
  /** Set by arena.config.ts on the class it registers (see bindContext). */
  protected ctx!: ServerContext;

  state = new WorldState();

  onCreate() {
    this.autoDispose = false;
    this.setSimulationInterval(() => this.tick(), TICK_MS);
  }

  onAuth(_client: Client, _options: unknown, context: AuthContext): TokenClaims {
    try {
      return verifyToken(context.token, this.ctx.config.jwtSecret);
    } catch (err) {
      if (err instanceof TokenError) throw new ServerError(401, err.message);
      throw err;
    }
  }

  onJoin(client: Client<{ auth: TokenClaims }>) {
    const player = new PlayerState();
    player.id = client.sessionId;
    player.name = client.auth?.sub ?? "";
    player.x = 0;
    player.z = 0;
    this.state.players.set(client.sessionId, player);
  }

  onLeave(client: Client) {
    this.state.players.delete(client.sessionId);
  }

  private tick() {
    this.state.tick += 1;
  }
}
