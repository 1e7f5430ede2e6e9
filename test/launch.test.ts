import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { bundle, fingerprint } from "../src/launch.mjs";
import { CACHE_DIR, ROOT } from "../src/paths.js";

/** npm start's entry (src/launch.mjs): the server as a bundle of its sources, made when they change. */
describe("npm start's launcher", function () {
  this.timeout(60_000);

  it("bundles the server and the embedded database's thread into the cache, and reuses the bundle while the sources are unchanged", async () => {
    const dir = await bundle();
    assert.equal(path.dirname(dir), CACHE_DIR);
    assert.match(path.basename(dir), /^server-[0-9a-f]{16}$/);
    for (const file of ["index.js", "pgliteWorker.js"]) assert.ok(existsSync(path.join(dir, file)), file);
    const madeAt = statSync(path.join(dir, "index.js")).mtimeMs;
    assert.equal(await bundle(), dir);
    assert.equal(statSync(path.join(dir, "index.js")).mtimeMs, madeAt, "not made again");
  });

  it("names a bundle for every source file's path and content, and the bundler's version", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "arena-launch-"));
    try {
      await mkdir(path.join(root, "src", "db"), { recursive: true });
      await writeFile(path.join(root, "src", "index.ts"), "export {};\n");
      await writeFile(path.join(root, "src", "db", "a.ts"), "export const a = 1;\n");
      await writeFile(path.join(root, "src", "notes.txt"), "not a source\n");
      const first = fingerprint("0.1.0", root);
      assert.equal(fingerprint("0.1.0", root), first, "the same sources, the same name");
      assert.notEqual(fingerprint("0.2.0", root), first, "another bundler");
      await writeFile(path.join(root, "src", "notes.txt"), "still not a source\n");
      assert.equal(fingerprint("0.1.0", root), first, "what is not a source does not count");
      await writeFile(path.join(root, "src", "db", "a.ts"), "export const a = 2;\n");
      const changed = fingerprint("0.1.0", root);
      assert.notEqual(changed, first, "a changed source");
      await writeFile(path.join(root, "arena.config.ts"), "export {};\n");
      assert.notEqual(fingerprint("0.1.0", root), changed, "a new source");
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("maps a stack's frames in the bundle to the TypeScript sources, and leaves the frames outside it as they were", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "arena-stacks-"));
    try {
      const source = path.join(root, "thrower.ts");
      // The throw is on line 4, column 9 of the source; the bundle puts it elsewhere.
      await writeFile(
        source,
        'type Unused = { a: number };\nexport function thrower(): never {\n  const why: string = "on purpose";\n  throw new Error(why);\n}\n',
      );
      const out = path.join(root, "bundle");
      const esbuild = await import("esbuild");
      await esbuild.build({
        entryPoints: [source],
        outdir: out,
        bundle: true,
        format: "esm",
        platform: "node",
        sourcemap: "linked",
        sourcesContent: false,
        logLevel: "error",
      });
      const script = [
        `import { mapStackTraces } from ${JSON.stringify(path.join(ROOT, "src", "stackTraces.mjs"))};`,
        `mapStackTraces(${JSON.stringify(out)});`,
        `const { thrower } = await import(${JSON.stringify(path.join(out, "thrower.js"))});`,
        `let stack; try { thrower(); } catch (err) { stack = err.stack; }`,
        `console.log(JSON.stringify({ stack, other: new Error("outside the bundle").stack }));`,
      ].join("\n");
      const { stack, other } = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })) as Record<
        string,
        string
      >;
      const [first, second] = stack.split("\n");
      const outside = other.split("\n")[1];
      assert.equal(first, "Error: on purpose");
      assert.ok(second.includes(`${source}:4:9`), second);
      assert.ok(!second.includes("thrower.js"), second);
      assert.ok(outside.includes("[eval"), `a frame outside the bundle is left as V8 writes it: ${outside}`);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
