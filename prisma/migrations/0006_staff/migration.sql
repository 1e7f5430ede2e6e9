-- Staff and moderation. Roles are kept per account in "users"."roles" ('player', 'moderator',
-- 'admin'); this adds sanctions, player reports and the audit log of every privileged act.

-- A mute or a ban of an account. Active while not lifted and not past "endsAt" (NULL: permanent).
CREATE TABLE "sanctions" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endsAt" TIMESTAMP(3),
    "byAccountId" TEXT,
    "byName" TEXT NOT NULL,
    "targetName" TEXT NOT NULL,
    "liftedAt" TIMESTAMP(3),
    "liftedByAccountId" TEXT,
    "liftedByName" TEXT,
    "liftReason" TEXT,

    CONSTRAINT "sanctions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "sanctions_kind_check" CHECK ("kind" IN ('mute', 'ban')),
    CONSTRAINT "sanctions_ends_check" CHECK ("endsAt" IS NULL OR "endsAt" > "createdAt")
);
CREATE INDEX "sanctions_accountId_kind_idx" ON "sanctions" ("accountId", "kind") WHERE "liftedAt" IS NULL;
CREATE INDEX "sanctions_createdAt_idx" ON "sanctions" ("createdAt");

-- A player's report of another player, with the chat between them the server saw.
CREATE TABLE "player_reports" (
    "id" TEXT NOT NULL,
    "reporterAccountId" TEXT NOT NULL,
    "reporterCharacterId" TEXT,
    "reporterName" TEXT NOT NULL,
    "targetAccountId" TEXT NOT NULL,
    "targetCharacterId" TEXT NOT NULL,
    "targetName" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "chat" JSONB NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'open',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimedByAccountId" TEXT,
    "claimedByName" TEXT,
    "claimedAt" TIMESTAMP(3),
    "closedByAccountId" TEXT,
    "closedByName" TEXT,
    "closedAt" TIMESTAMP(3),
    "resolution" TEXT,

    CONSTRAINT "player_reports_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "player_reports_status_check" CHECK ("status" IN ('open', 'claimed', 'closed'))
);
CREATE INDEX "player_reports_status_createdAt_idx" ON "player_reports" ("status", "createdAt");
CREATE INDEX "player_reports_reporter_createdAt_idx" ON "player_reports" ("reporterAccountId", "createdAt");
CREATE INDEX "player_reports_target_idx" ON "player_reports" ("targetAccountId");

-- Every privileged act, one row each, never changed or removed (the trigger below refuses it).
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorAccountId" TEXT,
    "actorCharacterId" TEXT,
    "actorName" TEXT NOT NULL,
    "via" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "targetAccountId" TEXT,
    "targetCharacterId" TEXT,
    "targetName" TEXT,
    "args" JSONB NOT NULL DEFAULT '{}',
    "reason" TEXT,
    "processId" TEXT NOT NULL,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "audit_log_via_check" CHECK ("via" IN ('game', 'rest', 'cli', 'monitor', 'server'))
);
CREATE INDEX "audit_log_actor_idx" ON "audit_log" ("actorAccountId", "id");
CREATE INDEX "audit_log_target_idx" ON "audit_log" ("targetAccountId", "id");
CREATE INDEX "audit_log_kind_idx" ON "audit_log" ("kind", "id");
CREATE INDEX "audit_log_at_idx" ON "audit_log" ("at");

CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: rows are never changed or removed';
END;
$$;
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();
