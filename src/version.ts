import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./paths.js";

/** The server's version, from package.json (read once). */
export const VERSION: string = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version;
