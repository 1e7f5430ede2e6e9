-- The item ledger: every change of a character's holdings (pack, worn and bank together) with its
-- cause, written in the transaction that writes the items. The holdings of every character that
-- exists now open it ("opening"), so that for every character and item the ledger sums to what
-- the character holds.
CREATE TABLE "item_ledger" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "characterId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "delta" BIGINT NOT NULL,
    "cause" TEXT NOT NULL,
    "ref" TEXT,
    "otherId" TEXT,
    "world" TEXT,

    CONSTRAINT "item_ledger_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "item_ledger_delta_check" CHECK ("delta" <> 0)
);
CREATE INDEX "item_ledger_character_idx" ON "item_ledger" ("characterId", "itemId", "id");
CREATE INDEX "item_ledger_cause_ref_idx" ON "item_ledger" ("cause", "ref");

INSERT INTO "item_ledger" ("characterId", "itemId", "delta", "cause")
SELECT "characterId", "itemId", SUM("quantity"), 'opening'
FROM (
    SELECT "characterId", "itemId", "quantity" FROM "inventory"
    UNION ALL SELECT "characterId", "itemId", "quantity" FROM "equipment"
    UNION ALL SELECT "characterId", "itemId", "quantity" FROM "bank"
) AS held
GROUP BY "characterId", "itemId"
HAVING SUM("quantity") <> 0;
