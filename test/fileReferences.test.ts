import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "../src/paths.js";

/** Where a comment or a document names the project's files. */
const SCANNED = ["src", "rooms", "client/src", "schema", "bench", "test", "docs", "README.md", "arena.config.ts", ".ci"];
/** Files whose paths are made up on purpose: the layers test's imaginary features, an asset host's files served by a test. */
const INVENTED = new Set(["test/layers.test.ts", "test/manifests/assets.test.ts"]);
const TEXT = /\.(ts|mts|mjs|cjs|md|json|sh|html|css)$|^run$/;
/** A path inside the project: a top folder, then segments, ending in a name (a file with its extension, or a folder). */
const PATH = /(?<![\w./-])((?:src|rooms|client|test|bench|schema|docs|prisma|world|examples)\/[\w./-]*\w)/g;

function filesUnder(path: string): string[] {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .filter((name) => name !== "node_modules" && !name.startsWith("."))
    .flatMap((name) => filesUnder(join(path, name)));
}

/** Does the path name something that is there (a `.js` import specifier names its `.ts`)? */
const exists = (ref: string) => existsSync(join(ROOT, ref)) || (ref.endsWith(".js") && existsSync(join(ROOT, ref.replace(/\.js$/, ".ts"))));

describe("file references", () => {
  it("every project path a comment, a test or a document names exists (moved files leave no stale pointer)", () => {
    const files = SCANNED.flatMap(filesUnder).filter((f) => TEXT.test(f.split("/").pop()!) && !INVENTED.has(f));
    assert.ok(files.length > 500, `${files.length} files scanned`);
    const stale: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const [, raw] of text.matchAll(PATH)) {
        const ref = raw!.replace(/\.$/, "");
        // A glob, a placeholder or a bare folder-like word that names no file kind is not a reference.
        if (/[*<>{}]/.test(ref) || (!/\.\w+$/.test(ref) && !existsSync(join(ROOT, ref)))) continue;
        if (!exists(ref)) stale.push(`${relative(ROOT, join(ROOT, file))} names ${ref}`);
      }
    }
    assert.deepEqual(stale, []);
  });
});
