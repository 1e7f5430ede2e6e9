import type { NpcView, PlayerView, ResourceView, StationView, GroundItemView } from "../../src/protocol/index.js";
import type { Game, MenuOption } from "./game.js";

/** Pixels per tile. */
export const TILE = 24;

const GATHER_VERB: Record<string, string> = { woodcutting: "Chop", mining: "Mine", fishing: "Fish" };

interface Splat {
  targetId: string;
  text: string;
  colour: string;
  until: number;
}

/**
 * The top-down view: the ground plan from /api/v1/world/map, and on it everything the world room's
 * schema state holds in view (players, npcs, resources and fires, ground items, stations), drawn
 * every animation frame. A click does the first thing there is to do on its tile; a right click
 * lists them all.
 */
export class WorldView {
  private readonly ctx: CanvasRenderingContext2D;
  private splats: Splat[] = [];
  private speech = new Map<string, { text: string; until: number }>();
  /** Names drawn so far this frame, per tile. */
  private readonly stacked = new Map<string, number>();
  /** The tile at the centre of the view. */
  private centre = { x: 0, z: 0 };

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly game: Game,
  ) {
    this.ctx = canvas.getContext("2d")!;
    const net = game.net;
    net.on("combat:hit", (hit) =>
      this.splats.push({
        targetId: hit.targetId,
        text: hit.splash ? "splash" : String(hit.damage),
        colour: hit.damage > 0 ? "#d22" : "#36c",
        until: performance.now() + 1000,
      }),
    );
    net.on("chat:message", (m) => {
      if (m.channel === "local") this.speech.set(m.fromId, { text: m.message, until: performance.now() + 4000 });
    });
    canvas.addEventListener("click", (ev) => this.click(ev, false));
    canvas.addEventListener("contextmenu", (ev) => {
      ev.preventDefault();
      this.click(ev, true);
    });
    const frame = () => {
      this.draw();
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  /** Where a tile's centre is on the page (for tests and tools driving the client). */
  tileToPage(x: number, z: number): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    const p = this.toCanvas(x, z);
    return { x: r.left + window.scrollX + p.x + TILE / 2, y: r.top + window.scrollY + p.y + TILE / 2 };
  }

  private toCanvas(x: number, z: number) {
    return { x: (x - this.centre.x) * TILE + this.canvas.width / 2 - TILE / 2, y: (z - this.centre.z) * TILE + this.canvas.height / 2 - TILE / 2 };
  }

  private draw() {
    const { ctx, canvas, game } = this;
    const state = game.net.state;
    const me = state.players?.get(game.net.playerId);
    if (me) this.centre = { x: me.x, z: me.z };
    else if (game.me) this.centre = { x: game.me.position.x, z: game.me.position.z };
    const cols = Math.ceil(canvas.width / TILE / 2) + 1;
    const rows = Math.ceil(canvas.height / TILE / 2) + 1;
    ctx.fillStyle = "#1e2a16";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    for (let dz = -rows; dz <= rows; dz++) {
      for (let dx = -cols; dx <= cols; dx++) {
        const x = this.centre.x + dx;
        const z = this.centre.z + dz;
        const p = this.toCanvas(x, z);
        ctx.fillStyle = game.isBlocked(x, z) ? "#4a4a44" : this.groundColour(x, z);
        ctx.fillRect(p.x, p.y, TILE - 1, TILE - 1);
      }
    }
    for (const b of game.map.buildings) {
      const p = this.toCanvas(b.minX, b.minZ);
      ctx.fillStyle = "#6b5a45";
      ctx.fillRect(p.x, p.y, (b.maxX - b.minX + 1) * TILE, (b.maxZ - b.minZ + 1) * TILE);
      this.label(b.name, p.x + 2, p.y + 12, "#f2e6c9", "left");
    }
    if (!state.players) return;
    state.stations.forEach((s) => this.drawStation(s));
    state.resources.forEach((r) => this.drawResource(r));
    state.groundItems.forEach((g) => this.drawGroundItem(g));
    // Names of those sharing a tile are stacked, not drawn over each other.
    this.stacked.clear();
    state.npcs.forEach((n) => this.drawNpc(n));
    state.players.forEach((p) => this.drawPlayer(p));
    this.drawSplats();
  }

  private groundColour(x: number, z: number): string {
    for (const a of this.game.map.areas) {
      const b = a.bounds;
      if (x >= Math.min(b.minX, b.maxX) && x <= Math.max(b.minX, b.maxX) && z >= Math.min(b.minZ, b.maxZ) && z <= Math.max(b.minZ, b.maxZ)) {
        return a.safeZone ? "#5a7a3a" : "#4d6a30";
      }
    }
    return "#2f4422";
  }

  private label(text: string, x: number, y: number, colour = "#fff", align: CanvasTextAlign = "center") {
    const { ctx } = this;
    ctx.font = "11px system-ui, sans-serif";
    ctx.textAlign = align;
    ctx.fillStyle = "#000";
    ctx.fillText(text, x + 1, y + 1);
    ctx.fillStyle = colour;
    ctx.fillText(text, x, y);
  }

  /** How far above its tile the next name on it goes. */
  private nameOffset(x: number, z: number): number {
    const key = `${x},${z}`;
    const n = this.stacked.get(key) ?? 0;
    this.stacked.set(key, n + 1);
    return n * 12;
  }

  private dot(x: number, z: number, colour: string, radius: number) {
    const p = this.toCanvas(x, z);
    this.ctx.fillStyle = colour;
    this.ctx.beginPath();
    this.ctx.arc(p.x + TILE / 2, p.y + TILE / 2, radius, 0, Math.PI * 2);
    this.ctx.fill();
    return p;
  }

  private drawStation(s: StationView) {
    const p = this.toCanvas(s.x, s.z);
    this.ctx.fillStyle = s.type === "bank" ? "#c9a44a" : s.type.includes("altar") ? "#dcdcff" : "#8a4b2a";
    this.ctx.fillRect(p.x + 3, p.y + 3, TILE - 7, TILE - 7);
    this.label(s.name, p.x + TILE / 2, p.y - 2, "#f0e0a0");
  }

  private drawResource(r: ResourceView) {
    const colour =
      r.skill === "firemaking" ? "#ff9a1f" : r.skill === "fishing" ? "#5ab0ff" : r.skill === "mining" ? "#8d8d96" : r.depleted ? "#6b4a2a" : "#1f7a2a";
    const p = this.dot(r.x, r.z, r.depleted ? "#5d4a35" : colour, r.depleted ? 4 : 9);
    if (r.skill === "firemaking") this.label("Fire", p.x + TILE / 2, p.y - 1, "#ffcf80");
  }

  private drawGroundItem(g: GroundItemView) {
    const p = this.toCanvas(g.x, g.z);
    this.ctx.fillStyle = "#f0d040";
    this.ctx.fillRect(p.x + 8, p.y + 8, 8, 8);
    this.label(this.game.itemName(g.itemId) + (g.quantity > 1 ? ` (${g.quantity})` : ""), p.x + TILE / 2, p.y + TILE + 8, "#f0d040");
  }

  private drawNpc(n: NpcView) {
    if (n.state === "dead") return;
    const info = this.game.npc(n.npcId);
    const p = this.dot(n.x, n.z, info?.attackable ? "#c83c3c" : "#e8c84a", 8);
    this.label(
      `${n.name}${info?.attackable ? ` (level ${n.level})` : ""}`,
      p.x + TILE / 2,
      p.y - 3 - this.nameOffset(n.x, n.z),
      info?.attackable ? "#ffb0a0" : "#fff0a0",
    );
    this.healthBar(n.id, p, n.health, n.maxHealth);
  }

  private drawPlayer(pl: PlayerView) {
    const mine = pl.id === this.game.net.playerId;
    const p = this.dot(pl.x, pl.z, pl.isAgent ? "#a070e0" : mine ? "#4fe0ff" : "#3c78d8", 8);
    if (mine) {
      this.ctx.strokeStyle = "#fff";
      this.ctx.lineWidth = 2;
      this.ctx.strokeRect(p.x + 1, p.y + 1, TILE - 3, TILE - 3);
    }
    const above = this.nameOffset(pl.x, pl.z);
    this.label(`${pl.isAgent ? "[agent] " : ""}${pl.name}`, p.x + TILE / 2, p.y - 3 - above, pl.isAgent ? "#d8c0ff" : "#ffffff");
    this.healthBar(pl.id, p, pl.health, pl.maxHealth);
    const said = this.speech.get(pl.id);
    if (said && said.until > performance.now()) this.label(said.text, p.x + TILE / 2, p.y - 16 - above, "#ffff60");
  }

  private healthBar(id: string, p: { x: number; y: number }, health: number, max: number) {
    if (max <= 0 || health >= max) return;
    this.ctx.fillStyle = "#a00";
    this.ctx.fillRect(p.x + 2, p.y + TILE - 3, TILE - 4, 3);
    this.ctx.fillStyle = "#0c0";
    this.ctx.fillRect(p.x + 2, p.y + TILE - 3, ((TILE - 4) * Math.max(0, health)) / max, 3);
    void id;
  }

  private drawSplats() {
    const now = performance.now();
    this.splats = this.splats.filter((s) => s.until > now);
    const state = this.game.net.state;
    for (const s of this.splats) {
      const e = state.players.get(s.targetId) ?? state.npcs.get(s.targetId);
      if (!e) continue;
      const p = this.toCanvas(e.x, e.z);
      this.ctx.fillStyle = s.colour;
      this.ctx.fillRect(p.x + 4, p.y + 6, TILE - 8, 12);
      this.label(s.text, p.x + TILE / 2, p.y + 16, "#fff");
    }
  }

  /** What can be done on a tile, the default first. */
  optionsAt(x: number, z: number): MenuOption[] {
    const { game } = this;
    const net = game.net;
    const state = net.state;
    const options: MenuOption[] = [];
    const walk: MenuOption = { label: "Walk here", run: () => net.send("player:move", { x, z }) };
    state.npcs.forEach((n) => {
      if (n.x !== x || n.z !== z || n.state === "dead") return;
      const info = game.npc(n.npcId);
      const spell = game.pendingSpell;
      if (spell && info?.attackable) options.push({ label: `Cast ${spell.name} on ${n.name}`, run: () => game.cast(n.id) });
      if (info?.attackable)
        options.push({ label: `Attack ${n.name} (level ${n.level})`, run: () => net.send("player:action", { action: "attack", targetId: n.id }) });
      if (info?.talks) options.push({ label: `Talk-to ${n.name}`, run: () => net.send("player:action", { action: "talk", targetId: n.id }) });
      if (info?.services.some((s) => s === "store" || s === "shop")) {
        options.push({ label: `Trade ${n.name}`, run: () => net.send("player:action", { action: "store", targetId: n.id }) });
      }
    });
    state.resources.forEach((r) => {
      if (r.x !== x || r.z !== z || r.skill === "firemaking") return;
      options.push({ label: `${GATHER_VERB[r.skill] ?? "Gather"} ${r.name}`, run: () => net.send("player:action", { action: "gather", targetId: r.id }) });
    });
    state.groundItems.forEach((g) => {
      if (g.x === x && g.z === z)
        options.push({ label: `Take ${game.itemName(g.itemId)}`, run: () => net.send("player:action", { action: "pickup", targetId: g.id }) });
    });
    state.stations.forEach((s) => {
      if (s.x !== x || s.z !== z) return;
      if (s.type === "altar") options.push({ label: `Pray-at ${s.name}`, run: () => net.send("player:action", { action: "pray", targetId: s.id }) });
      else options.push({ label: `Use ${s.name}`, run: () => game.useStation(s) });
    });
    const others: PlayerView[] = [];
    state.players.forEach((p) => p.x === x && p.z === z && p.id !== net.playerId && others.push(p));
    // The duel opponent is the one player a click attacks; other players are walked past.
    for (const p of others) {
      if (game.duelOpponent === p.id) options.unshift({ label: `Fight ${p.name}`, run: () => net.send("player:action", { action: "attack", targetId: p.id }) });
    }
    options.push(walk);
    others.forEach((p) => {
      options.push({ label: `Trade with ${p.name}`, run: () => net.send("tradeRequest", { targetPlayerId: p.id }) });
      options.push({ label: `Challenge ${p.name}`, run: () => net.send("duel:challenge", { targetPlayerId: p.id }) });
      options.push({ label: `Report ${p.name}`, run: () => game.report(p.name) });
    });
    return options;
  }

  private click(ev: MouseEvent, list: boolean) {
    const r = this.canvas.getBoundingClientRect();
    const x = Math.floor((ev.clientX - r.left - this.canvas.width / 2 + TILE / 2) / TILE) + this.centre.x;
    const z = Math.floor((ev.clientY - r.top - this.canvas.height / 2 + TILE / 2) / TILE) + this.centre.z;
    const options = this.optionsAt(x, z);
    if (list) this.game.menu(ev.pageX, ev.pageY, `Tile ${x}, ${z}`, options);
    else options[0]!.run();
  }
}
