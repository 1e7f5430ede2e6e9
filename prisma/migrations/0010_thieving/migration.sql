-- The thieving skill (src/features/thieving/): its level and xp beside the other skills', in the
-- same bounds.
ALTER TABLE "characters" ADD COLUMN "thievingLevel" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "characters" ADD COLUMN "thievingXp" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "characters"
  ADD CONSTRAINT "characters_thieving_check" CHECK ("thievingLevel" BETWEEN 1 AND 99 AND "thievingXp" BETWEEN 0 AND 200000000);
