/** The small shapes the server → client messages share (serverMessages.ts, duelMessages.ts). */

export interface ItemStackView {
  itemId: string;
  quantity: number;
}

/** An occupied inventory slot in `player:sync`. */
export interface InventorySlotView extends ItemStackView {
  slot: number;
  /** Offered in a trade: no drop, use, bank or equip. */
  locked: boolean;
}

/** A world position: the tile, `y` always 0. */
export interface Position {
  x: number;
  y: number;
  z: number;
}

export interface SkillView {
  level: number;
  xp: number;
}
