import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/**
 * The layers of the server, bottom first (README, "Layout"). A module imports only from its own layer
 * and those below; what it needs from above it takes as a parameter or an event. A path ending in "/"
 * is a folder; the longest path that holds a file gives its layer.
 */
const LAYERS: { name: string; paths: string[] }[] = [
  {
    name: "base",
    paths: [
      "src/protocol/",
      "schema/",
      "src/config.ts",
      "src/worldSpecs.ts",
      "src/paths.ts",
      "src/keptSecret.ts",
      "src/logger.ts",
      "src/logTail.ts",
      "src/version.ts",
      "src/metrics.ts",
      "src/startupTimes.ts",
    ],
  },
  { name: "manifests", paths: ["src/manifests/"] },
  { name: "game", paths: ["src/game/"] },
  { name: "db", paths: ["src/db/", "src/auth/", "src/staff/", "src/context.ts", "src/worldAccess.ts", "src/worldDesks.ts", "src/agentActivity.ts"] },
  { name: "rooms", paths: ["rooms/"] },
  { name: "agents", paths: ["src/agents/"] },
  { name: "http", paths: ["src/http/"] },
  { name: "ws", paths: ["src/ws/"] },
  { name: "mcp", paths: ["src/mcp/"] },
  { name: "features", paths: ["src/features/"] },
  { name: "assembly", paths: ["arena.config.ts", "src/startup.ts", "src/features/index.ts"] },
  { name: "process", paths: ["src/index.ts", "src/processHandlers.ts", "src/adminCli.ts", "src/backupCli.ts", "src/auditCli.ts", "src/cli.ts"] },
];

/**
 * A feature folder (src/features/<feature>/) imports the layers below it, never another feature:
 * what features share lives below them. Only the registry (src/features/index.ts) lists them.
 */
const FEATURES = "src/features/";
const featureOf = (file: string): string | undefined => (file.startsWith(FEATURES) ? file.slice(FEATURES.length).split("/")[0] : undefined);

/** Every import of one feature's file from another feature's, as "importer imports imported". */
function featureBreaches(graph: Map<string, string[]>): string[] {
  const breaches: string[] = [];
  for (const [from, targets] of graph) {
    const mine = featureOf(from);
    if (mine === undefined || !from.slice(FEATURES.length).includes("/")) continue;
    for (const to of targets) {
      const theirs = featureOf(to);
      if (theirs !== undefined && to.slice(FEATURES.length).includes("/") && theirs !== mine)
        breaches.push(`${from} (feature ${mine}) imports ${to} (feature ${theirs})`);
    }
  }
  return breaches;
}

/** The web client is bundled for the browser: it imports only itself and the wire contract. */
const CLIENT = "client/";
const CLIENT_MAY_IMPORT = [CLIENT, "src/protocol/"];
/** Benchmarks may import anything (but take part in no circle). */
const BENCH = "bench/";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SCANNED = ["src", "rooms", "schema", "client", "bench", "arena.config.ts"];

function tsFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : [];
  return readdirSync(path)
    .filter((name) => name !== "node_modules")
    .flatMap((name) => tsFiles(join(path, name)));
}

/** The file a relative specifier names ("./a.js" is ./a.ts; a folder is its index.ts), or undefined. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const target = resolve(dirname(from), specifier);
  const candidates = [target.replace(/\.js$/, ".ts"), target, `${target}.ts`, join(target, "index.ts")];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** Every relative import of a file: import (type included), export … from, import("…") and import("…") types. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      specifiers.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.filter((specifier) => specifier.startsWith("."));
}

/** The import graph over the scanned files, by path relative to the repository. */
function importGraph(): { graph: Map<string, string[]>; unresolved: string[] } {
  const graph = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const file of SCANNED.flatMap((path) => tsFiles(join(ROOT, path)))) {
    const from = relative(ROOT, file);
    const targets = new Set<string>();
    for (const specifier of relativeImports(file)) {
      const target = resolveSpecifier(file, specifier);
      if (target === undefined) unresolved.push(`${from} imports "${specifier}", which names no file`);
      else targets.add(relative(ROOT, target));
    }
    graph.set(from, [...targets].sort());
  }
  return { graph, unresolved };
}

/** The strongly connected components of more than one file (and files importing themselves): the circles. */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return found;
}

/** One shortest circle through the first file of a component, as "a → b → a". */
function oneCircle(graph: Map<string, string[]>, component: string[]): string {
  const members = new Set(component);
  const start = component[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of graph.get(file) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at = file; at !== start; at = cameFrom.get(at)!) path.unshift(at);
        path.unshift(start);
        return path.join(" → ");
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return start;
}

function layerOf(file: string): number | undefined {
  let best: { layer: number; length: number } | undefined;
  LAYERS.forEach(({ paths }, layer) => {
    for (const path of paths) {
      const holds = path.endsWith("/") ? file.startsWith(path) : file === path;
      if (holds && (best === undefined || path.length > best.length)) best = { layer, length: path.length };
    }
  });
  return best?.layer;
}

/** Every import against the layers, as "importer imports imported (why)". */
function layerBreaches(graph: Map<string, string[]>): string[] {
  const breaches: string[] = [];
  for (const [from, targets] of graph) {
    if (from.startsWith(BENCH)) continue;
    if (from.startsWith(CLIENT)) {
      for (const to of targets.filter((to) => !CLIENT_MAY_IMPORT.some((path) => to.startsWith(path)))) {
        breaches.push(`${from} imports ${to} (the web client imports only client/ and src/protocol/)`);
      }
      continue;
    }
    const fromLayer = layerOf(from);
    if (fromLayer === undefined) {
      breaches.push(`${from} is in no layer (add it to LAYERS in test/layers.test.ts and to the README's "Layout")`);
      continue;
    }
    for (const to of targets) {
      const toLayer = layerOf(to);
      if (toLayer === undefined) breaches.push(`${from} imports ${to}, which is in no layer`);
      else if (toLayer > fromLayer) breaches.push(`${from} (${LAYERS[fromLayer]!.name}) imports ${to} (${LAYERS[toLayer]!.name}, above it)`);
    }
  }
  return breaches;
}

describe("layers", () => {
  const { graph, unresolved } = importGraph();

  it("reads the imports of the whole server", () => {
    assert.ok(graph.size > 100, `only ${graph.size} files found under ${SCANNED.join(", ")}`);
    assert.deepEqual(unresolved, []);
  });

  it("has no import circle (import type included)", () => {
    const found = circles(graph).map((component) => `${component.length} files: ${component.join(" ")}\n    e.g. ${oneCircle(graph, component)}`);
    if (found.length > 0) assert.fail(`import circles:\n  ${found.join("\n  ")}`);
  });

  it("imports only from a module's own layer and those below", () => {
    const breaches = layerBreaches(graph);
    if (breaches.length > 0) assert.fail(`imports against the layers:\n  ${breaches.join("\n  ")}`);
  });

  it("a feature folder imports no other feature", () => {
    assert.ok(
      [...graph.keys()].some((file) => featureOf(file) === "hiscores"),
      "the features are read",
    );
    const breaches = featureBreaches(graph);
    if (breaches.length > 0) assert.fail(`features importing one another:\n  ${breaches.join("\n  ")}`);
    // The rule itself: one feature's file importing another's is named.
    const made = new Map([["src/features/a/rules.ts", ["src/features/b/rules.ts", "src/features/a/repo.ts", "src/game/types.ts"]]]);
    assert.deepEqual(featureBreaches(made), ["src/features/a/rules.ts (feature a) imports src/features/b/rules.ts (feature b)"]);
  });
});
