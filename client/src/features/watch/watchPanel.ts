import type { AgentGoalView } from "../../../../src/protocol/index.js";
import { h } from "../../dom.js";
import type { Game } from "../../game.js";
import type { Panel } from "../../panels/panel.js";
import type { ActivityBody, ActivityLine } from "./activityFeed.js";

/** Lines the panel lists, newest first. */
const LINES_SHOWN = 30;

/** What the watch knows beside the world's messages: the activity feed's answer and lines, and how the watch stands. */
export interface WatchInfo {
  /** The last GET …/activity answer (its agent, goal and saved character). */
  activity: ActivityBody | null;
  /** The lines heard, oldest first. */
  lines: ActivityLine[];
  /** It watches now (false after the watch ended, until it watches again). */
  watching: boolean;
  /** How the watch stands, in words ("Watching Bob", "Bob left the world: …"). */
  status: string;
}

const SOURCE: Record<AgentGoalView["source"], string> = { auto: "its own choice", owner: "set by its owner", command: "a chat command" };

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A goal's target by its name: an item, an npc, a resource or a quest the agent knows. */
function targetName(game: Game, id: string): string {
  return (
    game.item(id)?.name ??
    game.npc(id)?.name ??
    game.catalogue.resources.find((r) => r.id === id)?.name ??
    game.me?.quests.quests.find((q) => q.questId === id)?.name ??
    id
  );
}

/** "Woodcutting: Oak tree", "Combat: Goblin", "Bank". */
export function goalName(game: Game, goal: { type: string; target: string | null }): string {
  return `${cap(goal.type)}${goal.target ? `: ${targetName(game, goal.target)}` : ""}`;
}

/** How far the goal got, its figures that are not zero: "120 xp, 4 gathered". */
export function progressText(goal: AgentGoalView): string {
  const p = goal.progress;
  const parts = [
    p.xpGained > 0 && `${Math.floor(p.xpGained)} xp`,
    p.gathered > 0 && `${p.gathered} gathered`,
    p.made > 0 && `${p.made} made${goal.count ? ` of ${goal.count}` : ""}`,
    p.kills > 0 && `${p.kills} killed`,
    p.pickedUp > 0 && `${p.pickedUp} picked up`,
    p.banked > 0 && `${p.banked} banked`,
    p.bought > 0 && `${p.bought} bought${goal.count ? ` of ${goal.count}` : ""}`,
    p.sold > 0 && `${p.sold} sold`,
    p.coins !== 0 && `${p.coins > 0 ? "+" : ""}${p.coins} coins`,
  ].filter((s): s is string => typeof s === "string");
  return parts.length ? parts.join(", ") : "just begun";
}

const timeOf = (at: string) => new Date(at).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

/**
 * The watch panel: whom the page watches and how the watch stands, its health and where it is, its
 * goal (type, target, progress, from GET …/activity), what it is doing (its newest "doing" line)
 * and its latest activity lines (the stream), each with its kind. Its pack, gear and skills are the
 * usual panels, drawn from the agent's `player:sync`.
 */
export class WatchPanel implements Panel {
  readonly name = "Watch";
  private readonly root = h("div", { className: "watch-panel watch-ok" });

  constructor(private readonly info: WatchInfo) {}

  render(game: Game): HTMLElement {
    const { info } = this;
    const agent = info.activity?.agent;
    const me = game.me;
    const here = game.net.state.players.get(game.net.playerId);
    const position = here ? `${here.x}, ${here.z}` : `${me.position.x}, ${me.position.z}`;
    const doing = [...info.lines].reverse().find((l) => l.kind === "doing");
    const goal = agent?.goal ?? null;
    this.root.replaceChildren(
      h("h3", {}, `${agent?.name ?? me.name} `, h("span", { className: "agent-badge" }, "agent")),
      h("p", { className: `watch-status${info.watching ? "" : " away"}` }, info.status),
      h(
        "div",
        { className: "rows" },
        h("div", { className: "watch-health" }, h("span", {}, "Life points"), h("span", {}, `${me.health}/${me.maxHealth}`)),
        h("div", {}, h("span", {}, "Combat level"), h("span", {}, String(me.combatLevel))),
        h("div", {}, h("span", {}, "Where"), h("span", {}, `${agent?.world ? `world ${agent.world} · ` : ""}${position}`)),
        agent ? h("div", {}, h("span", {}, "Runtime"), h("span", {}, `${agent.runtime}${agent.running ? "" : " (stopped)"}`)) : null,
      ),
      h("h3", {}, "Goal"),
      h(
        "div",
        { className: "watch-goal" },
        goal
          ? h(
              "div",
              {},
              h("b", {}, goalName(game, goal)),
              h("div", { className: "small" }, `${progressText(goal)} · ${SOURCE[goal.source] ?? goal.source}`),
              goal.resume ? h("div", { className: "small" }, `then back to ${goalName(game, goal.resume)}`) : null,
              agent?.goalsPaused ? h("div", { className: "small" }, "Its goals are paused") : null,
            )
          : h("div", {}, agent?.goalsPaused ? "No goal: its goals are paused" : agent ? "No goal" : "…"),
      ),
      h("h3", {}, "Doing"),
      h("div", { className: "watch-doing" }, doing ? doing.text : "—"),
      h("h3", {}, "Activity"),
      h(
        "div",
        { className: "watch-lines" },
        ...info.lines
          .slice(-LINES_SHOWN)
          .reverse()
          .map((l) =>
            h(
              "div",
              { className: `activity-line ${l.kind}`, dataset: { kind: l.kind, seq: String(l.seq) }, title: timeOf(l.at) },
              h("span", { className: "kind" }, l.kind),
              h("span", { className: "text" }, l.text),
            ),
          ),
        info.lines.length === 0 ? h("div", { className: "small" }, "Nothing yet.") : null,
      ),
    );
    return this.root;
  }
}
