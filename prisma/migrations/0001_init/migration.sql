-- CreateEnum
CREATE TYPE "EquipmentSlot" AS ENUM ('weapon', 'shield', 'helmet', 'body', 'legs', 'boots', 'gloves', 'cape', 'amulet', 'ring', 'arrows');

-- CreateEnum
CREATE TYPE "FriendRequestStatus" AS ENUM ('pending', 'accepted', 'declined', 'cancelled');

-- CreateEnum
CREATE TYPE "AgentGoalStatus" AS ENUM ('active', 'completed', 'cancelled');

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "idpUserId" TEXT,
    "socialIds" JSONB NOT NULL DEFAULT '{}',
    "roles" TEXT[] DEFAULT ARRAY['player']::TEXT[],
    "isGuest" BOOLEAN NOT NULL DEFAULT false,
    "displayName" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "characters" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "combatLevel" INTEGER NOT NULL DEFAULT 3,
    "attackLevel" INTEGER NOT NULL DEFAULT 1,
    "strengthLevel" INTEGER NOT NULL DEFAULT 1,
    "defenseLevel" INTEGER NOT NULL DEFAULT 1,
    "constitutionLevel" INTEGER NOT NULL DEFAULT 10,
    "rangedLevel" INTEGER NOT NULL DEFAULT 1,
    "prayerLevel" INTEGER NOT NULL DEFAULT 1,
    "magicLevel" INTEGER NOT NULL DEFAULT 1,
    "woodcuttingLevel" INTEGER NOT NULL DEFAULT 1,
    "miningLevel" INTEGER NOT NULL DEFAULT 1,
    "fishingLevel" INTEGER NOT NULL DEFAULT 1,
    "firemakingLevel" INTEGER NOT NULL DEFAULT 1,
    "cookingLevel" INTEGER NOT NULL DEFAULT 1,
    "smithingLevel" INTEGER NOT NULL DEFAULT 1,
    "agilityLevel" INTEGER NOT NULL DEFAULT 1,
    "craftingLevel" INTEGER NOT NULL DEFAULT 1,
    "fletchingLevel" INTEGER NOT NULL DEFAULT 1,
    "runecraftingLevel" INTEGER NOT NULL DEFAULT 1,
    "attackXp" INTEGER NOT NULL DEFAULT 0,
    "strengthXp" INTEGER NOT NULL DEFAULT 0,
    "defenseXp" INTEGER NOT NULL DEFAULT 0,
    "constitutionXp" INTEGER NOT NULL DEFAULT 1154,
    "rangedXp" INTEGER NOT NULL DEFAULT 0,
    "prayerXp" INTEGER NOT NULL DEFAULT 0,
    "magicXp" INTEGER NOT NULL DEFAULT 0,
    "woodcuttingXp" INTEGER NOT NULL DEFAULT 0,
    "miningXp" INTEGER NOT NULL DEFAULT 0,
    "fishingXp" INTEGER NOT NULL DEFAULT 0,
    "firemakingXp" INTEGER NOT NULL DEFAULT 0,
    "cookingXp" INTEGER NOT NULL DEFAULT 0,
    "smithingXp" INTEGER NOT NULL DEFAULT 0,
    "agilityXp" INTEGER NOT NULL DEFAULT 0,
    "craftingXp" INTEGER NOT NULL DEFAULT 0,
    "fletchingXp" INTEGER NOT NULL DEFAULT 0,
    "runecraftingXp" INTEGER NOT NULL DEFAULT 0,
    "health" INTEGER NOT NULL DEFAULT 100,
    "coins" INTEGER NOT NULL DEFAULT 0,
    "positionX" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "positionY" DOUBLE PRECISION NOT NULL DEFAULT 10,
    "positionZ" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "isAgent" BOOLEAN NOT NULL DEFAULT false,
    "appearance" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastLoginAt" TIMESTAMP(3),

    CONSTRAINT "characters_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "items" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "stackable" BOOLEAN NOT NULL DEFAULT false,
    "value" INTEGER NOT NULL DEFAULT 0,
    "tradeable" BOOLEAN NOT NULL DEFAULT true,
    "equipSlot" "EquipmentSlot",
    "data" JSONB NOT NULL DEFAULT '{}',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inventory" (
    "characterId" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "itemId" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,

    CONSTRAINT "inventory_pkey" PRIMARY KEY ("characterId","slot")
);

-- CreateTable
CREATE TABLE "equipment" (
    "characterId" TEXT NOT NULL,
    "slot" "EquipmentSlot" NOT NULL,
    "itemId" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "equipment_pkey" PRIMARY KEY ("characterId","slot")
);

-- CreateTable
CREATE TABLE "bank" (
    "characterId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "slot" INTEGER NOT NULL,

    CONSTRAINT "bank_pkey" PRIMARY KEY ("characterId","itemId")
);

-- CreateTable
CREATE TABLE "world_chunks" (
    "world" TEXT NOT NULL DEFAULT 'main',
    "chunkX" INTEGER NOT NULL,
    "chunkZ" INTEGER NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "world_chunks_pkey" PRIMARY KEY ("world","chunkX","chunkZ")
);

-- CreateTable
CREATE TABLE "player_sessions" (
    "id" TEXT NOT NULL,
    "characterId" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "clientType" TEXT NOT NULL DEFAULT 'colyseus',
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),
    "endReason" TEXT,

    CONSTRAINT "player_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "player_deaths" (
    "id" TEXT NOT NULL,
    "characterId" TEXT NOT NULL,
    "positionX" DOUBLE PRECISION NOT NULL,
    "positionY" DOUBLE PRECISION NOT NULL,
    "positionZ" DOUBLE PRECISION NOT NULL,
    "items" JSONB NOT NULL DEFAULT '[]',
    "killedBy" TEXT,
    "diedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" TIMESTAMP(3),
    "resolution" TEXT,

    CONSTRAINT "player_deaths_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "npc_kills" (
    "characterId" TEXT NOT NULL,
    "npcId" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 1,
    "lastKilledAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "npc_kills_pkey" PRIMARY KEY ("characterId","npcId")
);

-- CreateTable
CREATE TABLE "friendships" (
    "characterAId" TEXT NOT NULL,
    "characterBId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "friendships_pkey" PRIMARY KEY ("characterAId","characterBId")
);

-- CreateTable
CREATE TABLE "friend_requests" (
    "id" TEXT NOT NULL,
    "fromCharacterId" TEXT NOT NULL,
    "toCharacterId" TEXT NOT NULL,
    "status" "FriendRequestStatus" NOT NULL DEFAULT 'pending',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "respondedAt" TIMESTAMP(3),

    CONSTRAINT "friend_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ignore_lists" (
    "accountId" TEXT NOT NULL,
    "ignoredCharacterId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ignore_lists_pkey" PRIMARY KEY ("accountId","ignoredCharacterId")
);

-- CreateTable
CREATE TABLE "trades" (
    "id" TEXT NOT NULL,
    "initiatorId" TEXT,
    "recipientId" TEXT,
    "initiatorName" TEXT NOT NULL,
    "recipientName" TEXT NOT NULL,
    "initiatorOffer" JSONB NOT NULL,
    "recipientOffer" JSONB NOT NULL,
    "initiatorValue" BIGINT NOT NULL DEFAULT 0,
    "recipientValue" BIGINT NOT NULL DEFAULT 0,
    "completedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trades_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_mappings" (
    "agentId" TEXT NOT NULL,
    "characterId" TEXT NOT NULL,
    "ownerAccountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "runtime" TEXT NOT NULL DEFAULT 'builtin',
    "running" BOOLEAN NOT NULL DEFAULT true,
    "goalsPaused" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_mappings_pkey" PRIMARY KEY ("agentId")
);

-- CreateTable
CREATE TABLE "agent_goals" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "target" TEXT,
    "params" JSONB NOT NULL DEFAULT '{}',
    "progress" JSONB NOT NULL DEFAULT '{}',
    "status" "AgentGoalStatus" NOT NULL DEFAULT 'active',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_goals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_idpUserId_key" ON "users"("idpUserId");

-- CreateIndex
CREATE INDEX "users_isGuest_lastSeenAt_idx" ON "users"("isGuest", "lastSeenAt");

-- CreateIndex
CREATE INDEX "characters_accountId_idx" ON "characters"("accountId");

-- CreateIndex
CREATE INDEX "inventory_itemId_idx" ON "inventory"("itemId");

-- CreateIndex
CREATE INDEX "equipment_itemId_idx" ON "equipment"("itemId");

-- CreateIndex
CREATE INDEX "bank_itemId_idx" ON "bank"("itemId");

-- CreateIndex
CREATE INDEX "player_sessions_characterId_startedAt_idx" ON "player_sessions"("characterId", "startedAt");

-- CreateIndex
CREATE INDEX "player_deaths_characterId_diedAt_idx" ON "player_deaths"("characterId", "diedAt");

-- CreateIndex
CREATE INDEX "friendships_characterBId_idx" ON "friendships"("characterBId");

-- CreateIndex
CREATE INDEX "friend_requests_toCharacterId_status_idx" ON "friend_requests"("toCharacterId", "status");

-- CreateIndex
CREATE INDEX "trades_initiatorId_completedAt_idx" ON "trades"("initiatorId", "completedAt");

-- CreateIndex
CREATE INDEX "trades_recipientId_completedAt_idx" ON "trades"("recipientId", "completedAt");

-- CreateIndex
CREATE UNIQUE INDEX "agent_mappings_characterId_key" ON "agent_mappings"("characterId");

-- CreateIndex
CREATE INDEX "agent_mappings_ownerAccountId_idx" ON "agent_mappings"("ownerAccountId");

-- CreateIndex
CREATE INDEX "agent_goals_agentId_status_idx" ON "agent_goals"("agentId", "status");

-- AddForeignKey
ALTER TABLE "characters" ADD CONSTRAINT "characters_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory" ADD CONSTRAINT "inventory_characterId_fkey" FOREIGN KEY ("characterId") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory" ADD CONSTRAINT "inventory_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "items"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_characterId_fkey" FOREIGN KEY ("characterId") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "items"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bank" ADD CONSTRAINT "bank_characterId_fkey" FOREIGN KEY ("characterId") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bank" ADD CONSTRAINT "bank_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "items"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "player_sessions" ADD CONSTRAINT "player_sessions_characterId_fkey" FOREIGN KEY ("characterId") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "player_deaths" ADD CONSTRAINT "player_deaths_characterId_fkey" FOREIGN KEY ("characterId") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "npc_kills" ADD CONSTRAINT "npc_kills_characterId_fkey" FOREIGN KEY ("characterId") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "friendships" ADD CONSTRAINT "friendships_characterAId_fkey" FOREIGN KEY ("characterAId") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "friendships" ADD CONSTRAINT "friendships_characterBId_fkey" FOREIGN KEY ("characterBId") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "friend_requests" ADD CONSTRAINT "friend_requests_fromCharacterId_fkey" FOREIGN KEY ("fromCharacterId") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "friend_requests" ADD CONSTRAINT "friend_requests_toCharacterId_fkey" FOREIGN KEY ("toCharacterId") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ignore_lists" ADD CONSTRAINT "ignore_lists_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ignore_lists" ADD CONSTRAINT "ignore_lists_ignoredCharacterId_fkey" FOREIGN KEY ("ignoredCharacterId") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trades" ADD CONSTRAINT "trades_initiatorId_fkey" FOREIGN KEY ("initiatorId") REFERENCES "characters"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trades" ADD CONSTRAINT "trades_recipientId_fkey" FOREIGN KEY ("recipientId") REFERENCES "characters"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_mappings" ADD CONSTRAINT "agent_mappings_characterId_fkey" FOREIGN KEY ("characterId") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_mappings" ADD CONSTRAINT "agent_mappings_ownerAccountId_fkey" FOREIGN KEY ("ownerAccountId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_goals" ADD CONSTRAINT "agent_goals_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "agent_mappings"("agentId") ON DELETE CASCADE ON UPDATE CASCADE;


-- Invariants Prisma cannot express: checks and partial/expression unique indexes.

-- Characters: levels 1..99, xp 0..200M, no negative health or coins; names unique ignoring case.
ALTER TABLE "characters"
  ADD CONSTRAINT "characters_levels_check" CHECK (
    "combatLevel" BETWEEN 3 AND 126 AND
    "attackLevel" BETWEEN 1 AND 99 AND "strengthLevel" BETWEEN 1 AND 99 AND
    "defenseLevel" BETWEEN 1 AND 99 AND "constitutionLevel" BETWEEN 1 AND 99 AND
    "rangedLevel" BETWEEN 1 AND 99 AND "prayerLevel" BETWEEN 1 AND 99 AND
    "magicLevel" BETWEEN 1 AND 99 AND "woodcuttingLevel" BETWEEN 1 AND 99 AND
    "miningLevel" BETWEEN 1 AND 99 AND "fishingLevel" BETWEEN 1 AND 99 AND
    "firemakingLevel" BETWEEN 1 AND 99 AND "cookingLevel" BETWEEN 1 AND 99 AND
    "smithingLevel" BETWEEN 1 AND 99 AND "agilityLevel" BETWEEN 1 AND 99 AND
    "craftingLevel" BETWEEN 1 AND 99 AND "fletchingLevel" BETWEEN 1 AND 99 AND
    "runecraftingLevel" BETWEEN 1 AND 99),
  ADD CONSTRAINT "characters_xp_check" CHECK (
    "attackXp" BETWEEN 0 AND 200000000 AND "strengthXp" BETWEEN 0 AND 200000000 AND
    "defenseXp" BETWEEN 0 AND 200000000 AND "constitutionXp" BETWEEN 0 AND 200000000 AND
    "rangedXp" BETWEEN 0 AND 200000000 AND "prayerXp" BETWEEN 0 AND 200000000 AND
    "magicXp" BETWEEN 0 AND 200000000 AND "woodcuttingXp" BETWEEN 0 AND 200000000 AND
    "miningXp" BETWEEN 0 AND 200000000 AND "fishingXp" BETWEEN 0 AND 200000000 AND
    "firemakingXp" BETWEEN 0 AND 200000000 AND "cookingXp" BETWEEN 0 AND 200000000 AND
    "smithingXp" BETWEEN 0 AND 200000000 AND "agilityXp" BETWEEN 0 AND 200000000 AND
    "craftingXp" BETWEEN 0 AND 200000000 AND "fletchingXp" BETWEEN 0 AND 200000000 AND
    "runecraftingXp" BETWEEN 0 AND 200000000),
  ADD CONSTRAINT "characters_health_check" CHECK ("health" >= 0),
  ADD CONSTRAINT "characters_coins_check" CHECK ("coins" >= 0),
  ADD CONSTRAINT "characters_name_check" CHECK (char_length("name") BETWEEN 1 AND 32);
CREATE UNIQUE INDEX "characters_name_lower_key" ON "characters" (lower("name"));

ALTER TABLE "items"
  ADD CONSTRAINT "items_value_check" CHECK ("value" >= 0);

ALTER TABLE "inventory"
  ADD CONSTRAINT "inventory_slot_check" CHECK ("slot" BETWEEN 0 AND 27),
  ADD CONSTRAINT "inventory_quantity_check" CHECK ("quantity" > 0);

ALTER TABLE "equipment"
  ADD CONSTRAINT "equipment_quantity_check" CHECK ("quantity" > 0);

ALTER TABLE "bank"
  ADD CONSTRAINT "bank_quantity_check" CHECK ("quantity" > 0),
  ADD CONSTRAINT "bank_slot_check" CHECK ("slot" >= 0);

ALTER TABLE "player_sessions"
  ADD CONSTRAINT "player_sessions_span_check" CHECK ("endedAt" IS NULL OR "endedAt" >= "startedAt");

-- The death lock: at most one unresolved death per character.
CREATE UNIQUE INDEX "player_deaths_open_lock_key" ON "player_deaths" ("characterId") WHERE "resolvedAt" IS NULL;

ALTER TABLE "npc_kills"
  ADD CONSTRAINT "npc_kills_count_check" CHECK ("count" > 0);

-- A friendship is one row per pair, ordered, so it is bidirectional by construction.
ALTER TABLE "friendships"
  ADD CONSTRAINT "friendships_order_check" CHECK ("characterAId" < "characterBId");

ALTER TABLE "friend_requests"
  ADD CONSTRAINT "friend_requests_not_self_check" CHECK ("fromCharacterId" <> "toCharacterId");
CREATE UNIQUE INDEX "friend_requests_pending_key" ON "friend_requests" ("fromCharacterId", "toCharacterId") WHERE "status" = 'pending';

ALTER TABLE "trades"
  ADD CONSTRAINT "trades_parties_check" CHECK ("initiatorId" IS NULL OR "recipientId" IS NULL OR "initiatorId" <> "recipientId"),
  ADD CONSTRAINT "trades_values_check" CHECK ("initiatorValue" >= 0 AND "recipientValue" >= 0);

CREATE UNIQUE INDEX "agent_goals_one_active_key" ON "agent_goals" ("agentId") WHERE "status" = 'active';
