import path from "node:path";
import { Router } from "express";
import type { Logger } from "../logger.js";
import { ROOT } from "../paths.js";
import { sendError } from "./errors.js";

export const CLIENT_DIR = path.join(ROOT, "client");

let bundle: Promise<string> | undefined;

/**
 * The web client's script: client/src bundled by esbuild (with @colyseus/sdk) the first time it is
 * asked for, then kept for the life of the process. No build step before `npm start`, and nothing
 * generated is committed (and esbuild itself is loaded then, not at start).
 */
export function clientBundle(minify: boolean): Promise<string> {
  bundle ??= import("esbuild")
    .then(({ build }) =>
      build({
        entryPoints: [path.join(CLIENT_DIR, "src", "main.ts")],
        bundle: true,
        format: "esm",
        platform: "browser",
        target: "es2022",
        minify,
        sourcemap: minify ? false : "inline",
        write: false,
        logLevel: "silent",
        tsconfig: path.join(CLIENT_DIR, "tsconfig.json"),
      }),
    )
    .then((out) => out.outputFiles[0]!.text);
  // A failed build is tried again on the next request (after the sources are fixed).
  bundle.catch(() => (bundle = undefined));
  return bundle;
}

/** GET / (the page), /client/main.js (the bundle) and /client/style.css. */
export function webClientRoutes(options: { logger: Logger; minify: boolean }) {
  const router = Router();
  router.get(["/", "/index.html"], (_req, res) => {
    res.set("Cache-Control", "no-cache").sendFile(path.join(CLIENT_DIR, "index.html"));
  });
  router.get("/client/style.css", (_req, res) => {
    res.set("Cache-Control", "no-cache").sendFile(path.join(CLIENT_DIR, "style.css"));
  });
  router.get("/client/main.js", async (req, res) => {
    try {
      const js = await clientBundle(options.minify);
      res.type("application/javascript").set("Cache-Control", "no-cache").send(js);
    } catch (err) {
      options.logger.error({ err: err instanceof Error ? err.message : err }, "the web client did not build");
      sendError(res, 500, "CLIENT_BUILD_FAILED", "The web client could not be built: see the server log");
    }
  });
  return router;
}
