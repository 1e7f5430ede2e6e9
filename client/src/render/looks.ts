/** How the figures look: each body, its colours and what it carries, for npcs by kind and for players. */

export type Body = "human" | "goblin" | "chicken" | "cow" | "troll";

/** How a figure looks: its body, colours and what it carries. */
export interface Look {
  body: Body;
  skin: string;
  shirt: string;
  legs: string;
  hat?: "helm" | "hood" | "cap" | "hair";
  hatColour?: string;
  weapon?: "spear" | "bow" | "staff" | "sword" | "none";
  /** A long coat or robe over the legs. */
  robe?: boolean;
  scale?: number;
}

const NPC_LOOKS: Record<string, Look> = {
  warden_holt: { body: "human", skin: "#e0b48a", shirt: "#2f4f8f", legs: "#2a2a3a", hat: "cap", hatColour: "#1d2f5a", robe: true },
  bank_clerk: { body: "human", skin: "#c98e62", shirt: "#7a2f5a", legs: "#3a2a3a", hat: "hair", hatColour: "#3a2414", robe: true },
  shopkeeper: { body: "human", skin: "#e6c09a", shirt: "#c9b48a", legs: "#5a4028", hat: "hair", hatColour: "#8a5a2a" },
  tanner: { body: "human", skin: "#d8a878", shirt: "#8a5a30", legs: "#4a3420", hat: "hair", hatColour: "#222" },
  town_guard: { body: "human", skin: "#e0b48a", shirt: "#9aa0a8", legs: "#4a4e56", hat: "helm", hatColour: "#7a8088", weapon: "spear" },
  goblin: { body: "goblin", skin: "#6f9a3a", shirt: "#6b4a2a", legs: "#4a3420", weapon: "spear", scale: 0.8 },
  chicken: { body: "chicken", skin: "#f4f0e8", shirt: "#d8382a", legs: "#e8a020", scale: 0.6 },
  cow: { body: "cow", skin: "#f2efe8", shirt: "#2a2a2a", legs: "#e6b0a8", scale: 1.1 },
  bog_troll: { body: "troll", skin: "#6a7a5a", shirt: "#4a5a3a", legs: "#3a4a2a", scale: 1.35 },
  outlaw_bowman: { body: "human", skin: "#d8a878", shirt: "#3f5a2a", legs: "#4a3a2a", hat: "hood", hatColour: "#2f4420", weapon: "bow" },
  ashcloak_hexer: { body: "human", skin: "#d8b898", shirt: "#5a5a60", legs: "#3a3a40", hat: "hood", hatColour: "#4a4a50", weapon: "staff", robe: true },
};

const SHIRTS = ["#b03a2e", "#2e6fb0", "#c9a12e", "#3a8a4a", "#8a4ab0", "#c96a2e", "#2e9aa0", "#6a6a6a"];

/** A small, stable hash of a string (an id): the same id always gets the same colours or beat. */
export function hashOf(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return Math.abs(h);
}

/** An npc's look: its own when known, else one for its kind (a fighter or a townsman). */
export function npcLook(npcId: string, attackable: boolean): Look {
  return (
    NPC_LOOKS[npcId] ?? {
      body: "human",
      skin: "#e0b48a",
      shirt: attackable ? "#7a3a2a" : "#b89a4a",
      legs: "#3a3a3a",
      hat: attackable ? "hood" : "hair",
      hatColour: attackable ? "#4a2a1a" : "#5a3a1a",
      weapon: attackable ? "sword" : "none",
    }
  );
}

/** A player's look: the player in blue, agents robed in purple, others in a colour of their own. */
export function playerLook(id: string, mine: boolean, agent: boolean): Look {
  if (agent) return { body: "human", skin: "#d8c0a8", shirt: "#6a3aa0", legs: "#3a2460", hat: "hood", hatColour: "#4a2a80", weapon: "staff", robe: true };
  const h = hashOf(id);
  return {
    body: "human",
    skin: ["#f0c8a0", "#d8a878", "#a8744a", "#7a5030"][h % 4]!,
    shirt: mine ? "#2e6fd0" : SHIRTS[h % SHIRTS.length]!,
    legs: mine ? "#3a3a5a" : "#4a4034",
    hat: "hair",
    hatColour: ["#3a2414", "#c9a05a"][(h >> 3) % 2]!,
    weapon: "none",
  };
}
