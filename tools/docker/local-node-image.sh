#!/usr/bin/env bash
# Builds a local stand-in for the public image node:20-slim where no image registry is
# reachable (CI here): Debian bookworm from Debian's own packages (debootstrap, minbase)
# with this machine's Node.js and npm in /usr/local, and a `node` user (uid 1000), as the
# public image has them. It also carries this machine's CA certificates (NODE_EXTRA_CA_CERTS),
# so that npm inside a build reaches the registry through whatever this machine's own npm
# trusts (here, a proxy that re-signs TLS). The Dockerfile `encore-selfhost build` writes keeps the public
# image as its default; this only gives that name something to resolve to.
#
#   tools/docker/local-node-image.sh [tag]      (default node:20-slim; skipped when present)
set -euo pipefail
tag="${1:-node:20-slim}"
if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "$tag is present"
  exit 0
fi
node_major="$(node -p 'process.versions.node.split(".")[0]')"
case "$tag" in
  node:"$node_major"*) ;;
  *) echo "this machine has Node.js $node_major, which cannot stand in for $tag" >&2; exit 1 ;;
esac

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
node_bin="$(readlink -f "$(command -v node)")"
npm_dir="$(npm root -g)/npm"
install -D -m 0755 "$node_bin" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
chroot "$root" /usr/sbin/groupadd --gid 1000 node
chroot "$root" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
# What a slim image leaves out: package lists, documentation, caches.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/*
tar -C "$root" -c . | docker import \
  --change 'ENV NODE_VERSION='"$(node -p process.versions.node)" \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$tag" >/dev/null
echo "built $tag: Debian bookworm (debootstrap) with Node.js $(node -v) from this machine"
