-- What the watchdog flagged (rooms/worldWatchdog.ts): one open flag per character and kind, seen
-- again counted on it, with the latest evidence; staff clear it (GET, POST /api/admin/flags).
CREATE TABLE "flags" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "characterId" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "world" TEXT NOT NULL,
    "evidence" JSONB NOT NULL DEFAULT '{}',
    "count" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "clearedAt" TIMESTAMP(3),
    "clearedByName" TEXT,
    "clearNote" TEXT,

    CONSTRAINT "flags_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "flags_kind_check" CHECK ("kind" IN ('movement', 'action_rate', 'xp_rate', 'wealth'))
);
CREATE INDEX "flags_open_idx" ON "flags" ("clearedAt", "lastAt");
CREATE UNIQUE INDEX "flags_one_open_idx" ON "flags" ("characterId", "kind") WHERE "clearedAt" IS NULL;
