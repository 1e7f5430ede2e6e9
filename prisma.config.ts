import { existsSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";

// The Prisma CLI (generate, migrate diff) runs its schema engine as WebAssembly through a driver
// adapter, so no native engine is downloaded. It still looks for a native query-engine library:
// point it at a file that exists so it never tries to fetch one.
if (!process.env.PRISMA_QUERY_ENGINE_LIBRARY) {
  const stand_in = path.resolve("node_modules/prisma/build/index.js");
  if (existsSync(stand_in)) process.env.PRISMA_QUERY_ENGINE_LIBRARY = stand_in;
}

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  experimental: { adapter: true },
  engine: "js",
  // An in-memory PGlite: the CLI only needs a database to diff against, never the real one.
  // (Cast: the adapter is built against an older copy of the same adapter types.)
  adapter: async () => new PrismaPGlite(new PGlite()) as never,
});
