import type { ProductionKind } from "../protocol/index.js";

/**
 * How an agent names each kind of production, one entry per kind (a mapped type: a kind added
 * without its words does not compile): the verb of a goal's title ("Smith bronze dagger"), what it
 * says it is doing, its quick command and label, and the words an owner may command it with.
 */
export const PRODUCTION_WORDS: Record<ProductionKind, { verb: string; doing: string; command: string; label: string; words: readonly string[] }> = {
  smelting: { verb: "Smelt", doing: "smelting bars", command: "smelt", label: "Smelt bars", words: ["smelt", "smelting"] },
  smithing: { verb: "Smith", doing: "smithing", command: "smith", label: "Smith", words: ["smith", "smithing", "forge"] },
  crafting: { verb: "Craft", doing: "crafting", command: "craft", label: "Craft", words: ["craft", "crafting"] },
  fletching: { verb: "Fletch", doing: "fletching", command: "fletch", label: "Fletch", words: ["fletch", "fletching"] },
  runecrafting: { verb: "Craft", doing: "crafting runes", command: "runecraft", label: "Craft runes", words: ["runecraft", "runecrafting"] },
  tanning: { verb: "Tan", doing: "getting hides tanned", command: "tan hides", label: "Tan hides", words: ["tan", "tanning"] },
};

/** Each kind's entry, in PRODUCTION_KINDS' order. */
export const productionWordsList = () => Object.entries(PRODUCTION_WORDS) as Array<[ProductionKind, (typeof PRODUCTION_WORDS)[ProductionKind]]>;
