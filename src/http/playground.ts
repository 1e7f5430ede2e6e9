import { Router, type RequestHandler } from "express";
import type { Logger } from "pino";
import type { NodeEnv } from "../config.js";

/**
 * @colyseus/playground at /playground, in development only: a page that lists the rooms, joins them
 * (with a token from POST /api/auth/guest) and sends them messages. It shows every room to anyone,
 * so it is never mounted in test or production, and its package (a development dependency) is
 * not even loaded there. In development it is loaded on the first visit (it and its
 * @colyseus/auth are ~0.2 s of a start). Without the package installed, /playground is a 404 and
 * a warning says why.
 */
export function playgroundRoutes(nodeEnv: NodeEnv, logger: Logger): Router {
  const router = Router();
  if (nodeEnv !== "development") return router;
  let loading: Promise<RequestHandler> | undefined;
  router.use("/playground", (req, res, next) => {
    if (!loading) {
      loading = loadPlayground();
      loading.catch((err: Error) => logger.warn({ err: err.message }, "the playground at /playground is unavailable"));
    }
    void loading.then(
      (serve) => serve(req, res, next),
      () => next(),
    );
  });
  return router;
}

type OnJoin = (this: unknown, client: unknown, ...rest: unknown[]) => unknown;

async function loadPlayground(): Promise<RequestHandler> {
  // Colyseus as the playground's own imports link to it (loaded the same way: in a test runner that
  // compiles to CommonJS, the project's static imports may be another copy of the same modules).
  const core = await import("@colyseus/core");
  const { WebSocketClient } = await import("@colyseus/ws-transport");
  const roomClass = core.Room as unknown as { onAuth: unknown; prototype: { _onJoin: OnJoin } };
  const frameworkOnAuth = roomClass.onAuth;
  // Its peer @colyseus/auth, on import, swaps Colyseus's default Room.onAuth for a decoder of its
  // own tokens, which would refuse our players: our rooms check our tokens themselves. While it
  // loads, the default cannot be swapped (a player joining meanwhile still meets Colyseus's own).
  Object.defineProperty(roomClass, "onAuth", { configurable: true, get: () => frameworkOnAuth, set: () => {} });
  let playground: typeof import("@colyseus/playground").playground;
  try {
    ({ playground } = await import("@colyseus/playground"));
  } finally {
    Object.defineProperty(roomClass, "onAuth", { configurable: true, writable: true, value: frameworkOnAuth });
  }

  const onJoin = roomClass.prototype._onJoin;
  const serve = playground() as unknown as RequestHandler;
  // The playground makes every room tell each joining client its message types
  // ("__playground_message_types"): only clients on the Colyseus transport (the SDK, the page)
  // hear it; the in-process ones (/ws players, agents) keep to the documented protocol.
  const withTypes = roomClass.prototype._onJoin;
  if (withTypes !== onJoin) {
    roomClass.prototype._onJoin = function (this: unknown, client: unknown, ...rest: unknown[]) {
      return (client instanceof WebSocketClient ? withTypes : onJoin).call(this, client, ...rest);
    };
  }
  return serve;
}
