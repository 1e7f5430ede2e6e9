import { Router } from "express";
import { publicSettings, type Config } from "../config.js";

/**
 * GET /env.js: a script that puts the public settings on the page's global env object; GET
 * /env.json: the same settings as JSON, for clients that fetch rather than load a script. Only what
 * publicSettings() returns is ever written here; no secret reaches a browser.
 */
export function envScriptRoute(config: Config) {
  const settings = publicSettings(config);
  // JSON inside a script: escape "<" so a value can never close the script element.
  const json = JSON.stringify(settings).replace(/</g, "\\u003c");
  const body = `window.env = Object.assign(window.env || {}, ${json});\n`;
  const router = Router();
  router.get("/env.js", (_req, res) => {
    res.type("application/javascript").set("Cache-Control", "no-cache").send(body);
  });
  router.get("/env.json", (_req, res) => {
    res.set("Cache-Control", "no-cache").json(settings);
  });
  return router;
}
