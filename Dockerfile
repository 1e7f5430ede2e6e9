# The game server's image: `npm start`'s server (src/launch.mjs) on Node 20, as the non-root user
# `node`, with what a first start would otherwise make made here: the packages from
# package-lock.json, the Prisma client, the embedded database's migrated template and the server's
# bundle.
#
#   docker build -t arena-world .
#   docker run -d -p 5555:5555 -v arena-data:/data -e NODE_ENV=development arena-world   # one container, embedded database
#   docker compose up -d --build                                                          # the cluster of compose.yaml
#
# docs/DEPLOYMENT.md ("Containers") walks through it: the variables, /data, the health check and
# what a stop does. (RUN --mount needs BuildKit: Docker 23 and later, or podman/buildah.)

# ---- deps: the packages, then the Prisma client. Only package.json, the lock, .npmrc and the Prisma
# schema come in first, so a change to the sources keeps both steps (and their downloads) cached.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
ENV CHECKPOINT_DISABLE=1 PRISMA_HIDE_UPDATE_MESSAGE=1 npm_config_update_notifier=false
COPY package.json package-lock.json .npmrc ./
# The dependencies' install scripts are not run (package.json's allowScripts denies them all, and
# the base image's npm may predate allowScripts); the project's own postinstall runs below, in its
# two halves. npm's downloads are kept in a cache mount from one build to the next. (npm 10 can end
# a failed install with "Exit handler never called!" and status 0: the check fails the step then,
# rather than an empty node_modules being cached.)
RUN --mount=type=cache,id=arena-npm,target=/root/.npm,sharing=locked \
    npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error \
 && node -e 'for (const p of ["prisma", "tsx", "esbuild", "@colyseus/core"]) require.resolve(p + "/package.json")'
# The postinstall's first half: the Prisma client (no engine is downloaded: prisma.config.ts).
COPY prisma.config.ts ./
COPY prisma/schema.prisma prisma/
RUN node_modules/.bin/prisma generate --no-hints

# ---- build: the postinstall's second half, the embedded database's migrated template (a new data
# folder starts as a copy of it), and src/launch.mjs's bundle of the server, both kept under
# node_modules/.cache/arena-world/. The bundle is named for a hash of the sources and the lock; the
# image holds the same files, so `npm start` finds it and bundles nothing. (The web client is
# bundled in memory by the server on its first request for /client/main.js: nothing to make here.)
FROM deps AS build
COPY . .
RUN node_modules/.bin/tsx src/db/templateCli.ts \
 && node --input-type=module -e 'const { bundle } = await import("./src/launch.mjs"); console.log("server bundle:", await bundle());'

# ---- the image: the installed packages as they are (not copied again), the build's cache, the sources.
FROM deps
ENV NODE_ENV=production \
    PORT=5555 \
    DATA_DIR=/data
# What the server makes and keeps is its own (it copies the template into a new data folder, and
# makes a new bundle or template when one does not fit); the code stays root's, read only to it.
COPY --from=build --chown=node:node /app/node_modules/.cache ./node_modules/.cache
COPY . .
# The server writes to the data folder and to the world's manifests (refreshed from PUBLIC_CDN_URL
# at a production start).
RUN mkdir -p /data && chown -R node:node /data /app/world
USER node
VOLUME ["/data"]
EXPOSE 5555
# /health answers 200 once the database is open and the world made (503 while starting, or degraded).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 5555) + '/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) makes the server save every player, close the database and exit 0, within
# 25 s: give it 30 (`docker stop -t 30`; compose.yaml's stop_grace_period). Node is the container's
# main process (exec form, which the base image's entrypoint execs), not a child of npm or a shell,
# so the signal reaches it; `--init` (compose: `init: true`) puts a minimal init in front of it.
STOPSIGNAL SIGTERM
CMD ["node", "src/launch.mjs"]
