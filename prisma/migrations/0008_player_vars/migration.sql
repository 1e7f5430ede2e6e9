-- A character's player variables (src/game/world/playerVars.ts): the settings and state the
-- game's features keep on it (auto-retaliate, a cooldown's end, ...), by name. One object of
-- numbers and booleans, so a new feature's state needs no column of its own.
ALTER TABLE "characters" ADD COLUMN "vars" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "characters" ADD CONSTRAINT "characters_vars_object_check" CHECK (jsonb_typeof("vars") = 'object');
