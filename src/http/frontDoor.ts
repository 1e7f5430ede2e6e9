import type http from "node:http";

/** A handler that takes some requests whole, before anything else sees them. */
export interface Gate {
  handles(req: http.IncomingMessage): boolean;
  serve(req: http.IncomingMessage, res: http.ServerResponse): void;
}

/**
 * The first look at every HTTP request on the server, ahead of the listeners Colyseus and Express
 * add (Colyseus installs its router as a request listener while it starts listening, so a
 * listener of ours cannot be ordered first): a request one of the gates handles is served by that
 * gate alone; every other request goes on to the server's listeners as usual.
 */
export function installFrontDoor(server: http.Server, gates: Gate[]) {
  const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      const gate = gates.find((g) => g.handles(req));
      if (gate) {
        gate.serve(req, res);
        return true;
      }
    }
    return emit(event, ...args);
  }) as typeof server.emit;
}
