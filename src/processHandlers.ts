import type { Logger } from "pino";

/**
 * The process's own last-resort handlers, so that nothing is ever printed outside the logger:
 * - an unhandled promise rejection is logged at error (with its stack, inside the JSON line) and
 *   the server keeps running: it is a fault in one piece of work, not in the process;
 * - an uncaught exception is logged at fatal and `onFatal` is called (the server shuts down
 *   gracefully and exits 1: after an exception nobody caught the process's state is unknown).
 * Either way Node prints nothing itself (listeners replace its default printing).
 */
export function installProcessHandlers(logger: Logger, onFatal: (err: unknown) => void) {
  const onRejection = (reason: unknown) => {
    logger.error({ err: reason }, "unhandled promise rejection");
  };
  let fatal = false;
  const onException = (err: unknown, origin: string) => {
    logger.fatal({ err, origin }, "uncaught exception");
    // A second one while shutting down is logged, not acted on again.
    if (fatal) return;
    fatal = true;
    onFatal(err);
  };
  process.on("unhandledRejection", onRejection);
  process.on("uncaughtException", onException);
  return () => {
    process.off("unhandledRejection", onRejection);
    process.off("uncaughtException", onException);
  };
}
