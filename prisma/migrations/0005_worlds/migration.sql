-- Numbered worlds (WORLDS): every row that belongs to one world names it by its id. The one world
-- of earlier versions, kept as "main", is world 1 (the default WORLDS).
UPDATE "world_chunks" SET "world" = '1' WHERE "world" = 'main';
ALTER TABLE "world_chunks" ALTER COLUMN "world" SET DEFAULT '1';
UPDATE "store_stock" SET "world" = '1' WHERE "world" = 'main';
UPDATE "store_deals" SET "world" = '1' WHERE "world" = 'main';

-- A death pile lies in the world its character died in: only that world shows it and lets it be
-- reclaimed.
ALTER TABLE "player_deaths" ADD COLUMN "world" TEXT NOT NULL DEFAULT '1';

-- A session is spent in one world: a world that starts again closes only its own dangling sessions.
ALTER TABLE "player_sessions" ADD COLUMN "world" TEXT NOT NULL DEFAULT '1';
CREATE INDEX "player_sessions_open_world_idx" ON "player_sessions" ("world") WHERE "endedAt" IS NULL;
