import type { CatalogueBody, WorldMapBody } from "../../src/protocol/index.js";

/** The REST calls the client makes, typed by src/protocol's answers. */

export type Catalogue = CatalogueBody;
export type WorldMap = WorldMapBody;
export type ItemInfo = Catalogue["items"][number];
export type NpcInfo = Catalogue["npcs"][number];
export type ResourceInfo = Catalogue["resources"][number];

/** An area as GET /api/v1/world/areas lists it (the parts the ground is drawn from). */
export interface AreaInfo {
  id: string;
  name: string;
  description: string | null;
  group: string;
  isStarterTown: boolean;
  bounds: { minX: number; maxX: number; minZ: number; maxZ: number };
  biomeType: string | null;
  safeZone: boolean;
  /** Players may attack each other here (outside a safe zone), within a combat-level bracket. */
  pvpEnabled: boolean;
  difficultyLevel: number;
}

/** Is a tile in a PvP area and in no safe zone (the server's rule, src/game/world/areas.ts)? */
export function inPvpArea(areas: readonly AreaInfo[], x: number, z: number): boolean {
  const here = areas.filter((a) => x >= a.bounds.minX && x <= a.bounds.maxX && z >= a.bounds.minZ && z <= a.bounds.maxZ);
  return !here.some((a) => a.safeZone) && here.some((a) => a.pvpEnabled);
}

/** The public settings the server writes into /env.js (src/config.ts publicSettings). */
export interface PublicEnv {
  PUBLIC_IDP_APP_ID?: string;
}

export function publicEnv(): PublicEnv {
  return ((window as unknown as { env?: PublicEnv }).env ?? {}) as PublicEnv;
}

/**
 * The server's base address: the page's own origin, since the server that serves the page is the
 * one it plays on (PUBLIC_API_URL names the server to clients hosted elsewhere; its default,
 * localhost, would be wrong for a player on another machine).
 */
export function serverUrl(): string {
  return location.origin;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A call or join refused for its login (401: the token is invalid or expired, its account is gone),
 * not for the world's state: an ApiError's status, the SDK's ServerError's status or code.
 */
export function loginRefused(err: unknown): boolean {
  const { status, code } = err as { status?: unknown; code?: unknown };
  return (status ?? code) === 401;
}

/** A REST call: its JSON answer, or an ApiError with the server's code and message. */
async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(serverUrl() + path, init);
  const body = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
  if (!res.ok) throw new ApiError(res.status, body.error?.code ?? String(res.status), body.error?.message ?? `The server answered ${res.status}`);
  return body as T;
}

/** A public GET: its JSON answer, or an ApiError with the server's code and message. */
export function getPublic<T>(path: string): Promise<T> {
  return call<T>(path);
}

/** A call with the account's token as its Bearer (and `body`, when given, as JSON). */
export function callAs<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  return call<T>(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

export interface Login {
  token: string;
  accountId: string;
}

/** Anonymous mode: a guest account and its token. */
export function loginAsGuest(): Promise<Login> {
  return call<Login>("/api/auth/guest", { method: "POST" });
}

/** A new token for a valid one (same account, a full lifetime): a kept login is renewed at every join. */
export function refreshLogin(token: string): Promise<Login> {
  return callAs<Login>(token, "POST", "/api/auth/refresh");
}

/** With an identity provider configured: its access token in, the server's token out. */
export function loginWithIdp(idpToken: string): Promise<Login> {
  return call<Login>("/api/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ idpToken }) });
}

export function loadMap(fresh = false): Promise<WorldMap> {
  return call<WorldMap>("/api/v1/world/map", fresh ? { cache: "no-cache" } : undefined);
}

/** `fresh`: ask the server again rather than the browser's cache (after a content reload). */
export async function loadAreas(fresh = false): Promise<AreaInfo[]> {
  return (await call<{ areas: AreaInfo[] }>("/api/v1/world/areas", fresh ? { cache: "no-cache" } : undefined)).areas;
}

export function loadCatalogue(fresh = false): Promise<Catalogue> {
  return call<Catalogue>("/api/v1/catalogue", fresh ? { cache: "no-cache" } : undefined);
}
