-- Bank tabs and placeholders (src/game/bank.ts): each bank stack is in a tab (0, the main tab, to
-- 9), and a stack of 0 is a placeholder left where the last of an item was withdrawn.
ALTER TABLE "bank" ADD COLUMN "tab" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "bank" ADD CONSTRAINT "bank_tab_check" CHECK ("tab" BETWEEN 0 AND 9);
ALTER TABLE "bank" DROP CONSTRAINT "bank_quantity_check";
ALTER TABLE "bank" ADD CONSTRAINT "bank_quantity_check" CHECK ("quantity" >= 0);
