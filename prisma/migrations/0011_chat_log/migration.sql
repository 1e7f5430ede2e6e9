-- Every chat line said (local, world, private), kept CHAT_RETENTION_DAYS for the staff's search
-- (GET /api/admin/chat) and for the lines around a report; older lines are deleted by the server.
CREATE TABLE "chat_lines" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "world" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "fromCharacterId" TEXT NOT NULL,
    "fromAccountId" TEXT NOT NULL,
    "fromName" TEXT NOT NULL,
    "toCharacterId" TEXT,
    "toName" TEXT,
    "message" TEXT NOT NULL,

    CONSTRAINT "chat_lines_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "chat_lines_channel_check" CHECK ("channel" IN ('local', 'world', 'private'))
);
CREATE INDEX "chat_lines_at_idx" ON "chat_lines" ("at");
CREATE INDEX "chat_lines_from_idx" ON "chat_lines" ("fromCharacterId", "at");
CREATE INDEX "chat_lines_to_idx" ON "chat_lines" ("toCharacterId", "at");
