-- The address each session came from (null: a built-in agent, which has none), and bans by
-- address (src/db/addressBans.ts): always for a time, of new guests only or of every non-staff login.
ALTER TABLE "player_sessions" ADD COLUMN "address" TEXT;
CREATE INDEX "player_sessions_address_idx" ON "player_sessions" ("address", "startedAt");

CREATE TABLE "address_bans" (
    "id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endsAt" TIMESTAMP(3) NOT NULL,
    "byAccountId" TEXT,
    "byName" TEXT NOT NULL,
    "liftedAt" TIMESTAMP(3),
    "liftedByName" TEXT,
    "liftReason" TEXT,

    CONSTRAINT "address_bans_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "address_bans_scope_check" CHECK ("scope" IN ('guests', 'all'))
);
CREATE INDEX "address_bans_address_idx" ON "address_bans" ("address", "endsAt");
