import { timingSafeEqual } from "node:crypto";
import { monitor } from "@colyseus/monitor";
import { Router, type RequestHandler } from "express";
import type { Logger } from "pino";

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** HTTP basic auth where the password is the admin code (any user name). */
export function basicAuthWithCode(code: string): RequestHandler {
  return (req, res, next) => {
    const header = req.get("authorization") ?? "";
    const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
    if (match) {
      const decoded = Buffer.from(match[1], "base64").toString("utf8");
      const password = decoded.slice(decoded.indexOf(":") + 1);
      if (decoded.includes(":") && sameSecret(password, code)) return next();
    }
    res.set("WWW-Authenticate", 'Basic realm="colyseus monitor", charset="UTF-8"');
    res.status(401).json({ success: false, error: { code: "UNAUTHORIZED", message: "The monitor needs the admin code" } });
  };
}

/** The Colyseus monitor at /colyseus behind the admin code; off (with a log line) when no code is set. */
export function monitorRoutes(adminCode: string | undefined, logger: Logger) {
  const router = Router();
  if (!adminCode) {
    logger.info("admin monitor at /colyseus is disabled: set ADMIN_CODE to enable it");
    return router;
  }
  router.use("/colyseus", basicAuthWithCode(adminCode), monitor() as unknown as RequestHandler);
  return router;
}
