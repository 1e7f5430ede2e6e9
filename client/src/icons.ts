import type { ItemInfo } from "./api.js";

/**
 * Item icons drawn in code, one shape per kind of item (coins, logs, ore, bars, fish, food, tools,
 * weapons, armour, runes, bones, letters, lamps...), tinted by the metal or wood its id names. Each
 * is drawn once at 32×32 and kept, as a canvas for the map and a data URL for the panels.
 */

const SIZE = 32;
const canvases = new Map<string, HTMLCanvasElement>();
const urls = new Map<string, string>();

const METALS: Array<[string, string]> = [
  ["bronze", "#b8763a"],
  ["iron", "#8a8a8e"],
  ["steel", "#b8c0c8"],
  ["black", "#3a3a3e"],
  ["mithril", "#5a6ab8"],
  ["adamant", "#4a8a5a"],
  ["rune", "#4ab0c0"],
  ["gold", "#e8c030"],
  ["silver", "#e0e0e8"],
  ["copper", "#c8783a"],
  ["tin", "#c8c8c0"],
  ["coal", "#2a2a2a"],
  ["oak", "#a07a4a"],
  ["willow", "#b8a060"],
  ["leather", "#8a5a2a"],
];

function tint(id: string, fallback: string): string {
  return METALS.find(([k]) => id.includes(k))?.[1] ?? fallback;
}

/** What an item is drawn as, from its type, its worn slot and words of its id. */
export function iconKind(item: Pick<ItemInfo, "id" | "type" | "equipSlot" | "healAmount">): string {
  const id = item.id;
  const words: Array<[RegExp, string]> = [
    [/^coins?$|coin/, "coins"],
    [/letter|scroll|note/, "letter"],
    [/lamp/, "lamp"],
    [/bones/, "bones"],
    [/_rune$|^rune_essence|essence/, id.includes("essence") ? "ore" : "rune"],
    [/logs/, "logs"],
    [/_ore$|^ore_|runestone|clay/, "ore"],
    [/_bar$/, "bar"],
    [/hatchet|axe$/, "hatchet"],
    [/pickaxe/, "pickaxe"],
    [/net|rod|harpoon|cage/, "net"],
    [/tinderbox/, "tinderbox"],
    [/hammer/, "hammer"],
    [/arrow|bolt/, "arrows"],
    [/bow/, "bow"],
    [/staff|wand/, "staff"],
    [/shield/, "shield"],
    [/helm|hat|hood|coif/, "helm"],
    [/body|chest|platebody|shirt|top|robe/, "body"],
    [/legs|skirt|chaps/, "legs"],
    [/boots/, "boots"],
    [/gloves|vambraces/, "gloves"],
    [/cape/, "cape"],
    [/amulet|necklace/, "amulet"],
    [/ring$/, "ring"],
    [/sword|dagger|scimitar|mace|spear|battleaxe|longsword/, "sword"],
    [/hide|leather/, "hide"],
    [/shrimp|trout|salmon|sardine|herring|fish|anchov|lobster|tuna|pike/, "fish"],
    [/bread|pie|cake|meat|beef|chicken|stew/, "food"],
    [/feather/, "feather"],
  ];
  for (const [re, kind] of words) if (re.test(id)) return kind;
  if (item.equipSlot === "weapon") return "sword";
  if (item.healAmount) return "food";
  return "bag";
}

/** An item's icon as a canvas (drawn once). */
export function iconCanvas(item: Pick<ItemInfo, "id" | "type" | "equipSlot" | "healAmount">): HTMLCanvasElement {
  let c = canvases.get(item.id);
  if (!c) {
    c = document.createElement("canvas");
    c.width = c.height = SIZE;
    drawIcon(c.getContext("2d")!, item);
    canvases.set(item.id, c);
  }
  return c;
}

/** An item's icon as a data URL, for an <img> in the panels. */
export function iconUrl(item: Pick<ItemInfo, "id" | "type" | "equipSlot" | "healAmount">): string {
  let u = urls.get(item.id);
  if (!u) {
    u = iconCanvas(item).toDataURL();
    urls.set(item.id, u);
  }
  return u;
}

function outline(ctx: CanvasRenderingContext2D) {
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = "rgba(0,0,0,0.7)";
  ctx.stroke();
}

function drawIcon(ctx: CanvasRenderingContext2D, item: Pick<ItemInfo, "id" | "type" | "equipSlot" | "healAmount">) {
  const id = item.id;
  const kind = iconKind(item);
  const metal = tint(id, "#9a9aa0");
  ctx.lineJoin = "round";
  ctx.lineCap = "round";
  const path = (pts: Array<[number, number]>, fill: string) => {
    ctx.beginPath();
    pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.closePath();
    ctx.fillStyle = fill;
    ctx.fill();
    outline(ctx);
  };
  const circle = (x: number, y: number, r: number, fill: string) => {
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fillStyle = fill;
    ctx.fill();
    outline(ctx);
  };
  const stick = (x1: number, y1: number, x2: number, y2: number, colour: string, width = 3) => {
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x2, y2);
    ctx.strokeStyle = "rgba(0,0,0,0.7)";
    ctx.lineWidth = width + 2;
    ctx.stroke();
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.stroke();
  };
  switch (kind) {
    case "coins":
      for (const [x, y] of [
        [11, 22],
        [20, 22],
        [15, 16],
        [22, 14],
      ] as const)
        circle(x, y, 6, "#e8c030");
      break;
    case "letter":
      path(
        [
          [5, 9],
          [27, 9],
          [27, 24],
          [5, 24],
        ],
        "#f0e8d0",
      );
      stick(5, 9, 16, 17, "#c8b898", 1);
      stick(27, 9, 16, 17, "#c8b898", 1);
      circle(16, 17, 3.5, "#b02a2a");
      break;
    case "lamp":
      path(
        [
          [6, 22],
          [26, 22],
          [22, 15],
          [10, 15],
        ],
        "#e8c030",
      );
      stick(26, 18, 29, 14, "#e8c030", 2);
      circle(8, 12, 3, "#ffe880");
      break;
    case "bones":
      stick(8, 24, 24, 8, "#f0ece0", 4);
      circle(7, 23, 3, "#f0ece0");
      circle(25, 9, 3, "#f0ece0");
      break;
    case "rune":
      path(
        [
          [7, 8],
          [25, 7],
          [26, 25],
          [6, 24],
        ],
        "#9a9aa4",
      );
      ctx.fillStyle = { air: "#f8f8ff", water: "#4aa0f0", earth: "#8a5a2a", fire: "#ff5a1a", mind: "#f0a020", body: "#4050c0" }[id.split("_")[0]!] ?? "#c080ff";
      ctx.font = "bold 13px sans-serif";
      ctx.textAlign = "center";
      ctx.fillText(id[0]!.toUpperCase(), 16, 21);
      break;
    case "logs":
      for (const y of [12, 20]) {
        path(
          [
            [5, y - 4],
            [25, y - 4],
            [25, y + 4],
            [5, y + 4],
          ],
          tint(id, "#8a5a2e"),
        );
        circle(26, y, 4, "#d8b880");
      }
      break;
    case "ore":
      path(
        [
          [5, 22],
          [9, 10],
          [19, 6],
          [27, 13],
          [26, 24],
        ],
        "#6e6a62",
      );
      for (const [x, y] of [
        [12, 15],
        [19, 12],
        [17, 20],
      ] as const)
        circle(x, y, 2.5, tint(id, "#c8b080"));
      break;
    case "bar":
      path(
        [
          [4, 21],
          [9, 12],
          [28, 12],
          [23, 21],
        ],
        metal,
      );
      break;
    case "hatchet":
      stick(10, 28, 20, 6, "#8a5a2e");
      path(
        [
          [17, 7],
          [27, 5],
          [27, 15],
          [19, 13],
        ],
        metal,
      );
      break;
    case "pickaxe":
      stick(16, 29, 16, 9, "#8a5a2e");
      ctx.beginPath();
      ctx.moveTo(3, 13);
      ctx.quadraticCurveTo(16, 2, 29, 13);
      ctx.quadraticCurveTo(16, 8, 3, 13);
      ctx.fillStyle = metal;
      ctx.fill();
      outline(ctx);
      break;
    case "net":
      ctx.strokeStyle = "#d8c8a0";
      ctx.lineWidth = 1;
      for (let k = 6; k <= 26; k += 5) {
        ctx.beginPath();
        ctx.moveTo(k, 6);
        ctx.lineTo(k, 26);
        ctx.moveTo(6, k);
        ctx.lineTo(26, k);
        ctx.stroke();
      }
      stick(4, 28, 9, 23, "#8a5a2e");
      break;
    case "tinderbox":
      path(
        [
          [6, 12],
          [26, 12],
          [26, 24],
          [6, 24],
        ],
        "#6a6a70",
      );
      circle(22, 9, 3, "#ff9a2a");
      break;
    case "hammer":
      stick(12, 28, 18, 12, "#8a5a2e");
      path(
        [
          [12, 6],
          [26, 12],
          [23, 18],
          [9, 12],
        ],
        metal,
      );
      break;
    case "arrows":
      for (const dx of [-4, 0, 4]) {
        stick(8 + dx, 27, 24 + dx, 6, "#a07a4a", 1.5);
        path(
          [
            [24 + dx, 5],
            [27 + dx, 4],
            [26 + dx, 8],
          ],
          metal,
        );
      }
      break;
    case "bow":
      ctx.beginPath();
      ctx.arc(8, 16, 14, -Math.PI / 2.4, Math.PI / 2.4);
      ctx.strokeStyle = tint(id, "#8a5a2e");
      ctx.lineWidth = 3;
      ctx.stroke();
      stick(12, 3, 12, 29, "#e8e8e8", 1);
      break;
    case "staff":
      stick(8, 28, 24, 6, "#6a4a22");
      circle(24, 6, 4, tint(id.replace("staff", ""), "#6ad0ff"));
      break;
    case "shield":
      path(
        [
          [6, 6],
          [26, 6],
          [26, 16],
          [16, 28],
          [6, 16],
        ],
        metal,
      );
      break;
    case "helm":
      ctx.beginPath();
      ctx.arc(16, 18, 10, Math.PI, 0);
      ctx.lineTo(26, 24);
      ctx.lineTo(6, 24);
      ctx.closePath();
      ctx.fillStyle = metal;
      ctx.fill();
      outline(ctx);
      break;
    case "body":
      path(
        [
          [9, 5],
          [23, 5],
          [29, 12],
          [25, 15],
          [24, 27],
          [8, 27],
          [7, 15],
          [3, 12],
        ],
        metal,
      );
      break;
    case "legs":
      path(
        [
          [8, 5],
          [24, 5],
          [25, 28],
          [18, 28],
          [16, 14],
          [14, 28],
          [7, 28],
        ],
        metal,
      );
      break;
    case "boots":
      path(
        [
          [6, 8],
          [14, 8],
          [14, 20],
          [24, 22],
          [24, 27],
          [6, 27],
        ],
        metal,
      );
      break;
    case "gloves":
      path(
        [
          [8, 10],
          [22, 10],
          [24, 26],
          [8, 26],
        ],
        metal,
      );
      break;
    case "cape":
      path(
        [
          [10, 5],
          [22, 5],
          [27, 27],
          [5, 27],
        ],
        tint(id, "#b02a2a"),
      );
      break;
    case "amulet":
    case "ring":
      ctx.beginPath();
      ctx.arc(16, kind === "ring" ? 16 : 12, kind === "ring" ? 8 : 9, 0, Math.PI * 2);
      ctx.strokeStyle = tint(id, "#e8c030");
      ctx.lineWidth = 3;
      ctx.stroke();
      if (kind === "amulet") circle(16, 23, 4, "#c03ac0");
      break;
    case "sword":
      stick(8, 26, 24, 6, metal, 4);
      stick(6, 20, 14, 28, "#7a5a2a", 3);
      break;
    case "hide":
      path(
        [
          [6, 8],
          [12, 5],
          [20, 6],
          [27, 9],
          [25, 25],
          [16, 28],
          [7, 25],
        ],
        id.includes("cow") ? "#e8e0d0" : "#a0703a",
      );
      break;
    case "fish": {
      const cooked = !id.startsWith("raw") && !id.startsWith("burnt");
      const colour = id.startsWith("burnt") ? "#2a2a2a" : id.includes("shrimp") ? (cooked ? "#f08060" : "#c8a0a0") : cooked ? "#c89a5a" : "#8aa0b8";
      ctx.beginPath();
      ctx.ellipse(15, 16, 10, 6, -0.3, 0, Math.PI * 2);
      ctx.fillStyle = colour;
      ctx.fill();
      outline(ctx);
      path(
        [
          [24, 11],
          [30, 7],
          [29, 17],
        ],
        colour,
      );
      ctx.fillStyle = "#111";
      ctx.fillRect(9, 14, 2, 2);
      break;
    }
    case "food":
      ctx.beginPath();
      ctx.ellipse(16, 18, 11, 8, 0, 0, Math.PI * 2);
      ctx.fillStyle = id.startsWith("raw") ? "#d87a7a" : id.startsWith("burnt") ? "#2a2a2a" : "#b8783a";
      ctx.fill();
      outline(ctx);
      break;
    case "feather":
      ctx.beginPath();
      ctx.ellipse(16, 16, 4, 12, 0.7, 0, Math.PI * 2);
      ctx.fillStyle = "#f4f4f4";
      ctx.fill();
      outline(ctx);
      break;
    default:
      // A sack.
      path(
        [
          [10, 8],
          [22, 8],
          [27, 24],
          [5, 24],
        ],
        "#b89a6a",
      );
      stick(10, 8, 22, 8, "#6a4a2a", 2);
  }
}
