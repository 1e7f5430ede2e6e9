import * as admin from "./adminApi.js";
import { ApiError } from "./api.js";
import { byId, h } from "./dom.js";
import type { Game } from "./game.js";

/** A refusal as the panel shows it: the server's message and code. */
function describe(err: unknown): string {
  if (err instanceof ApiError) return `${err.message} (${err.code})`;
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

const isStaff = (role: string) => role === "moderator" || role === "admin";

/**
 * The staff panel, for a moderator or an admin (the role `account:standing` gives): a toggle
 * button over the view opens it; it lists who is online, with mute, unmute, kick and ban (the
 * duration and the reason set once above the list), and the open and claimed reports with their
 * chat (claim, close with a resolution). Every act is a call of the admin REST API with the
 * account's token; the server's answer, or its refusal's message, shows at the top.
 */
export function installStaffPanel(game: Game) {
  const net = game.net;
  const toggle = byId<HTMLButtonElement>("staff-toggle");
  const root = byId("staff");
  const token = net.token;

  const status = h("p", { className: "status-line", role: "status" });
  const duration = h("select", { className: "duration" }, ...admin.DURATIONS.map((d) => h("option", { value: d }, d)));
  const reason = h("input", { className: "reason", maxLength: 500, placeholder: "Reason (needed to mute or ban)", autocomplete: "off" });
  const players = h("div", { className: "rows players" });
  const reports = h("div", { className: "reports" });
  const unbanName = h("input", { maxLength: 12, placeholder: "Name", autocomplete: "off", className: "lift-name" });

  const say = (text: string, error: boolean) => {
    status.textContent = text;
    status.className = `status-line${error ? " error" : ""}`;
  };

  /** Run one call; its answer (or refusal) at the top, and the lists drawn again after an act. */
  const act = async (what: () => Promise<unknown>, done: string | null = null) => {
    try {
      const result = (await what()) as { message?: string };
      say(result?.message ?? done ?? "Done", false);
      await refresh();
    } catch (err) {
      say(describe(err), true);
    }
  };

  const sanction = (name: string, kind: admin.SanctionKind) => {
    const why = reason.value.trim();
    if (!why) return say(`Give a reason to ${kind} ${name}`, true);
    void act(() => admin.sanction(token, name, kind, duration.value as admin.Duration, why));
  };

  const drawPlayers = (list: admin.OnlinePlayer[]) => {
    players.replaceChildren(
      ...(list.length === 0 ? [h("div", {}, "Nobody is online")] : []),
      ...list
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((p) =>
          h(
            "div",
            { dataset: { player: p.name } },
            h("span", {}, `${p.name}${p.isAgent ? " (agent)" : ""} · world ${p.world}`),
            h(
              "span",
              { className: "acts" },
              h("button", { textContent: "Mute", onclick: () => sanction(p.name, "mute") }),
              h("button", { textContent: "Unmute", onclick: () => void act(() => admin.liftSanction(token, p.name, "mute", reason.value.trim())) }),
              h("button", { textContent: "Kick", onclick: () => void act(() => admin.kick(token, p.name, reason.value.trim())) }),
              h("button", { textContent: "Ban", className: "danger", onclick: () => sanction(p.name, "ban") }),
            ),
          ),
        ),
    );
  };

  const drawReports = (list: admin.PlayerReport[]) => {
    reports.replaceChildren(
      ...(list.length === 0 ? [h("div", {}, "No open reports")] : []),
      ...list.map((r) => {
        const resolution = h("input", { maxLength: 500, placeholder: "Resolution", autocomplete: "off", className: "resolution" });
        const close = () => {
          const what = resolution.value.trim();
          if (!what) return say("Say how the report was resolved", true);
          void act(() => admin.closeReport(token, r.id, what), `Report of ${r.targetName} closed`);
        };
        return h(
          "div",
          { className: "report-entry", dataset: { report: r.id, target: r.targetName } },
          h("div", {}, h("b", {}, `${r.reporterName} → ${r.targetName}`), ` · ${r.status}${r.claimedByName ? ` by ${r.claimedByName}` : ""}`),
          h("div", { className: "reason-text" }, r.reason),
          r.chat.length
            ? h(
                "details",
                {},
                h("summary", {}, `Chat (${r.chat.length} line${r.chat.length === 1 ? "" : "s"})`),
                ...r.chat.map((c) => h("div", { className: "chat-line" }, `[${c.channel}] ${c.fromName}: ${c.message}`)),
              )
            : null,
          h(
            "div",
            { className: "actions" },
            r.status === "open"
              ? h("button", { textContent: "Claim", onclick: () => void act(() => admin.claimReport(token, r.id), `Report of ${r.targetName} claimed`) })
              : null,
            resolution,
            h("button", { textContent: "Close", onclick: close }),
          ),
        );
      }),
    );
  };

  let loading: Promise<void> | null = null;
  /** Load who is online and the reports not closed yet. */
  const refresh = (): Promise<void> =>
    (loading ??= (async () => {
      try {
        const [online, open, claimed] = await Promise.all([admin.onlinePlayers(token), admin.reports(token, "open"), admin.reports(token, "claimed")]);
        drawPlayers(online);
        drawReports([...open, ...claimed]);
      } catch (err) {
        say(describe(err), true);
      } finally {
        loading = null;
      }
    })());

  root.replaceChildren(
    h(
      "div",
      { className: "staff-head" },
      h("h3", { className: "staff-title" }, "Staff"),
      h("button", { textContent: "Refresh", onclick: () => void refresh() }),
      h("button", { textContent: "Close", onclick: () => setOpen(false) }),
    ),
    status,
    h("div", { className: "sanction" }, h("label", {}, "For ", duration), reason),
    h("h3", {}, "Online"),
    players,
    h(
      "div",
      { className: "lift" },
      unbanName,
      h("button", {
        textContent: "Unban",
        onclick: () => {
          const name = unbanName.value.trim();
          if (!name) return say("Name the player to unban", true);
          void act(() => admin.liftSanction(token, name, "ban", reason.value.trim()));
        },
      }),
    ),
    h("h3", {}, "Reports"),
    reports,
  );

  const setOpen = (on: boolean) => {
    root.hidden = !on;
    toggle.classList.toggle("on", on);
    if (on) void refresh();
  };
  toggle.onclick = () => setOpen(root.hidden);

  /** Shown to staff only: the role may change while playing. */
  const apply = (role: string) => {
    toggle.hidden = !isStaff(role);
    if (!isStaff(role)) setOpen(false);
    root.querySelector(".staff-title")!.textContent = `Staff · ${role}`;
  };
  net.on("account:standing", (s) => apply(s.role));
  apply(game.standing.role);
}
