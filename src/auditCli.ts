import { loadConfig } from "./config.js";
import { databaseOptionsFrom, openDatabase } from "./db/client.js";
import { heldByServer, runCli } from "./cli.js";
import { conservation, ledgerPage } from "./db/ledgerRepo.js";
import { createLogger } from "./logger.js";

/**
 * `npm run audit [-- <character id>]`: the item ledger's conservation check against the configured
 * database (README "The item ledger"): every character's holdings against the sum of its ledger,
 * and every transfer's two sides. Exit 0 when nothing is found, 1 with each mismatch and the
 * ledger rows around it. The embedded database takes one process at a time: while the server
 * runs on it, ask the server (GET /api/admin/audit/conservation).
 */
async function main([characterId]: string[]): Promise<number> {
  const config = loadConfig(process.env);
  if (heldByServer(config, "While it runs, ask it: GET /api/admin/audit/conservation with an admin's token; or stop it and run this again.")) return 1;
  const db = await openDatabase(databaseOptionsFrom(config, createLogger({ level: "warn" })));
  try {
    const report = await conservation(db.sql, characterId);
    console.log(`${report.characters} characters checked`);
    for (const m of report.holdings) {
      console.log(`MISMATCH ${m.name ?? "?"} (${m.characterId}) ${m.itemId}: the ledger sums to ${m.expected}, the character holds ${m.found}`);
      for (const r of (await ledgerPage(db.sql, m.characterId, { limit: 10, itemId: m.itemId })).reverse()) {
        console.log(`    #${r.id} ${r.at} ${r.delta > 0 ? "+" : ""}${r.delta} ${r.cause}${r.ref ? ` ${r.ref}` : ""}${r.otherId ? ` with ${r.otherId}` : ""}`);
      }
    }
    for (const t of report.transfers) console.log(`MISMATCH ${t.cause} ${t.ref} ${t.itemId}: its sides are off by ${t.imbalance}`);
    const found = report.holdings.length + report.transfers.length;
    console.log(found ? `${found} mismatches` : "No mismatch: every holding is its ledger's sum, every transfer's sides match");
    return found ? 1 : 0;
  } finally {
    await db.close();
  }
}

runCli(main);
