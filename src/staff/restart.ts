import type { Logger } from "pino";
import { describeSeconds, RESTART_CLOSED_S, RESTART_MAX_S, RESTART_MIN_S, restartSteps } from "../game/staff.js";
import { GameError } from "../game/types.js";
import type { ServerMessage } from "../protocol/index.js";
import type { StandingView } from "../db/staffRepo.js";
import type { ContentWorlds } from "./contentReload.js";

/** The worlds this process runs, as a restart, a content reload and the operator's changes reach them (arena.config.ts gives them). */
export interface LocalWorlds extends ContentWorlds {
  broadcast(payload: ServerMessage<"system:broadcast">): void;
  /**
   * The worlds are stopping: what is half agreed (trades, duels) is called off, and both sides told,
   * before any session is closed; nothing moves. Every stop (a restart, SIGTERM, SIGINT) begins with it.
   */
  callOff(): Promise<void>;
  /** Save every player now; how many. */
  saveAll(): Promise<number>;
  /** Close every session with `code` (after saving: the sessions leave without another save being lost). */
  closeAll(code: number, reason: string): Promise<void>;
  /** The account's standing changed: its sessions in these worlds take it (a ban removes them). */
  applyStanding(accountId: string, standing: StandingView): void;
}

/**
 * A scheduled restart of this process (`POST /api/admin/restart`): the countdown is broadcast to
 * its worlds at the documented steps (RESTART_STEPS_S), joins are refused RESTARTING in the last
 * RESTART_CLOSED_S seconds, then what is half agreed is called off (trades and duels end
 * `server_shutdown`, nothing moves), every player is saved, every session closed with 1012
 * (CLOSE_CODES.RESTART), and `exit` ends the process with code 0 so that its supervisor starts it
 * again. A new schedule replaces the one before; `cancel` calls it off.
 */
export class RestartSchedule {
  private plan: { at: number; reason: string; by: string; timers: NodeJS.Timeout[] } | undefined;
  private worlds: LocalWorlds | undefined;
  /** Ends the process (src/index.ts: the graceful stop, exit code 0). */
  exit: () => void = () => {};
  /** Settles when a restart has saved and closed everyone and called `exit`. */
  done: Promise<void> | undefined;

  constructor(private readonly logger: Logger) {}

  attach(worlds: LocalWorlds) {
    this.worlds = worlds;
  }

  /** Why a join is refused now, or undefined. */
  refusal(now = Date.now()): string | undefined {
    if (!this.plan) return undefined;
    const left = Math.max(0, Math.ceil((this.plan.at - now) / 1000));
    return left <= RESTART_CLOSED_S ? `The server restarts in ${describeSeconds(left)}: connect again in a minute` : undefined;
  }

  get scheduled(): { restartAt: string; reason: string; by: string } | undefined {
    return this.plan && { restartAt: new Date(this.plan.at).toISOString(), reason: this.plan.reason, by: this.plan.by };
  }

  schedule(inSeconds: number, reason: string, by: string): { restartAt: string; steps: number[] } {
    if (!Number.isInteger(inSeconds) || inSeconds < RESTART_MIN_S || inSeconds > RESTART_MAX_S) {
      throw new GameError("INVALID_PAYLOAD", `inSeconds: a whole number from ${RESTART_MIN_S} to ${RESTART_MAX_S}`);
    }
    this.cancel();
    const at = Date.now() + inSeconds * 1000;
    const steps = restartSteps(inSeconds);
    const timers = steps.map((left) => setTimeout(() => this.announce(left, reason, at), (inSeconds - left) * 1000));
    timers.push(setTimeout(() => void (this.done = this.restartNow(reason)), inSeconds * 1000));
    this.plan = { at, reason, by, timers };
    this.logger.warn({ inSeconds, reason, by }, "restart scheduled");
    return { restartAt: new Date(at).toISOString(), steps };
  }

  /** Call off the restart scheduled; false when there is none. */
  cancel(): boolean {
    if (!this.plan) return false;
    for (const t of this.plan.timers) clearTimeout(t);
    this.plan = undefined;
    return true;
  }

  private announce(secondsLeft: number, reason: string, at: number) {
    this.worlds?.broadcast({
      message: `The server restarts in ${describeSeconds(secondsLeft)}: ${reason}`,
      from: "server",
      world: null,
      kind: "restart",
      timestamp: new Date().toISOString(),
      restartAt: new Date(at).toISOString(),
      secondsLeft,
    });
  }

  private async restartNow(reason: string) {
    this.logger.warn({ reason }, "restarting: calling off trades and duels, saving every player");
    try {
      await this.worlds?.callOff();
      const saved = (await this.worlds?.saveAll()) ?? 0;
      await this.worlds?.closeAll(1012, "server restart");
      this.logger.warn({ saved }, "every player saved and closed: the process exits for its restart");
    } catch (err) {
      this.logger.error({ err }, "restart: saving every player failed; the graceful stop saves again");
    }
    this.plan = undefined;
    this.exit();
  }
}

const schedules = new WeakMap<object, RestartSchedule>();
/** The restart schedule of a server context (made on first use). */
export function restartsOf(ctx: { logger: Logger }): RestartSchedule {
  let s = schedules.get(ctx);
  if (!s) schedules.set(ctx, (s = new RestartSchedule(ctx.logger)));
  return s;
}
