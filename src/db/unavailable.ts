/**
 * Is this error the database being unreachable (down, restarting, out of connections, closed),
 * rather than a fault of the query? What the drivers throw, as seen by stopping a real
 * PostgreSQL and closing PGlite under a running server:
 * - Prisma over @prisma/adapter-pg: PrismaClientKnownRequestError P1001 ("Can't reach database
 *   server"), its driver-adapter cause `kind` DatabaseNotReachable / ConnectionClosed /
 *   SocketTimeout / TooManyConnections, or the other connection codes (P1002, P1008, P1017, P2024);
 *   PrismaClientInitializationError when it never connected;
 * - pg itself (the raw SQL channel): ECONNREFUSED, ECONNRESET, ETIMEDOUT, "Connection terminated",
 *   "timeout exceeded when trying to connect", SQLSTATE class 08 (connection exception), 57P01-03
 *   (the server shutting down or starting), 53300 (too many connections);
 * - PGlite: "PGlite is closed".
 */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const MESSAGES =
  /PGlite is closed|Connection terminated|timeout exceeded when trying to connect|Can't reach database server|Server has closed the connection|Client has encountered a connection error/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const o = e as { name?: unknown; code?: unknown; message?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } };
    if (o.name === "PrismaClientInitializationError") return true;
    const code = typeof o.code === "string" ? o.code : undefined;
    if (code && (PRISMA_CODES.has(code) || SOCKET_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    const kind = o.meta?.driverAdapterError?.cause?.kind;
    if (typeof kind === "string" && ADAPTER_KINDS.has(kind)) return true;
    if (typeof o.message === "string" && MESSAGES.test(o.message)) return true;
  }
  return false;
}
