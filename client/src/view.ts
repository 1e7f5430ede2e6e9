import {
  FEATURE_MENUS,
  type FeatureMenu,
  type GroundItemView,
  type NpcView,
  type PlayerView,
  type ResourceView,
  type StationView,
} from "../../src/protocol/index.js";
import { inPvpArea, type AreaInfo } from "./api.js";
import type { Game, MenuOption } from "./game.js";
import type { Guidance, Marker } from "./guidance.js";
import { iconCanvas } from "./icons.js";
import { CHUNK, GroundChunks, GroundPlan } from "./render/ground.js";
import { Animations, fallOf, type Dying } from "./render/animations.js";
import { npcLook, playerLook, type Look } from "./render/looks.js";
import { Motion } from "./render/motion.js";
import { EAVES, drawRoof } from "./render/roofs.js";
import { POSES, POSE_INDEX, type Pose } from "./render/poses.js";
import {
  SpriteCache,
  drawFigure,
  drawSprite,
  drawResource,
  drawStation,
  figureSize,
  labelSprite,
  resourceSize,
  thingAnchor,
  thingSize,
  type Sprite,
} from "./render/sprites.js";
import { settings, setSettings, zoomStep } from "./settings.js";

const GATHER_VERB: Record<string, string> = { woodcutting: "Chop down", mining: "Mine", fishing: "Net" };
const SPLAT_MS = 1000;
/** Past this many figures in view, only some have their names drawn. */
const CROWD = 80;
const XP_DROP_MS = 1800;
/** How long what a player says stays over its head (ms). */
const SPEECH_MS = 4000;
/** The rows between stacked names over one tile, and between lines of speech (pixels). */
const NAME_ROW = 13;
/** A name goes up at most this many rows to clear a neighbour's. */
const NAME_ROWS = 2;
const SPEECH_ROW = 15;
/** A line of speech goes up at most this many rows to clear the others. */
const SPEECH_ROWS = 6;
const LEVEL_UP_MS = 3500;

/** A figure's sprite's number among its look's: by facing, step, pose and phase. */
function figureSpriteIndex(facing: number, step: number, pose: Pose, phase: number): number {
  return ((facing * 2 + step) * POSES.length + POSE_INDEX[pose]) * 2 + phase;
}

/** A figure as drawn this frame: where it slides, its facing and its step. */
interface Figure {
  kind: "npc" | "player";
  e: NpcView | PlayerView;
  x: number;
  z: number;
  facing: number;
  step: number;
  /** What its arms do (poses.ts), in phase 0 or 1. */
  pose: Pose;
  phase: number;
  /** Drawn this far to the side (pixels) when others share its tile, and its place among them. */
  dx: number;
  slot: number;
  /** How many figures share its tile. */
  of: number;
}

/** A name or a line of speech drawn over a figure in the last frame (canvas pixels): for the test aid. */
interface DrawnLabel {
  kind: "name" | "said";
  id: string;
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Something standing on the map, drawn north to south. */
interface Standing {
  z: number;
  station: StationView | null;
  resource: ResourceView | null;
  figure: Figure | null;
  dying: Dying | null;
}

interface Splat {
  targetId: string;
  damage: number;
  miss: boolean;
  until: number;
  offset: number;
}

/** Something drawn this frame that a click or the pointer can land on (canvas pixels). */
interface Hit {
  kind: "npc" | "player" | "resource" | "station" | "item";
  id: string;
  /** A figure's pose as drawn (for the test aid). */
  pose?: Pose;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A quest marker as drawn this frame, in page coordinates (the test aid reads these). */
export interface DrawnMarker {
  where: "map" | "minimap";
  label: string;
  /** The npc or resource it stands over, null for a place from the map. */
  entityId: string | null;
  tile: { x: number; z: number };
  x: number;
  y: number;
  /** On the edge of the view, pointing at a target beyond it. */
  edge: boolean;
}

/**
 * The map: the ground (biomes, roads, water, buildings with walls and doors), and on it what the
 * world room's state holds in view: stations, trees, rocks, fishing spots, stumps and fires, ground
 * items with their icons, npcs and players as figures facing their way, sliding between tiles.
 * North is up; the camera follows the player; the wheel or the +/− buttons zoom. Over them: names,
 * health bars, hit splats, what is said, the quest markers, xp drops and level-ups. A click does
 * the first thing there is to do on what is under the pointer; a right click lists everything.
 */
export class WorldView {
  private readonly ctx: CanvasRenderingContext2D;
  readonly motion = new Motion();
  private readonly animations = new Animations();
  /** The buildings whose roofs the last frame drew, for the test aid. */
  readonly drawnRoofs: string[] = [];
  /** The dying figures drawn in the last frame (canvas pixels), for the test aid. */
  private readonly drawnDying: Array<{ kind: "npc" | "player"; id: string; x: number; y: number }> = [];
  private readonly sprites = new SpriteCache();
  private plan: GroundPlan;
  /** The world's areas (where players may fight each other). */
  private areas: AreaInfo[];
  private ground: GroundChunks;
  private splats: Splat[] = [];
  private speech = new Map<string, { text: string; until: number }>();
  private xpDrops: Array<{ text: string; at: number }> = [];
  private levelUp: { text: string; at: number } | null = null;
  /** The camera: the world point at the canvas's centre. */
  private camX = 0;
  private camZ = 0;
  private readonly hits: Hit[] = [];
  private readonly hitPool: Hit[] = [];
  /** Quest markers as drawn in the last frame. */
  drawnMarkers: DrawnMarker[] = [];
  /** Called after each frame (the minimap draws then). */
  afterFrame: Array<(now: number) => void> = [];
  /** How long the last frames took to draw (ms), newest last. */
  readonly frameMs: number[] = [];
  private pointer: { x: number; y: number } | null = null;
  private readonly standing: Standing[] = [];
  private readonly standingPool: Standing[] = [];
  private readonly figures: Figure[] = [];
  private readonly figurePool: Figure[] = [];
  /** Figures per tile this frame (key from the tile), to draw those on one tile apart. */
  private readonly onTile = new Map<number, number>();
  /** The names and speech drawn in the last frame, from a pool kept from frame to frame. */
  private readonly labels: DrawnLabel[] = [];
  private readonly labelPool: DrawnLabel[] = [];
  /** Each player's look and sprite key, worked out once. */
  private readonly looks = new Map<string, { look: Look; key: string }>();
  /** Each kind of npc's look and sprite key. */
  private readonly npcLooks = new Map<string, { look: Look; key: string }>();

  constructor(
    private readonly canvas: HTMLCanvasElement,
    readonly game: Game,
    areas: AreaInfo[],
    private readonly guidance: Guidance | null,
    options: { loop?: boolean } = {},
  ) {
    this.ctx = canvas.getContext("2d", { alpha: false })!; // the ground covers it all: an opaque canvas blends less
    this.plan = new GroundPlan(game.map, areas);
    this.areas = areas;
    this.ground = new GroundChunks(this.plan);
    const net = game.net;
    net.on("combat:hit", (hit) => {
      const now = performance.now();
      const stacked = this.splats.filter((s) => s.targetId === hit.targetId && s.until > now).length;
      this.splats.push({ targetId: hit.targetId, damage: hit.damage, miss: hit.damage <= 0 || Boolean(hit.splash), until: now + SPLAT_MS, offset: stacked });
      // Attacker and target face each other.
      const a = net.state.players.get(hit.attackerId) ?? net.state.npcs.get(hit.attackerId);
      const b = net.state.players.get(hit.targetId) ?? net.state.npcs.get(hit.targetId);
      if (a && b) {
        this.motion.face(hit.attackerId, b.x - a.x, b.z - a.z);
        this.motion.face(hit.targetId, a.x - b.x, a.z - b.z);
      }
      this.animations.blow(hit.attackerId, hit.style, now);
      if (b && hit.targetHealth <= 0) {
        // It falls where it is drawn now; the state may already hold it dead or respawned.
        const kind = net.state.players.get(hit.targetId) ? "player" : "npc";
        const d = this.motion.at(b.id, b.x, b.z, now);
        const { look, key } = this.lookOf(kind, b);
        this.animations.died({ kind, id: b.id, x: d.x, z: d.z, facing: d.facing, look, key, at: now });
      }
    });
    net.on("chat:message", (m) => {
      if (m.channel === "local") this.speech.set(m.fromId, { text: m.message, until: performance.now() + SPEECH_MS });
    });
    net.on("skill:xp", (x) => {
      if (settings.xpDrops) this.xpDrops.push({ text: `+${x.gained} ${cap(x.skill)}`, at: performance.now() });
    });
    net.on("skill:levelup", (l) => (this.levelUp = { text: `Congratulations! Your ${cap(l.skill)} level is now ${l.level}.`, at: performance.now() }));
    canvas.addEventListener("click", (ev) => this.click(ev, false));
    canvas.addEventListener("contextmenu", (ev) => {
      ev.preventDefault();
      this.click(ev, true);
    });
    canvas.addEventListener("mousemove", (ev) => {
      this.pointer = this.canvasPoint(ev);
      this.hover();
    });
    canvas.addEventListener("mouseleave", () => {
      this.pointer = null;
      this.hover();
    });
    // What is under a still pointer changes as things move: the hover follows at each frame.
    this.afterFrame.push(() => this.pointer && this.hover());
    canvas.addEventListener(
      "wheel",
      (ev) => {
        ev.preventDefault();
        setSettings({ zoom: zoomStep(settings.zoom, ev.deltaY < 0 ? 1 : -1) });
      },
      { passive: false },
    );
    if (options.loop !== false) {
      const frame = (now: number) => {
        this.frame(now);
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    }
  }

  /** Draw the ground again from the game's map (after the server's content was reloaded). */
  setGround(areas: AreaInfo[]) {
    this.plan = new GroundPlan(this.game.map, areas);
    this.areas = areas;
    this.ground = new GroundChunks(this.plan);
  }

  get tile(): number {
    return settings.zoom;
  }

  /** Where a tile's centre is on the page (for tools and tests). */
  tileToPage(x: number, z: number): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    const p = this.toCanvas(x, z);
    return { x: r.left + window.scrollX + p.x, y: r.top + window.scrollY + p.y };
  }

  /** Where the view is centred now (the player's drawn place, between tiles while it walks). */
  get camera(): { x: number; z: number } {
    return { x: this.camX, z: this.camZ };
  }

  /** The canvas point of a world point (a tile's centre at whole coordinates). */
  toCanvas(x: number, z: number) {
    const t = this.tile;
    return { x: (x - this.camX) * t + this.canvas.width / 2, y: (this.camZ - z) * t + this.canvas.height / 2 };
  }

  /** The tile under a canvas point. */
  toTile(cx: number, cy: number) {
    const t = this.tile;
    return { x: Math.round((cx - this.canvas.width / 2) / t + this.camX), z: Math.round(this.camZ - (cy - this.canvas.height / 2) / t) };
  }

  private canvasPoint(ev: MouseEvent) {
    const r = this.canvas.getBoundingClientRect();
    return { x: ((ev.clientX - r.left) * this.canvas.width) / r.width, y: ((ev.clientY - r.top) * this.canvas.height) / r.height };
  }

  /** Draw one frame (the animation loop calls it; the benchmark calls it itself). */
  frame(now: number) {
    const start = performance.now();
    this.draw(now);
    for (const fn of this.afterFrame) fn(now);
    this.frameMs.push(performance.now() - start);
    if (this.frameMs.length > 600) this.frameMs.splice(0, 300);
  }

  private draw(now: number) {
    const { ctx, canvas, game } = this;
    const state = game.net.state;
    const t = this.tile;
    this.motion.nextFrame();
    this.sprites.nextFrame();
    const meId = game.net.playerId;
    const me = state.players?.get(meId);
    if (me) {
      const d = this.motion.at(me.id, me.x, me.z, now);
      this.camX = d.x;
      this.camZ = d.z;
    } else if (game.me) {
      this.camX = game.me.position.x;
      this.camZ = game.me.position.z;
    }
    this.drawGround();
    this.hits.length = 0;
    if (!state.players) return;
    const W = canvas.width;
    const H = canvas.height;
    const viewX = W / 2 / t + 2;
    const viewZ = H / 2 / t + 3;
    const inView = (x: number, z: number) => Math.abs(x - this.camX) <= viewX && Math.abs(z - this.camZ) <= viewZ;

    // Flat things first: ground items; then everything standing, north to south.
    state.groundItems.forEach((g) => inView(g.x, g.z) && this.drawGroundItem(g));
    const standing = this.standing;
    standing.length = 0;
    state.stations.forEach((s) => inView(s.x, s.z) && this.stand(s.z, s, null, null, null));
    state.resources.forEach((r) => inView(r.x, r.z) && this.stand(r.z + 0.01, null, r, null, null));
    // The frame's figures and their places in the draw order come from pools kept from frame to frame.
    const figures = this.figures;
    figures.length = 0;
    const animations = this.animations;
    const add = (kind: "npc" | "player", e: NpcView | PlayerView, action: string, moving: boolean) => {
      const d = this.motion.at(e.id, e.x, e.z, now);
      if (animations.lyingAt(e.id, d.x, d.z, now)) return;
      const f = (this.figurePool[figures.length] ??= { kind, e, x: 0, z: 0, facing: 0, step: 0, pose: "stand", phase: 0, dx: 0, slot: 0, of: 1 });
      f.kind = kind;
      f.e = e;
      f.x = d.x;
      f.z = d.z;
      f.facing = d.facing;
      f.step = d.step;
      animations.poseOf(e.id, action, moving || d.step !== 0, now, f);
      if (f.pose !== "stand") f.step = 0;
      figures.push(f);
    };
    state.npcs.forEach((n) => n.state !== "dead" && inView(n.x, n.z) && add("npc", n, n.state, n.state === "moving"));
    state.players.forEach((p) => inView(p.x, p.z) && add("player", p, p.action, p.moving));
    this.spreadShared(figures);
    for (const f of figures) this.stand(f.z, null, null, f, null);
    for (const d of animations.dying(now)) if (inView(d.x, d.z)) this.stand(d.z, null, null, null, d);
    this.drawnDying.length = 0;
    standing.sort((a, b) => b.z - a.z);
    for (const s of standing) {
      if (s.figure) this.drawFigureOf(s.figure);
      else if (s.dying) this.drawDying(s.dying, now);
      else if (s.resource) this.drawResource(s.resource, now);
      else if (s.station) this.drawStation(s.station, now);
    }

    this.drawRoofs(me, inView);
    // Over everything: building names, names, health bars, splats, speech, markers.
    for (const b of game.map.buildings) {
      if (!inView((b.minX + b.maxX) / 2, (b.minZ + b.maxZ) / 2)) continue;
      const p = this.toCanvas((b.minX + b.maxX) / 2, (b.minZ + b.maxZ) / 2);
      this.blit(labelSprite(this.sprites, b.name, "#f6e7b0", t, 12), p.x, p.y);
    }
    // In a crowd, names only over the player, the quest's targets and whoever the pointer is on.
    const crowd = figures.length > CROWD;
    const pointed = this.pointer ? this.hitsAt(this.pointer.x, this.pointer.y)[0]?.id : undefined;
    const targets = crowd ? new Set((this.guidance?.markers() ?? []).map((m) => m.entityId)) : null;
    this.labels.length = 0;
    for (const f of figures) this.drawOverhead(f, now, !targets || f.e.id === meId || f.e.id === pointed || targets.has(f.e.id));
    // What is said over everything else, each line clear of the others.
    for (const f of figures) if (f.kind === "player") this.drawSpeech(f, now);
    this.drawSplats(figures, now);
    this.drawMarkers(now);
    this.drawXp(now);
  }

  /**
   * A roof over each building in view (with Roofs on in Options), over whatever stands inside,
   * but for the building the player stands in. Names, health bars and markers are drawn over the
   * roofs, and what is inside stays under the pointer: a click lands on it as without the roof.
   */
  private drawRoofs(me: PlayerView | undefined, inView: (x: number, z: number) => boolean) {
    this.drawnRoofs.length = 0;
    if (!settings.roofs) return;
    const t = this.tile;
    const eave = Math.round(EAVES * t);
    for (const b of this.game.map.buildings) {
      if (me && me.x >= b.minX && me.x <= b.maxX && me.z >= b.minZ && me.z <= b.maxZ) continue;
      if (!inView(b.minX, b.minZ) && !inView(b.maxX, b.maxZ) && !inView(b.minX, b.maxZ) && !inView(b.maxX, b.minZ)) continue;
      const w = (b.maxX - b.minX + 1) * t + 2 * eave;
      const h = (b.maxZ - b.minZ + 1) * t + 2 * eave;
      const img = this.sprites.get(`roof:${b.id}`, t, w, h, (c) => drawRoof(c, w, h, t, b.type));
      // The roof's north-west corner: the building's, half a tile out from its corner tile's middle, and the eaves.
      const p = this.toCanvas(b.minX, b.maxZ);
      drawSprite(this.ctx, img, Math.round(p.x - t / 2 - eave), Math.round(p.y - t / 2 - eave));
      this.drawnRoofs.push(b.id);
    }
  }

  /**
   * Figures on one tile stand side by side across it (the player's own in the middle of its
   * group's order, npcs first), each knowing its place so that their names stack over the tile.
   */
  private spreadShared(figures: Figure[]) {
    const onTile = this.onTile;
    onTile.clear();
    const key = (f: Figure) => Math.round(f.x) * 65536 + Math.round(f.z);
    for (const f of figures) {
      const k = key(f);
      const n = onTile.get(k) ?? 0;
      f.slot = n;
      onTile.set(k, n + 1);
    }
    const t = this.tile;
    for (const f of figures) {
      const n = onTile.get(key(f))!;
      f.of = n;
      f.dx = n > 1 ? (f.slot - (n - 1) / 2) * Math.min(t * 0.5, (t * 0.9) / (n - 1)) : 0;
    }
  }

  private drawGround() {
    const { ctx, canvas } = this;
    const t = this.tile;
    const W = canvas.width;
    const H = canvas.height;
    // The world tile at the canvas's top-left corner, and the chunks from there.
    const left = this.camX - W / 2 / t - 0.5;
    const top = this.camZ + H / 2 / t + 0.5;
    const bottom = this.camZ - H / 2 / t - 0.5;
    const right = this.camX + W / 2 / t + 0.5;
    const cx0 = Math.floor(left / CHUNK);
    const cx1 = Math.floor(right / CHUNK);
    const cz0 = Math.floor(bottom / CHUNK);
    const cz1 = Math.floor(top / CHUNK);
    ctx.imageSmoothingEnabled = false;
    for (let cz = cz0; cz <= cz1; cz++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        const img = this.ground.chunk(cx, cz, t);
        // The chunk's top-left tile is (cx*CHUNK, cz*CHUNK + CHUNK - 1); its corner is half a tile off its centre.
        const p = this.toCanvas(cx * CHUNK - 0.5, cz * CHUNK + CHUNK - 0.5);
        ctx.drawImage(img, Math.round(p.x), Math.round(p.y));
      }
    }
  }

  /** Something standing on the map this frame, drawn in order north to south (from a pool kept from frame to frame). */
  private stand(z: number, station: StationView | null, resource: ResourceView | null, figure: Figure | null, dying: Dying | null) {
    const s = (this.standingPool[this.standing.length] ??= { z, station, resource, figure, dying });
    s.z = z;
    s.station = station;
    s.resource = resource;
    s.figure = figure;
    s.dying = dying;
    this.standing.push(s);
  }

  /** Something a click can land on this frame, from a pool kept from frame to frame. */
  private hit(kind: Hit["kind"], id: string, x0: number, y0: number, x1: number, y1: number, pose?: Pose) {
    const h = (this.hitPool[this.hits.length] ??= { kind, id, x0, y0, x1, y1 });
    h.kind = kind;
    h.id = id;
    h.x0 = x0;
    h.y0 = y0;
    h.x1 = x1;
    h.y1 = y1;
    h.pose = pose;
    this.hits.push(h);
  }

  /** Draw a sprite with its anchor (ax, ay) at canvas (x, y). */
  private blit(img: Sprite, x: number, y: number, ax = img.width / 2, ay = img.height / 2) {
    drawSprite(this.ctx, img, Math.round(x - ax), Math.round(y - ay));
  }

  private drawStation(s: StationView, now: number) {
    const t = this.tile;
    const { w, h } = thingSize(t);
    const phase = s.type === "furnace" || s.type.includes("runecraft") ? Math.floor(now / 400) % 2 : 0;
    const img = this.sprites.get(`station:${s.type}:${s.runeType}:${phase}`, t, w, h, (c) => drawStation(c, s.type, s.runeType, t, phase));
    const p = this.toCanvas(s.x, s.z);
    const a = thingAnchor(t);
    this.blit(img, p.x, p.y, a.x, a.y);
    this.hit("station", s.id, p.x - t / 2, p.y - t, p.x + t / 2, p.y + t / 2);
  }

  private drawResource(r: ResourceView, now: number) {
    const t = this.tile;
    const size = resourceSize(r.skill, r.depleted, t);
    const { w, h } = size;
    const animated = r.skill === "fishing" || r.skill === "firemaking";
    const phase = animated ? (Math.floor(now / 250) % 4) / 4 : 0;
    const img = this.sprites.get(`res:${r.resourceId}:${r.skill}:${r.depleted}:${phase}`, t, w, h, (c) =>
      drawResource(c, r.resourceId, r.skill, r.depleted, t, phase),
    );
    const p = this.toCanvas(r.x, r.z);
    const a = thingAnchor(t, size);
    this.blit(img, p.x, p.y, a.x, a.y);
    const tall = r.skill === "woodcutting" && !r.depleted ? t * 0.95 : t / 2;
    this.hit("resource", r.id, p.x - t / 2, p.y - tall, p.x + t / 2, p.y + t / 2);
  }

  private drawGroundItem(g: GroundItemView) {
    const t = this.tile;
    const item = this.game.item(g.itemId);
    const p = this.toCanvas(g.x, g.z);
    const size = Math.round(t * 0.7);
    if (item) this.ctx.drawImage(iconCanvas(item), Math.round(p.x - size / 2), Math.round(p.y - size / 2), size, size);
    else {
      this.ctx.fillStyle = "#f0d040";
      this.ctx.fillRect(p.x - 4, p.y - 4, 8, 8);
    }
    this.hit("item", g.id, p.x - t / 2, p.y - t / 2, p.x + t / 2, p.y + t / 2);
  }

  /** A figure's look and the key of its sprites, a player's worked out once. */
  private lookOf(kind: "npc" | "player", e: NpcView | PlayerView): { look: Look; key: string } {
    if (kind === "npc") {
      const n = e as NpcView;
      let known = this.npcLooks.get(n.npcId);
      if (!known) this.npcLooks.set(n.npcId, (known = { look: npcLook(n.npcId, this.game.npc(n.npcId)?.attackable ?? false), key: `npc:${n.npcId}` }));
      return known;
    }
    const p = e as PlayerView;
    let known = this.looks.get(p.id);
    if (!known || (known.key === "agent") !== p.isAgent) {
      const mine = p.id === this.game.net.playerId;
      const l = playerLook(p.id, mine, p.isAgent);
      known = { look: l, key: p.isAgent ? "agent" : mine ? "me" : `pl:${l.shirt}:${l.skin}:${l.hatColour}` };
      if (this.looks.size > 5000) this.looks.clear();
      this.looks.set(p.id, known);
    }
    return known;
  }

  private figureSprite(look: Look, key: string, facing: number, step: number, pose: Pose, phase: number) {
    const t = this.tile;
    const { w, h } = figureSize(t);
    const i = figureSpriteIndex(facing, step, pose, phase);
    // Standing the same way stands in for a step or a pose not drawn yet.
    const spare = figureSpriteIndex(facing, 0, "stand", 0);
    return this.sprites.nth(key, i, t, w, h, (c) => drawFigure(c, look, facing, step, t, pose, phase), spare);
  }

  private drawFigureOf(f: Figure) {
    const t = this.tile;
    const { look, key } = this.lookOf(f.kind, f.e);
    const img = this.figureSprite(look, key, f.facing, f.step, f.pose, f.phase);
    const p = this.toCanvas(f.x, f.z);
    p.x += f.dx;
    if (f.kind === "player" && f.e.id === this.game.net.playerId) {
      // The player's own ring.
      this.ctx.strokeStyle = "rgba(255,255,255,0.8)";
      this.ctx.lineWidth = 1.5;
      this.ctx.beginPath();
      this.ctx.ellipse(p.x, p.y + t * 0.25, t * 0.42, t * 0.18, 0, 0, Math.PI * 2);
      this.ctx.stroke();
    }
    // The sprite's feet are a quarter tile above the bottom of its box (figureSize).
    this.blit(img, p.x, p.y + t * 0.25, img.width / 2, img.height - t / 4);
    const scale = f.kind === "npc" ? (look.scale ?? 1) : 1;
    // Its body, not the tiles around it: a click on the next tile's centre is that tile's.
    // Beside another on its tile, only its own half of the tile.
    const half = f.of > 1 ? Math.min(t * 0.45, Math.min(t * 0.5, (t * 0.9) / (f.of - 1)) / 2) : t * 0.45;
    this.hit(f.kind, f.e.id, p.x - half, p.y - t * 0.95 * scale, p.x + half, p.y + t * 0.45, f.pose);
  }

  /** A figure that died: falling over away from where it faced, then fading (nothing to click). */
  private drawDying(d: Dying, now: number) {
    const t = this.tile;
    const img = this.figureSprite(d.look, d.key, d.facing, 0, "stand", 0);
    const p = this.toCanvas(d.x, d.z);
    const { turn, alpha } = fallOf(d, now);
    // West-facing figures fall to the east, the others to the west.
    const side = d.facing >= 1 && d.facing <= 3 ? 1 : -1;
    const ctx = this.ctx;
    ctx.save();
    ctx.globalAlpha = alpha;
    ctx.translate(Math.round(p.x), Math.round(p.y + t * 0.25));
    ctx.rotate((side * turn * Math.PI) / 2);
    drawSprite(ctx, img, -img.width / 2, -(img.height - t / 4));
    ctx.restore();
    this.drawnDying.push({ kind: d.kind, id: d.id, x: p.x, y: p.y });
  }

  private drawOverhead(f: Figure, now: number, named: boolean) {
    const t = this.tile;
    const p = this.toCanvas(f.x, f.z);
    p.x += f.dx;
    const headY = p.y - t * 1.5;
    const e = f.e;
    if (settings.names && named) {
      let text: string;
      let colour: string;
      if (f.kind === "npc") {
        const n = e as NpcView;
        const fights = this.game.npc(n.npcId)?.attackable;
        text = fights ? `${n.name} (level ${n.level})` : n.name;
        colour = fights ? "#ffb0a0" : "#fff0a0";
      } else {
        const pl = e as PlayerView;
        text = `${pl.skulled ? "☠ " : ""}${pl.isAgent ? `[agent] ${pl.name}` : pl.name}`;
        colour = pl.isAgent ? "#d8c0ff" : pl.id === this.game.net.playerId ? "#ffffff" : "#bfe3ff";
      }
      // Those sharing a tile have their names one above the other.
      // and a name that would cover a neighbour's goes up a row or two.
      const img = labelSprite(this.sprites, text, colour, t);
      let y = headY - 8 - f.slot * NAME_ROW;
      for (let row = 0; row < NAME_ROWS && this.covers(p.x, y, img); row++) y -= NAME_ROW;
      this.blit(img, p.x, y);
      this.drawnLabel("name", e.id, text, img, p.x, y);
    }
    if (e.maxHealth > 0 && (e.health < e.maxHealth || (f.kind === "npc" && (e as NpcView).state === "combat"))) {
      const w = f.of > 1 ? t * 0.45 : t * 0.8;
      this.ctx.fillStyle = "#b01010";
      this.ctx.fillRect(p.x - w / 2, headY, w, 4);
      this.ctx.fillStyle = "#20d020";
      this.ctx.fillRect(p.x - w / 2, headY, (w * Math.max(0, e.health)) / e.maxHealth, 4);
    }
  }

  /**
   * What a player said in the last few seconds, over the names of its tile: a line that would
   * cover another line or a name goes up a row until it is clear (at most SPEECH_ROWS).
   */
  private drawSpeech(f: Figure, now: number) {
    const said = this.speech.get(f.e.id);
    if (!said) return;
    if (said.until <= now) return void this.speech.delete(f.e.id);
    const t = this.tile;
    const p = this.toCanvas(f.x, f.z);
    const img = labelSprite(this.sprites, said.text, "#ffff60", t, 12);
    const x = p.x + f.dx;
    let y = p.y - t * 1.5 - 8 - (f.of - 1) * NAME_ROW - SPEECH_ROW;
    for (let row = 0; row < SPEECH_ROWS && this.covers(x, y, img); row++) y -= SPEECH_ROW;
    this.blit(img, x, y);
    this.drawnLabel("said", f.e.id, said.text, img, x, y);
  }

  /** A label drawn centred at (x, y) would cover a name or a line of speech already drawn this frame. */
  private covers(x: number, y: number, img: Sprite): boolean {
    const x0 = x - img.width / 2;
    const y0 = y - img.height / 2 + 2;
    const x1 = x0 + img.width;
    const y1 = y0 + img.height - 4;
    return this.labels.some((l) => x0 < l.x1 && x1 > l.x0 && y0 < l.y1 && y1 > l.y0);
  }

  private drawnLabel(kind: DrawnLabel["kind"], id: string, text: string, img: Sprite, x: number, y: number) {
    const l = (this.labelPool[this.labels.length] ??= { kind, id, text, x0: 0, y0: 0, x1: 0, y1: 0 });
    l.kind = kind;
    l.id = id;
    l.text = text;
    // The text's box: the sprite less its outline's margin.
    l.x0 = x - img.width / 2 + 2;
    l.x1 = x + img.width / 2 - 2;
    l.y0 = y - img.height / 2 + 2;
    l.y1 = y + img.height / 2 - 2;
    this.labels.push(l);
  }

  private drawSplats(figures: Figure[], now: number) {
    if (this.splats.length === 0) return;
    this.splats = this.splats.filter((s) => s.until > now);
    const { ctx } = this;
    const t = this.tile;
    for (const s of this.splats) {
      const f = figures.find((g) => g.e.id === s.targetId);
      if (!f) continue;
      const p = this.toCanvas(f.x, f.z);
      const rise = (1 - (s.until - now) / SPLAT_MS) * t * 0.3;
      const x = p.x + f.dx + (s.offset % 2 ? t * 0.3 : 0);
      const y = p.y - t * 0.5 - rise - (s.offset > 1 ? t * 0.3 : 0);
      const r = t * 0.28;
      ctx.fillStyle = s.miss ? "#2a6fd0" : "#c81e1e";
      ctx.beginPath();
      for (let k = 0; k < 10; k++) {
        const a = (k * Math.PI) / 5;
        const rr = k % 2 ? r * 0.75 : r;
        ctx.lineTo(x + Math.cos(a) * rr, y + Math.sin(a) * rr);
      }
      ctx.closePath();
      ctx.fill();
      ctx.strokeStyle = "#000";
      ctx.lineWidth = 1;
      ctx.stroke();
      ctx.font = `bold ${Math.max(10, Math.round(t * 0.34))}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillStyle = "#fff";
      ctx.fillText(String(Math.max(0, s.damage)), x, y + 1);
    }
  }

  /** Quest markers: a bouncing arrow over the target, or on the edge of the view pointing at it. */
  private drawMarkers(now: number) {
    this.drawnMarkers = [];
    const markers: Marker[] = this.guidance?.markers() ?? [];
    if (markers.length === 0) return;
    const { ctx, canvas } = this;
    const t = this.tile;
    const r = canvas.getBoundingClientRect();
    const toPage = (x: number, y: number) => ({
      x: r.left + window.scrollX + (x * r.width) / canvas.width,
      y: r.top + window.scrollY + (y * r.height) / canvas.height,
    });
    const bounce = Math.sin(now / 180) * t * 0.12;
    markers.forEach((m, i) => {
      // Over the entity where it is drawn now (sliding), else over the place.
      let x = m.x;
      let z = m.z;
      if (m.entityId) {
        const e = this.game.net.state.npcs.get(m.entityId);
        if (e) {
          const d = this.motion.at(e.id, e.x, e.z, now);
          x = d.x;
          z = d.z;
        }
      }
      const p = this.toCanvas(x, z);
      const margin = 18;
      const onMap = p.x > margin && p.x < canvas.width - margin && p.y > margin + t && p.y < canvas.height - margin;
      if (onMap) {
        const ay = p.y - t * 2.3 + bounce - 8;
        ctx.fillStyle = "#ffd22a";
        ctx.strokeStyle = "#4a3000";
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(p.x, ay + t * 0.45);
        ctx.lineTo(p.x - t * 0.3, ay);
        ctx.lineTo(p.x - t * 0.12, ay);
        ctx.lineTo(p.x - t * 0.12, ay - t * 0.3);
        ctx.lineTo(p.x + t * 0.12, ay - t * 0.3);
        ctx.lineTo(p.x + t * 0.12, ay);
        ctx.lineTo(p.x + t * 0.3, ay);
        ctx.closePath();
        ctx.fill();
        ctx.stroke();
        // The click point is the target itself (its body, or the place's tile).
        const aim = m.entityId ? { x: p.x, y: p.y - t * 0.2 } : p;
        this.drawnMarkers.push({ where: "map", label: m.label, entityId: m.entityId, tile: { x: m.x, z: m.z }, ...toPage(aim.x, aim.y), edge: false });
      } else if (i === 0) {
        // On the edge, pointing the way (for the nearest only).
        const cx = canvas.width / 2;
        const cy = canvas.height / 2;
        const dx = p.x - cx;
        const dy = p.y - cy;
        const k = Math.min((cx - margin - 10) / Math.abs(dx || 1e-6), (cy - margin - 10) / Math.abs(dy || 1e-6));
        const ex = cx + dx * k;
        const ey = cy + dy * k;
        const a = Math.atan2(dy, dx);
        ctx.save();
        ctx.translate(ex, ey);
        ctx.rotate(a);
        ctx.fillStyle = "#ffd22a";
        ctx.strokeStyle = "#4a3000";
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(14, 0);
        ctx.lineTo(-8, -10);
        ctx.lineTo(-3, 0);
        ctx.lineTo(-8, 10);
        ctx.closePath();
        ctx.fill();
        ctx.stroke();
        ctx.restore();
        const tiles = Math.round(Math.max(Math.abs(m.x - this.camX), Math.abs(m.z - this.camZ)));
        this.blit(labelSprite(this.sprites, `${tiles} tiles`, "#ffd22a", t, 11), ex - Math.cos(a) * 24, ey - Math.sin(a) * 24);
        this.drawnMarkers.push({ where: "map", label: m.label, entityId: m.entityId, tile: { x: m.x, z: m.z }, ...toPage(ex, ey), edge: true });
      }
    });
  }

  private drawXp(now: number) {
    const { ctx, canvas } = this;
    this.xpDrops = this.xpDrops.filter((d) => now - d.at < XP_DROP_MS);
    this.xpDrops.forEach((d, i) => {
      const k = (now - d.at) / XP_DROP_MS;
      ctx.globalAlpha = Math.min(1, 2 - 2 * k);
      this.blit(labelSprite(this.sprites, d.text, "#ffffff", this.tile, 13), canvas.width - 80, 90 - k * 60 + i * 16);
    });
    ctx.globalAlpha = 1;
    if (this.levelUp && now - this.levelUp.at < LEVEL_UP_MS) {
      const y = 54;
      ctx.fillStyle = "rgba(20,14,4,0.82)";
      ctx.fillRect(canvas.width / 2 - 230, y - 18, 460, 36);
      ctx.strokeStyle = "#f0c060";
      ctx.strokeRect(canvas.width / 2 - 230, y - 18, 460, 36);
      this.blit(labelSprite(this.sprites, this.levelUp.text, "#ffe27a", this.tile, 14), canvas.width / 2, y);
    } else this.levelUp = null;
  }

  // ---- Pointing and clicking ----

  /** What is drawn under a canvas point, topmost first. */
  private hitsAt(cx: number, cy: number): Hit[] {
    const out: Hit[] = [];
    for (let i = this.hits.length - 1; i >= 0; i--) {
      const h = this.hits[i]!;
      if (cx >= h.x0 && cx <= h.x1 && cy >= h.y0 && cy <= h.y1) out.push(h);
    }
    // Figures before things, as they stand in front.
    return out.sort((a, b) => rank(a.kind) - rank(b.kind));
  }

  /**
   * The npcs and players drawn in the last frame, where (page coordinates of their bodies) and in
   * which pose (poses.ts, "die" for one falling or fading after its death): for the test aid.
   */
  figuresOnPage(): Array<{ kind: string; id: string; name: string; pose: string; x: number; y: number }> {
    const r = this.canvas.getBoundingClientRect();
    const state = this.game.net.state;
    const page = (kind: string, id: string, pose: string, x: number, y: number) => ({
      kind,
      id,
      name: (state.npcs.get(id) ?? state.players.get(id))?.name ?? "",
      pose,
      x: r.left + window.scrollX + (x * r.width) / this.canvas.width,
      y: r.top + window.scrollY + (y * r.height) / this.canvas.height,
    });
    return [
      ...this.hits
        .filter((h) => h.kind === "npc" || h.kind === "player")
        .map((h) => page(h.kind, h.id, h.pose ?? "stand", (h.x0 + h.x1) / 2, (h.y0 + h.y1) / 2)),
      ...this.drawnDying.map((d) => page(d.kind, d.id, "die", d.x, d.y)),
    ];
  }

  /** The names and speech drawn in the last frame: `{kind, id, text, x0, y0, x1, y1}` in page coordinates, for the test aid. */
  labelsOnPage(): Array<{ kind: string; id: string; text: string; x0: number; y0: number; x1: number; y1: number }> {
    const r = this.canvas.getBoundingClientRect();
    const sx = r.width / this.canvas.width;
    const sy = r.height / this.canvas.height;
    const left = r.left + window.scrollX;
    const top = r.top + window.scrollY;
    return this.labels.map((l) => ({
      kind: l.kind,
      id: l.id,
      text: l.text,
      x0: left + l.x0 * sx,
      y0: top + l.y0 * sy,
      x1: left + l.x1 * sx,
      y1: top + l.y1 * sy,
    }));
  }

  /** What the hover box names now (kind, id and name), so that a frame with the same leaves it be. */
  private hovered = "";

  /** Name and examine text of what is under the pointer, in the hover box, and its first action over the map. */
  private hover() {
    const box = document.getElementById("hover");
    const action = document.getElementById("action-text");
    if (!box || !action) return;
    if (!this.pointer) {
      box.hidden = true;
      action.textContent = "";
      this.hovered = "";
      return;
    }
    const { x, y } = this.pointer;
    const hit = this.hitsAt(x, y)[0];
    const options = this.optionsAt(x, y);
    const first = options[0];
    const actionText = first ? `${first.label}${options.length > 2 ? ` / ${options.length - 1} more options` : ""}` : "";
    if (action.textContent !== actionText) action.textContent = actionText;
    const info = hit ? this.describe(hit) : null;
    if (!info) {
      box.hidden = true;
      this.hovered = "";
      return;
    }
    const r = this.canvas.getBoundingClientRect();
    box.style.left = `${Math.min(x + 14, r.width - 220)}px`;
    box.style.top = `${y + 16}px`;
    box.hidden = false;
    // The box's text is written again only when what it names changed.
    const key = `${hit!.kind}:${hit!.id}:${info.name}`;
    if (key === this.hovered) return;
    this.hovered = key;
    box.replaceChildren();
    const name = document.createElement("b");
    name.textContent = info.name;
    box.append(name);
    if (info.examine) {
      const text = document.createElement("div");
      text.textContent = info.examine;
      box.append(text);
    }
  }

  /** The name and examine text of something drawn. */
  describe(hit: { kind: Hit["kind"]; id: string }): { name: string; examine: string | null } | null {
    const { game } = this;
    const state = game.net.state;
    switch (hit.kind) {
      case "npc": {
        const n = state.npcs.get(hit.id);
        if (!n) return null;
        const info = game.npc(n.npcId);
        return { name: info?.attackable ? `${n.name} (level ${n.level})` : n.name, examine: info?.examine ?? null };
      }
      case "player": {
        const p = state.players.get(hit.id);
        if (!p) return null;
        const mine = p.id === game.net.playerId;
        return {
          name: `${p.isAgent ? "[agent] " : ""}${p.name} (level ${p.combatLevel})`,
          examine: mine ? "That's you." : p.isAgent ? "An agent: a player driven by a program." : "A fellow adventurer.",
        };
      }
      case "resource": {
        const r = state.resources.get(hit.id);
        if (!r) return null;
        if (r.skill === "firemaking") return { name: "Fire", examine: "A fire, burning nicely. Cook raw food on it from your pack." };
        const info = game.catalogue.resources.find((c) => c.id === r.resourceId);
        if (r.depleted)
          return {
            name: r.skill === "woodcutting" ? "Tree stump" : r.skill === "mining" ? "Rocks" : r.name,
            examine: r.skill === "woodcutting" ? "A stump: the tree will grow back." : "There is nothing left here for now.",
          };
        return { name: `${r.name}${info ? ` (${r.skill} ${info.level})` : ""}`, examine: info?.examine ?? null };
      }
      case "station": {
        const s = state.stations.get(hit.id);
        if (!s) return null;
        return { name: s.name, examine: game.catalogue.stations.find((c) => c.type === s.type)?.examine ?? null };
      }
      case "item": {
        const g = state.groundItems.get(hit.id);
        if (!g) return null;
        return { name: `${game.itemName(g.itemId)}${g.quantity > 1 ? ` (${g.quantity})` : ""}`, examine: game.item(g.itemId)?.examine ?? null };
      }
    }
  }

  /** Everything that can be done at a canvas point, the default first: what is drawn there, then its tile. */
  optionsAt(cx: number, cy: number): MenuOption[] {
    const tile = this.toTile(cx, cy);
    const hits = this.hitsAt(cx, cy);
    return this.options(tile.x, tile.z, hits);
  }

  /** What can be done on a tile (and with `hits`, things drawn over it), the default first. */
  options(x: number, z: number, hits: Array<{ kind: Hit["kind"]; id: string }> = []): MenuOption[] {
    const { game } = this;
    const net = game.net;
    const state = net.state;
    const seen = new Set<string>();
    const targets: Array<{ kind: Hit["kind"]; id: string }> = [...hits];
    state.npcs.forEach((n) => n.x === x && n.z === z && n.state !== "dead" && targets.push({ kind: "npc", id: n.id }));
    state.resources.forEach((r) => r.x === x && r.z === z && targets.push({ kind: "resource", id: r.id }));
    state.groundItems.forEach((g) => g.x === x && g.z === z && targets.push({ kind: "item", id: g.id }));
    state.stations.forEach((s) => s.x === x && s.z === z && targets.push({ kind: "station", id: s.id }));
    state.players.forEach((p) => p.x === x && p.z === z && p.id !== net.playerId && targets.push({ kind: "player", id: p.id }));
    const options: MenuOption[] = [];
    const later: MenuOption[] = [];
    const examine: MenuOption[] = [];
    // A feature's entry (FEATURE_MENUS): its verb and the target's name, its message with the target's id.
    const featureOption = (m: FeatureMenu, id: string, name: string): MenuOption => ({
      label: `${m.verb} ${name}`,
      run: () => net.send(m.message, { [m.idKey]: id } as never),
    });
    for (const target of targets) {
      if (seen.has(target.id)) continue;
      seen.add(target.id);
      const info = this.describe(target);
      if (info) examine.push({ label: `Examine ${info.name}`, run: () => game.log(info.examine ?? `It's ${info.name}.`, "system") });
      if (target.kind === "npc") {
        const n = state.npcs.get(target.id)!;
        const def = game.npc(n.npcId);
        const spell = game.pendingSpell;
        if (spell && def?.attackable) options.push({ label: `Cast ${spell.name} on ${n.name}`, run: () => game.cast(n.id) });
        if (def?.attackable)
          options.push({ label: `Attack ${n.name} (level ${n.level})`, run: () => net.send("player:action", { action: "attack", targetId: n.id }) });
        if (def?.talks) options.push({ label: `Talk-to ${n.name}`, run: () => net.send("player:action", { action: "talk", targetId: n.id }) });
        if (def?.services.some((s) => s === "store" || s === "shop"))
          options.push({ label: `Trade ${n.name}`, run: () => net.send("player:action", { action: "store", targetId: n.id }) });
        for (const m of FEATURE_MENUS) if (m.on === "npc" && def?.services.includes(m.service)) options.push(featureOption(m, n.id, n.name));
      } else if (target.kind === "resource") {
        const r = state.resources.get(target.id)!;
        if (r.skill !== "firemaking" && !r.depleted)
          options.push({ label: `${GATHER_VERB[r.skill] ?? "Gather"} ${r.name}`, run: () => net.send("player:action", { action: "gather", targetId: r.id }) });
      } else if (target.kind === "item") {
        const g = state.groundItems.get(target.id)!;
        options.push({ label: `Take ${game.itemName(g.itemId)}`, run: () => net.send("player:action", { action: "pickup", targetId: g.id }) });
      } else if (target.kind === "station") {
        const s = state.stations.get(target.id)!;
        const featured = FEATURE_MENUS.filter((m) => m.on === "station" && m.stationType === s.type);
        if (s.type === "altar") options.push({ label: `Pray-at ${s.name}`, run: () => net.send("player:action", { action: "pray", targetId: s.id }) });
        else if (featured.length) for (const m of featured) options.push(featureOption(m, s.id, s.name));
        else options.push({ label: `Use ${s.name}`, run: () => game.useStation(s) });
      } else if (target.kind === "player") {
        const p = state.players.get(target.id)!;
        if (p.id === net.playerId) continue;
        // The duel opponent is the one player a click attacks; other players are walked past.
        if (game.duelOpponent === p.id)
          options.unshift({ label: `Fight ${p.name}`, run: () => net.send("player:action", { action: "attack", targetId: p.id }) });
        else if (inPvpArea(this.areas, p.x, p.z) && inPvpArea(this.areas, game.me.position.x, game.me.position.z))
          options.unshift({ label: `Attack ${p.name} (level ${p.combatLevel})`, run: () => net.send("player:action", { action: "attack", targetId: p.id }) });
        later.push({ label: `Trade with ${p.name}`, run: () => net.send("tradeRequest", { targetPlayerId: p.id }) });
        later.push({ label: `Challenge ${p.name}`, run: () => net.send("duel:challenge", { targetPlayerId: p.id }) });
        later.push({ label: `Report ${p.name}`, run: () => game.report(p.name) });
      }
    }
    options.push({ label: "Walk here", run: () => this.walkTo(x, z) });
    return [...options, ...later, ...examine];
  }

  /** Walk to a tile, or the nearest open tile to it (a tree, a wall). */
  walkTo(x: number, z: number) {
    const open = this.nearestOpen(x, z);
    if (!open) return this.game.log("You can't reach that spot", "error");
    this.game.net.send("player:move", { x: open.x, z: open.z, run: settings.run });
  }

  nearestOpen(x: number, z: number): { x: number; z: number } | null {
    for (let r = 0; r <= 4; r++)
      for (let dz = -r; dz <= r; dz++)
        for (let dx = -r; dx <= r; dx++) {
          if (Math.max(Math.abs(dx), Math.abs(dz)) !== r) continue;
          if (!this.game.isBlocked(x + dx, z + dz)) return { x: x + dx, z: z + dz };
        }
    return null;
  }

  /** Do what a click at the event's point does (`list`: the right click's menu there); touch.ts calls it for a tap and a long press. */
  click(ev: MouseEvent, list: boolean) {
    const { x, y } = this.canvasPoint(ev);
    const options = this.optionsAt(x, y);
    const hit = this.hitsAt(x, y)[0];
    const tile = this.toTile(x, y);
    const title = hit ? (this.describe(hit)?.name ?? `Tile ${tile.x}, ${tile.z}`) : `Tile ${tile.x}, ${tile.z}`;
    if (list) this.game.menu(ev.pageX, ev.pageY, title, options);
    else options[0]!.run();
  }

  /** Zoom in (1) or out (-1). */
  zoom(by: 1 | -1) {
    setSettings({ zoom: zoomStep(settings.zoom, by) });
  }
}

const rank = (k: Hit["kind"]) => (k === "npc" || k === "player" ? 0 : k === "item" ? 1 : 2);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
