-- Quests (a character's journal), store shelves (one world's stock) and the store ledger.

-- CreateTable
CREATE TABLE "character_quests" (
    "characterId" TEXT NOT NULL,
    "questId" TEXT NOT NULL,
    "stage" INTEGER NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "completions" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "character_quests_pkey" PRIMARY KEY ("characterId", "questId"),
    CONSTRAINT "character_quests_characterId_fkey" FOREIGN KEY ("characterId") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "character_quests_counts_check" CHECK ("stage" >= 0 AND "count" >= 0 AND "completions" >= 0)
);

-- CreateTable
CREATE TABLE "store_stock" (
    "world" TEXT NOT NULL,
    "storeId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "store_stock_pkey" PRIMARY KEY ("world", "storeId", "itemId"),
    CONSTRAINT "store_stock_quantity_check" CHECK ("quantity" >= 0)
);

-- CreateTable
CREATE TABLE "store_deals" (
    "id" TEXT NOT NULL,
    "world" TEXT NOT NULL,
    "characterId" TEXT,
    "storeId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "coins" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "store_deals_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "store_deals_characterId_fkey" FOREIGN KEY ("characterId") REFERENCES "characters"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "store_deals_kind_check" CHECK ("kind" IN ('buy', 'sell')),
    CONSTRAINT "store_deals_amounts_check" CHECK ("quantity" > 0 AND "coins" >= 0)
);

CREATE INDEX "store_deals_characterId_createdAt_idx" ON "store_deals" ("characterId", "createdAt");
