import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { RESOURCES } from "./resources.js";
import type { McpSession, Subscriptions } from "./session.js";

/**
 * A session's resource subscriptions (`resources/subscribe`, `resources/unsubscribe`): a subscribed
 * resource is told `notifications/resources/updated` when it changes: the character's quest journal
 * when a `player:sync` carries another journal, the map and the catalogue on a content reload (which
 * also tells every session `notifications/resources/list_changed`). Registered before the server
 * connects (the capability is declared then).
 */
export function serveSubscriptions(server: McpServer, s: McpSession): Subscriptions {
  const known = new Set<string>(Object.values(RESOURCES));
  const subscribed = new Set<string>();
  // The journal as last told; compared at each sync only while someone listens.
  const journalNow = () => JSON.stringify(s.player.sight.self?.quests ?? null);
  let journal = "";
  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  server.server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    if (!known.has(req.params.uri)) throw new McpError(ErrorCode.InvalidParams, `There is no resource ${req.params.uri}; resources: ${[...known].join(", ")}`);
    if (req.params.uri === RESOURCES.quests) journal = journalNow();
    subscribed.add(req.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    subscribed.delete(req.params.uri);
    return {};
  });
  const updated = (uri: string) => {
    if (subscribed.has(uri)) void server.server.sendResourceUpdated({ uri }).catch(() => {});
  };
  const stop = s.player.listen((m) => {
    if (m.type !== "player:sync" || !subscribed.has(RESOURCES.quests)) return;
    const now = journalNow();
    if (now === journal) return;
    journal = now;
    updated(RESOURCES.quests);
  });
  return {
    contentReloaded() {
      if (server.isConnected()) server.sendResourceListChanged();
      updated(RESOURCES.map);
      updated(RESOURCES.catalogue);
    },
    uris: () => [...subscribed],
    restore(uris) {
      for (const uri of uris) if (known.has(uri)) subscribed.add(uri);
      if (subscribed.has(RESOURCES.quests)) journal = journalNow();
    },
    stop,
  };
}
