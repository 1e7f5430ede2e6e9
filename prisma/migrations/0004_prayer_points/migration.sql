-- Prayer points a character has left (null: full, its prayer level). Kept across logins, so a
-- logout is no free recharge: only an altar restores them.
ALTER TABLE "characters" ADD COLUMN "prayerPoints" INTEGER;
ALTER TABLE "characters" ADD CONSTRAINT "characters_prayer_points_check" CHECK ("prayerPoints" IS NULL OR "prayerPoints" BETWEEN 0 AND 99);
