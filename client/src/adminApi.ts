import { callAs } from "./api.js";

/**
 * The staff's REST calls (docs/API.md "Admin API"), made with the account's own token: the server
 * reads its role from the database at every call and refuses a role too low with 403 FORBIDDEN.
 * A refusal is an ApiError with the server's code and message.
 */

/** A sanction's length, as the server takes it. */
export const DURATIONS = ["30m", "12h", "7d", "2w", "permanent"] as const;
export type Duration = (typeof DURATIONS)[number];
export type SanctionKind = "mute" | "ban";

/** Someone online, in any world (`GET /api/admin/players`). */
export interface OnlinePlayer {
  id: string;
  name: string;
  isAgent: boolean;
  combatLevel: number;
  world: number;
  accountId: string | null;
}

/** A player's report (`GET /api/admin/reports`), with the chat between them the server saw. */
export interface PlayerReport {
  id: string;
  reporterName: string;
  targetName: string;
  reason: string;
  chat: Array<{ at: string; fromName: string; message: string; channel: string }>;
  status: "open" | "claimed" | "closed";
  createdAt: string;
  claimedByName: string | null;
  resolution: string | null;
}

/** What an act answers: the server's sentence saying what was done. */
interface Done {
  message: string;
}

export async function onlinePlayers(token: string): Promise<OnlinePlayer[]> {
  return (await callAs<{ players: OnlinePlayer[] }>(token, "GET", "/api/admin/players")).players;
}

export function sanction(token: string, name: string, kind: SanctionKind, duration: Duration, reason: string): Promise<Done> {
  return callAs<Done>(token, "POST", "/api/admin/sanctions", { name, kind, duration, reason });
}

export function liftSanction(token: string, name: string, kind: SanctionKind, reason?: string): Promise<Done> {
  return callAs<Done>(token, "POST", "/api/admin/sanctions/lift", { name, kind, ...(reason ? { reason } : {}) });
}

export function kick(token: string, name: string, reason?: string): Promise<Done> {
  return callAs<Done>(token, "POST", "/api/admin/kick", { name, ...(reason ? { reason } : {}) });
}

export async function reports(token: string, status: PlayerReport["status"]): Promise<PlayerReport[]> {
  return (await callAs<{ reports: PlayerReport[] }>(token, "GET", `/api/admin/reports?status=${status}`)).reports;
}

export async function claimReport(token: string, id: string): Promise<PlayerReport> {
  return (await callAs<{ report: PlayerReport }>(token, "POST", `/api/admin/reports/${encodeURIComponent(id)}/claim`)).report;
}

export async function closeReport(token: string, id: string, resolution: string): Promise<PlayerReport> {
  return (await callAs<{ report: PlayerReport }>(token, "POST", `/api/admin/reports/${encodeURIComponent(id)}/close`, { resolution })).report;
}
