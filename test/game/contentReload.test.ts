import assert from "node:assert/strict";
import { applyContent, groundChanged } from "../../src/game/world/contentReload.js";
import type { World } from "../../src/game/world/World.js";
import type { GameData } from "../../src/manifests/index.js";
import { createWorld } from "../../rooms/worldSetup.js";
import { coursesIn } from "../../src/features/agility/agilityCourses.js";
import { WORLD_FEATURES } from "../../src/features/index.js";
import { thieveryIn } from "../../src/features/thieving/thievingManifest.js";
import { routesIn } from "../../src/features/travel/travelManifest.js";
import { addStarter } from "../helpers/handPlaced.js";
import { defaultGameData } from "../helpers/server.js";

/** A content reload applied to a world with no room around it: what ends, what stays, what is placed anew. */
describe("a content reload in a world", () => {
  let world: World;
  let next: GameData;
  const npcOf = (defId: string) => [...world.npcs.values()].find((n) => n.defId === defId)!;

  beforeEach(async () => {
    world = createWorld(await defaultGameData());
    next = structuredClone(world.data);
  });

  it("the same content changes nothing and ends nothing", () => {
    const a = addStarter(world, "ann");
    a.store = { storeId: "general_store", npcInstanceId: npcOf("shopkeeper").id };
    world.events.drain();
    const report = applyContent(world, next);
    assert.deepEqual(
      [report.npcs, report.resources, report.stations],
      [
        { added: 0, removed: 0, replaced: 0 },
        { added: 0, removed: 0, replaced: 0 },
        { added: 0, removed: 0, replaced: 0 },
      ],
    );
    assert.deepEqual(report.stores, { added: [], removed: [], changed: [] });
    assert.deepEqual(report.ended, { dialogues: 0, stores: 0, actions: 0 });
    assert.deepEqual(world.events.drain(), []);
    assert.equal(world.data, next);
    assert.ok(a.store, "the store stays open");
  });

  it("ends a conversation with a changed npc, a changed store and actions on a changed recipe or a removed node, keeping the shelves", () => {
    const warden = npcOf("warden_holt");
    const keeper = npcOf("shopkeeper");
    const ann = addStarter(world, "ann");
    ann.dialogue = { npcInstanceId: warden.id, npcId: warden.defId, nodeId: "start" };
    const bob = addStarter(world, "bob");
    bob.store = { storeId: "general_store", npcInstanceId: keeper.id };
    const cat = addStarter(world, "cat");
    cat.action = { type: "make", kind: "fletching", recipeId: "arrow_shaft", remaining: 5, nextTick: 0 };
    const tree = [...world.resources.values()].find((r) => r.id.startsWith("res:brindlemere:"))!;
    const dan = addStarter(world, "dan");
    dan.action = { type: "gather", targetId: tree.id, nextTick: 0 };
    const eve = addStarter(world, "eve");
    eve.action = { type: "make", kind: "smithing", recipeId: "bronze_dagger", remaining: 1, nextTick: 0 };
    // Three iron hatchets were bought: the shelf holds 2 of 5.
    world.stores.get("general_store")!.entries.get("iron_hatchet")!.quantity = 2;
    assert.equal(world.map.isBlocked(tree.tile.x, tree.tile.z), true);
    world.events.drain();

    next.npcs.get("warden_holt")!.name = "Warden Holt the Elder";
    next.stores.get("general_store")!.items.find((i) => i.itemId === "iron_hatchet")!.price = 150;
    next.recipes.fletching!.find((r) => r.id === "arrow_shaft")!.xp += 1;
    const area = next.worldAreas.get("brindlemere")!;
    area.resources = area.resources.filter((r) => !(r.position.x === tree.tile.x && r.position.z === tree.tile.z));

    const report = applyContent(world, next);
    assert.equal(report.npcs.replaced, 1);
    // Nodes are named by their place in the area's list: the first gone, the second takes its id, the last id is gone.
    assert.deepEqual([report.resources.replaced, report.resources.removed], [1, 1]);
    assert.deepEqual(report.stores.changed, ["general_store"]);
    assert.deepEqual(report.ended, { dialogues: 1, stores: 1, actions: 2 });
    const events = world.events.drain();
    assert.deepEqual(
      events.filter((e) => e.kind === "dialogueEnd" || e.kind === "storeClosed").map((e) => [e.kind, e.playerId, (e as { reason: string }).reason]),
      [
        ["dialogueEnd", ann.id, "content_changed"],
        ["storeClosed", bob.id, "content_changed"],
      ],
    );
    assert.deepEqual(
      events.filter((e) => e.kind === "actionFailed").map((e) => [e.playerId, (e as { code: string }).code]),
      [
        [cat.id, "CONTENT_CHANGED"],
        [dan.id, "CONTENT_CHANGED"],
      ],
    );
    assert.equal(eve.action?.type, "make", "a recipe that did not change carries on");
    assert.equal(world.npcs.get(warden.id)!.name, "Warden Holt the Elder");
    const shelf = world.stores.get("general_store")!.entries.get("iron_hatchet")!;
    assert.deepEqual([shelf.price, shelf.quantity, shelf.base], [150, 2, 5]);
    assert.ok(![...world.resources.values()].some((r) => r.tile.x === tree.tile.x && r.tile.z === tree.tile.z), "no node at the tree's place");
    assert.equal(world.map.isBlocked(tree.tile.x, tree.tile.z), false, "the tree's tile is walkable again");
    assert.equal(world.data, next);
  });

  it("the features take what they read from the new data (a carter's fare, a stall's xp, an obstacle's xp) and tell what they skipped", async () => {
    const featured = createWorld(await defaultGameData(), { features: WORLD_FEATURES.list });
    const changed = structuredClone(featured.data);
    const extras = changed.extras as Record<string, any>;
    extras.travel.routes[0].fare = 3;
    extras.thieving.stalls[0].xp = 99;
    extras.agility.courses[0].obstacles[0].xp = 77;
    extras.travel.routes.push({ id: "nowhere", npcId: "nobody", name: "Nowhere", to: { x: 100, z: 100 }, fare: 1 });
    featured.events.drain();
    applyContent(featured, changed);
    assert.deepEqual(
      featured.events.drain().flatMap((e) => (e.kind === "contentWarning" ? [e.message] : [])),
      ["travel.json: route nowhere: no npc nobody; skipped"],
      "what the new data's features skip is told by the running world",
    );
    assert.equal(routesIn(featured).get("carter_odo")!.fare, 3);
    assert.equal(thieveryIn(featured).stalls.get("stall:fish_stall")!.xp, 99);
    assert.equal(coursesIn(featured)[0]!.obstacles[0]!.xp, 77);
  });

  it("tells the ground (buildings, the areas' extent) from what a reload may place", () => {
    assert.equal(groundChanged(world.data, next), false);
    next.worldAreas.get("brindlemere")!.resources.push({ ...next.worldAreas.get("brindlemere")!.resources[0]!, position: { x: 86, y: 0, z: 86 } });
    assert.equal(groundChanged(world.data, next), false, "a new tree is placed by the reload");
    next.buildings[0]!.footprint.width += 1;
    assert.equal(groundChanged(world.data, next), true);
  });
});
