import { SKILLS } from "../../../../src/protocol/vocabulary.js";
import type { DuelRankingsBody, HiscoresPageBody } from "../../../../src/protocol/restAnswers.js";
import { getPublic } from "../../api.js";
import { h } from "../../dom.js";
import type { Game } from "../../game.js";

/** What the window shows: a skill's ranking, the overall one, or the duel rankings. */
type Board = "overall" | (typeof SKILLS)[number] | "duels";

/**
 * The hiscores window (GET /api/v1/hiscores and /hiscores/duels): a board to pick (overall, a
 * skill, the duels), its ranking a page of 25 at a time, the player's own row marked. The figures
 * are as the server last saved them.
 */
export function installHiscores(game: Game) {
  let board: Board = "overall";
  let page = 1;
  const pick = h(
    "select",
    { className: "hiscores-board", onchange: () => ((board = pick.value as Board), (page = 1), void show()) },
    ...(["overall", ...SKILLS, "duels"] as const).map((b) => h("option", { value: b, textContent: b === "duels" ? "duel arena" : b })),
  );
  const table = h("table", { className: "hiscores" });
  const where = h("span", { className: "hiscores-page" });
  const prev = h("button", { type: "button", textContent: "◀ Previous", onclick: () => ((page = Math.max(1, page - 1)), void show()) });
  const next = h("button", { type: "button", textContent: "Next ▶", onclick: () => ((page += 1), void show()) });
  const answer = h("p", { className: "answer" });
  const body = h(
    "div",
    { className: "hiscores-window" },
    h("label", {}, "Ranking ", pick),
    table,
    answer,
    h("div", { className: "actions" }, prev, where, next, h("button", { type: "button", textContent: "Close", onclick: () => game.closeOverlay("hiscores") })),
  );

  const row = (cells: Array<string | number>, name?: string, isAgent?: boolean) =>
    h(
      "tr",
      name ? { dataset: { name }, className: name === game.me.name ? "me" : "" } : {},
      ...cells.map((c, i) => h(name ? "td" : "th", {}, String(c), i === 1 && isAgent ? h("span", { className: "agent-badge", textContent: " agent" }) : null)),
    );

  async function show() {
    answer.textContent = "Reading the hiscores…";
    answer.className = "answer";
    try {
      if (board === "duels") {
        const r = await getPublic<DuelRankingsBody>(`/api/v1/hiscores/duels?page=${page}`);
        table.replaceChildren(
          row(["Rank", "Name", "Wins", "Losses", "Stakes won"]),
          ...r.entries.map((e) => row([e.rank, e.name, e.wins, e.losses, e.stakesWon], e.name, e.isAgent)),
        );
        turned(r.page, r.pages, r.entries.length === 0 ? "Nobody has won a staked duel yet." : "");
      } else {
        const r = await getPublic<HiscoresPageBody>(`/api/v1/hiscores?skill=${board}&page=${page}`);
        table.replaceChildren(
          row(["Rank", "Name", board === "overall" ? "Total level" : "Level", "XP"]),
          ...r.entries.map((e) => row([e.rank, e.name, e.level, e.xp.toLocaleString("en")], e.name, e.isAgent)),
        );
        turned(r.page, r.pages, r.entries.length === 0 ? "Nobody is ranked yet." : "");
      }
    } catch (err) {
      answer.textContent = err instanceof Error ? err.message : String(err);
      answer.className = "answer error";
    }
  }

  function turned(at: number, pages: number, empty: string) {
    where.textContent = `page ${at} of ${Math.max(1, pages)}`;
    prev.disabled = at <= 1;
    next.disabled = at >= pages;
    answer.textContent = empty || "As last saved: a few seconds behind the world.";
  }

  game.hiscores = (on: Board = "overall") => {
    board = on;
    pick.value = on;
    page = 1;
    game.overlay("hiscores", "Hiscores", body);
    void show();
  };
  // A duel arena's scoreboard (an npc offering the scoreboard service) shows the duel rankings.
  game.net.on("notice", (n) => {
    if (n.code === "SCOREBOARD") game.hiscores("duels");
  });
}
