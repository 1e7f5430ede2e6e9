-- Staked duels: one row per settled duel, written in the transaction that moved the loser's stake
-- to the winner. The id is the duel's id, so a duel is settled (and its stake moved) at most once.

-- CreateTable
CREATE TABLE "duels" (
    "id" TEXT NOT NULL,
    "winnerId" TEXT,
    "loserId" TEXT,
    "winnerName" TEXT NOT NULL,
    "loserName" TEXT NOT NULL,
    "winnerStake" JSONB NOT NULL,
    "loserStake" JSONB NOT NULL,
    "winnerValue" BIGINT NOT NULL DEFAULT 0,
    "loserValue" BIGINT NOT NULL DEFAULT 0,
    "rules" JSONB NOT NULL,
    "arenaId" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "settledAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "duels_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "duels_winnerId_fkey" FOREIGN KEY ("winnerId") REFERENCES "characters"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "duels_loserId_fkey" FOREIGN KEY ("loserId") REFERENCES "characters"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "duels_parties_check" CHECK ("winnerId" IS NULL OR "loserId" IS NULL OR "winnerId" <> "loserId"),
    CONSTRAINT "duels_values_check" CHECK ("winnerValue" >= 0 AND "loserValue" >= 0),
    CONSTRAINT "duels_outcome_check" CHECK ("outcome" IN ('win', 'forfeit', 'disconnect'))
);

CREATE INDEX "duels_winnerId_settledAt_idx" ON "duels" ("winnerId", "settledAt");

CREATE INDEX "duels_loserId_settledAt_idx" ON "duels" ("loserId", "settledAt");
