import assert from "node:assert/strict";
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT, type JWTPayload } from "jose";
import type { TestServer } from "../helpers/server.js";

/** The identity provider's side of the login tests: key pairs, signed tokens, a JWKS host, the login call. */
export const APP_ID = "app-test-123";
export const ISSUER = "privy.io";
export const APP_SECRET = "idp-app-secret-that-must-never-leak-0123456789";

export interface KeyPair {
  kid: string;
  alg: string;
  publicKey: KeyObject;
  privateKey: KeyObject;
}

export const ecPair = (kid: string): KeyPair => ({ kid, alg: "ES256", ...generateKeyPairSync("ec", { namedCurve: "P-256" }) });
export const rsaPair = (kid: string): KeyPair => ({ kid, alg: "RS256", ...generateKeyPairSync("rsa", { modulusLength: 2048 }) });

export const jwkOf = (k: KeyPair) => ({ ...k.publicKey.export({ format: "jwk" }), kid: k.kid, alg: k.alg, use: "sig" });
export const pemOf = (k: KeyPair) => String(k.publicKey.export({ type: "spki", format: "pem" }));

export const now = () => Math.floor(Date.now() / 1000);

/** A provider access token: the provider's usual claims, any of them overridable (undefined drops one). */
export async function providerToken(
  key: KeyPair,
  claims: Partial<Record<"sub" | "iss" | "aud" | "exp" | "iat", string | number | undefined>> & Record<string, unknown> = {},
  header: { kid?: string; alg?: string } = {},
): Promise<string> {
  const payload: Record<string, unknown> = { sub: "did:privy:user-1", iss: ISSUER, aud: APP_ID, iat: now(), exp: now() + 3600, sid: "session-1", ...claims };
  for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
  return new SignJWT(payload as JWTPayload).setProtectedHeader({ alg: header.alg ?? key.alg, kid: header.kid ?? key.kid, typ: "JWT" }).sign(key.privateKey);
}

export const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");

/** A JWKS host the test controls: the keys it publishes, its status, how often it was asked. */
export interface JwksHost {
  url: string;
  keys: KeyPair[];
  status: number;
  hits: number;
  close(): Promise<void>;
}

export async function startJwksHost(keys: KeyPair[]): Promise<JwksHost> {
  const host: JwksHost = { url: "", keys, status: 200, hits: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    host.hits++;
    if (req.url !== "/.well-known/jwks.json" || host.status !== 200) {
      res.writeHead(req.url === "/.well-known/jwks.json" ? host.status : 404).end("no");
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: host.keys.map(jwkOf) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  host.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return host;
}

/** A loopback URL nothing listens on. */
export async function deadUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/jwks.json`;
}

/** Every response body the suite saw, to check no secret was ever in one. */
export const seenBodies: string[] = [];

export async function login(server: TestServer, body: unknown, raw = false): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: raw ? (body as string) : JSON.stringify(body),
  });
  const text = await res.text();
  seenBodies.push(text);
  return { status: res.status, body: JSON.parse(text), text };
}

export async function expectInvalid(server: TestServer, token: string, reason: RegExp) {
  const res = await login(server, { idpToken: token });
  assert.equal(res.status, 401, res.text);
  assert.equal(res.body.success, false);
  assert.equal(res.body.error.code, "INVALID_IDP_TOKEN");
  assert.match(res.body.error.message, reason);
  assert.ok(!res.text.includes(token), "the token is never echoed");
  return res;
}

/** The provider's keys in the tests: an EC key, an RSA key, and a stranger's key under the EC key's kid (a forged token). */
export const providerKey = ecPair("ec-a");
export const rsaKey = rsaPair("rsa-1");
export const strangerKey = ecPair("ec-a");
