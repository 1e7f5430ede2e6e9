import type { Game } from "./game.js";
import type { Guidance } from "./guidance.js";
import { GROUND_COLOURS, Ground, type GroundPlan } from "./render/ground.js";
import type { DrawnMarker, WorldView } from "./view.js";

/** Pixels per tile on the minimap, and how many tiles it shows each way from the player. */
const PX = 3;

/**
 * The minimap: the whole world's ground drawn once at PX pixels a tile, a window of it around the
 * player, and on it npcs (yellow; fighters red), other players (white; agents purple), stations,
 * the player (a white square) and the quest marker (a flag, or an arrow on the rim when beyond
 * it). A click walks there (to the nearest open tile).
 */
export class Minimap {
  private readonly ctx: CanvasRenderingContext2D;
  private readonly world: HTMLCanvasElement;
  /** Quest markers as drawn in the last frame. */
  drawnMarkers: DrawnMarker[] = [];

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly game: Game,
    private plan: GroundPlan,
    private readonly view: WorldView,
    private readonly guidance: Guidance | null,
  ) {
    this.ctx = canvas.getContext("2d", { alpha: false })!;
    this.world = document.createElement("canvas");
    this.paintWorld(plan);
    canvas.addEventListener("click", (ev) => {
      const r = canvas.getBoundingClientRect();
      const t = this.toTile(((ev.clientX - r.left) * canvas.width) / r.width, ((ev.clientY - r.top) * canvas.height) / r.height);
      this.view.walkTo(t.x, t.z);
    });
  }

  /** The whole world's ground at PX pixels a tile, once (and again after the map changed). */
  paintWorld(plan: GroundPlan) {
    this.plan = plan;
    const game = this.game;
    this.world.width = plan.width * PX;
    this.world.height = plan.depth * PX;
    const w = this.world.getContext("2d")!;
    for (let k = 0; k < plan.depth; k++) {
      for (let i = 0; i < plan.width; i++) {
        const x = plan.minX + i;
        const z = plan.minZ + k;
        const g = plan.at(x, z);
        w.fillStyle = game.isBlocked(x, z) && g !== Ground.Floor ? "#4a4a40" : GROUND_COLOURS[g][0];
        if (g === Ground.Floor) w.fillStyle = "#9a7a54";
        w.fillRect(i * PX, (plan.depth - 1 - k) * PX, PX, PX);
      }
    }
    // Trees and rocks where the map places them.
    for (const r of game.map.resources) {
      if (r.skill === "fishing") continue;
      w.fillStyle = r.skill === "woodcutting" ? "#1d4a16" : "#8a8478";
      w.fillRect((r.x - plan.minX) * PX - 1, (plan.depth - 1 - (r.z - plan.minZ)) * PX - 1, PX + 2, PX + 2);
    }
    // Walls.
    w.strokeStyle = "#e8e0d0";
    w.lineWidth = 1;
    for (const b of game.map.buildings) {
      w.strokeRect(
        (b.minX - plan.minX) * PX + 0.5,
        (plan.depth - 1 - (b.maxZ - plan.minZ)) * PX + 0.5,
        (b.maxX - b.minX + 1) * PX - 1,
        (b.maxZ - b.minZ + 1) * PX - 1,
      );
    }
  }

  private centre() {
    return { x: this.viewCam().x, z: this.viewCam().z };
  }

  private viewCam() {
    const me = this.game.net.state.players?.get(this.game.net.playerId);
    return me ? { x: me.x, z: me.z } : { x: this.game.me.position.x, z: this.game.me.position.z };
  }

  private toCanvas(x: number, z: number) {
    const c = this.centre();
    return { x: this.canvas.width / 2 + (x - c.x) * PX, y: this.canvas.height / 2 - (z - c.z) * PX };
  }

  private toTile(cx: number, cy: number) {
    const c = this.centre();
    return { x: Math.round(c.x + (cx - this.canvas.width / 2) / PX), z: Math.round(c.z - (cy - this.canvas.height / 2) / PX) };
  }

  draw(now: number) {
    const { ctx, canvas, plan, game } = this;
    const W = canvas.width;
    const H = canvas.height;
    const c = this.centre();
    ctx.fillStyle = GROUND_COLOURS[Ground.Sea][0];
    ctx.fillRect(0, 0, W, H);
    ctx.drawImage(this.world, Math.round(W / 2 - (c.x - plan.minX) * PX - PX / 2), Math.round(H / 2 - (plan.depth - 1 - (c.z - plan.minZ)) * PX - PX / 2));
    const state = game.net.state;
    if (!state.players) return;
    const dot = (x: number, z: number, colour: string, size = 3) => {
      const p = this.toCanvas(x, z);
      if (p.x < 0 || p.y < 0 || p.x > W || p.y > H) return;
      ctx.fillStyle = colour;
      ctx.fillRect(Math.round(p.x - size / 2), Math.round(p.y - size / 2), size, size);
    };
    state.stations.forEach((s) => dot(s.x, s.z, s.type === "bank" ? "#f0d040" : s.type.includes("altar") ? "#c0d0ff" : "#ff8a3a", 4));
    state.resources.forEach((r) => r.skill === "fishing" && dot(r.x, r.z, "#bfe6ff", 3));
    state.groundItems.forEach((g) => dot(g.x, g.z, "#e03030", 2));
    state.npcs.forEach((n) => n.state !== "dead" && dot(n.x, n.z, game.npc(n.npcId)?.attackable ? "#ff5a3a" : "#ffe94a"));
    state.players.forEach((p) => p.id !== game.net.playerId && dot(p.x, p.z, p.isAgent ? "#c08aff" : "#ffffff"));
    ctx.fillStyle = "#fff";
    ctx.fillRect(W / 2 - 2, H / 2 - 2, 5, 5);
    ctx.strokeStyle = "#000";
    ctx.strokeRect(W / 2 - 2.5, H / 2 - 2.5, 6, 6);
    this.drawMarkers(now);
    // North.
    ctx.fillStyle = "#fff";
    ctx.font = "bold 11px system-ui, sans-serif";
    ctx.textAlign = "center";
    ctx.fillText("N", W - 10, 13);
  }

  private drawMarkers(now: number) {
    this.drawnMarkers = [];
    const markers = this.guidance?.markers() ?? [];
    const { ctx, canvas } = this;
    const W = canvas.width;
    const H = canvas.height;
    const r = canvas.getBoundingClientRect();
    const toPage = (x: number, y: number) => ({ x: r.left + window.scrollX + (x * r.width) / W, y: r.top + window.scrollY + (y * r.height) / H });
    for (const m of markers.slice(0, 1)) {
      const p = this.toCanvas(m.x, m.z);
      const margin = 8;
      const inside = p.x >= margin && p.y >= margin && p.x <= W - margin && p.y <= H - margin;
      if (inside) {
        const bob = Math.sin(now / 200) * 1.5;
        ctx.fillStyle = "#ffd22a";
        ctx.strokeStyle = "#3a2400";
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        ctx.moveTo(p.x, p.y + bob);
        ctx.lineTo(p.x - 5, p.y - 9 + bob);
        ctx.lineTo(p.x + 5, p.y - 9 + bob);
        ctx.closePath();
        ctx.fill();
        ctx.stroke();
        this.drawnMarkers.push({ where: "minimap", label: m.label, entityId: m.entityId, tile: { x: m.x, z: m.z }, ...toPage(p.x, p.y), edge: false });
      } else {
        const cx = W / 2;
        const cy = H / 2;
        const dx = p.x - cx;
        const dy = p.y - cy;
        const k = Math.min((cx - margin) / Math.abs(dx || 1e-6), (cy - margin) / Math.abs(dy || 1e-6));
        const ex = cx + dx * k;
        const ey = cy + dy * k;
        ctx.save();
        ctx.translate(ex, ey);
        ctx.rotate(Math.atan2(dy, dx));
        ctx.fillStyle = "#ffd22a";
        ctx.strokeStyle = "#3a2400";
        ctx.beginPath();
        ctx.moveTo(7, 0);
        ctx.lineTo(-5, -6);
        ctx.lineTo(-5, 6);
        ctx.closePath();
        ctx.fill();
        ctx.stroke();
        ctx.restore();
        // A click on the rim arrow walks toward the target, as far as the minimap reaches.
        const walk = { x: cx + dx * k * 0.92, y: cy + dy * k * 0.92 };
        this.drawnMarkers.push({ where: "minimap", label: m.label, entityId: m.entityId, tile: { x: m.x, z: m.z }, ...toPage(walk.x, walk.y), edge: true });
      }
    }
  }
}
