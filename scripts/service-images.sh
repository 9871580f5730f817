#!/usr/bin/env bash
# `npm run image:services`: the images deploy/compose.yaml runs beside the app, built here from Debian bookworm
# packages as `npm run image` builds the app's (mmdebstrap, then buildah), for a machine that cannot pull from a
# public registry. One root filesystem carries PostgreSQL 15, Redis 7 and nginx (bookworm's packages, with their
# dependencies); three images are made from it, sharing that one layer, each with its own user, command and volume:
#   localhost/laptop-market-postgres:15  PostgreSQL as `postgres`: on an empty /var/lib/postgresql/data it makes
#       the cluster with POSTGRES_USER (a superuser, scram-sha-256 over the network), its POSTGRES_PASSWORD and
#       the database POSTGRES_DB, as the official image does; pg_isready on PATH for the health check.
#   localhost/laptop-market-redis:7      redis-server as `redis` (redis-cli for the health check).
#   localhost/laptop-market-nginx:1.22   nginx, sh and sed (compose fills in deploy/nginx.conf with them).
# Then: POSTGRES_IMAGE=… REDIS_IMAGE=… NGINX_IMAGE=… (printed at the end) for compose. Settings: DEBIAN_MIRROR,
# DEBIAN_SECURITY_MIRROR, IMAGE_CACHE_DIR and IMAGE_ROOTFS_MAX_AGE_HOURS as for `npm run image`; SERVICE_IMAGE_PREFIX
# (localhost/laptop-market). Needs root.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="${SERVICE_IMAGE_PREFIX:-localhost/laptop-market}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
security_mirror="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"

say() { printf '==> %s\n' "$*"; }
die() {
  printf 'npm run image:services: %s\n' "$*" >&2
  exit 1
}
[ "$(id -u)" -eq 0 ] || die 'needs root (mmdebstrap, buildah'"'"'s store): sudo npm run image:services'
for tool in mmdebstrap buildah; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is missing: apt-get install -y mmdebstrap buildah"
done

started=$SECONDS
work="$(mktemp -d "${TMPDIR:-/tmp}/laptop-market-services.XXXXXX")"
ctr=''
cleanup() {
  if [ -n "$ctr" ]; then buildah rm "$ctr" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# PostgreSQL's start: the official image's contract (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, PGDATA).
cat >"$work/postgres-start" <<'EOF'
#!/bin/sh
set -eu
bin=/usr/lib/postgresql/15/bin
PGDATA="${PGDATA:-/var/lib/postgresql/data}"
export PGDATA
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required to make the database}"
  user="${POSTGRES_USER:-postgres}"
  db="${POSTGRES_DB:-$user}"
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  "$bin/initdb" --pgdata="$PGDATA" --username="$user" --pwfile="$pwfile" --encoding=UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  printf 'host all all all scram-sha-256\n' >>"$PGDATA/pg_hba.conf"
  printf "listen_addresses = '*'\n" >>"$PGDATA/postgresql.auto.conf"
  if [ "$db" != postgres ]; then
    printf 'CREATE DATABASE "%s" OWNER "%s";\n' "$db" "$user" | "$bin/postgres" --single -D "$PGDATA" postgres >/dev/null
  fi
  echo "postgres-start: made the database $db for $user in $PGDATA"
fi
if [ "$#" -eq 0 ]; then set -- postgres; fi
# /run is the runtime's own (root's) in a container: the local socket goes to /tmp (PGHOST=/tmp in the image).
if [ "$1" = postgres ]; then shift; exec "$bin/postgres" -D "$PGDATA" -c unix_socket_directories=/tmp "$@"; fi
exec "$@"
EOF
chmod 0755 "$work/postgres-start"

# 1. The root filesystem, cached as `npm run image` caches its own.
step=$SECONDS
mmdebstrap_args=(--quiet --variant=essential --include=postgresql-15,redis-server,redis-tools,nginx-light
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*'
  --dpkgopt='path-exclude=/usr/share/info/*' --dpkgopt='path-exclude=/usr/share/locale/*'
  --dpkgopt='path-exclude=/usr/share/lintian/*'
  # The cluster the package makes on install is not used: the image makes its own in the volume.
  --customize-hook='rm -rf "$1"/etc/postgresql/15 "$1"/var/lib/postgresql/15'
  --customize-hook='mkdir -p "$1"/var/lib/postgresql/data "$1"/run/postgresql && chroot "$1" chown postgres:postgres /var/lib/postgresql/data /run/postgresql && chmod 0700 "$1"/var/lib/postgresql/data'
  --customize-hook='mkdir -p "$1"/data && chroot "$1" chown redis:redis /data'
  --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/* "$1"/var/log/*'
  bookworm)
sources=("deb $mirror bookworm main" "deb $mirror bookworm-updates main" "deb $security_mirror bookworm-security main")
cache_dir="${IMAGE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/laptop-market-image}"
key=$(printf '%s\n' "${mmdebstrap_args[@]}" "${sources[@]}" | sha256sum | cut -c1-16)
cached="$cache_dir/services-rootfs-$key.tar"
max_age_minutes=$((${IMAGE_ROOTFS_MAX_AGE_HOURS:-24} * 60))
if [ "$max_age_minutes" -gt 0 ] && [ -n "$(find "$cached" -mmin "-$max_age_minutes" 2>/dev/null)" ]; then
  say "services root filesystem: reusing $cached"
  rootfs="$cached"
else
  say "services root filesystem (postgresql-15, redis-server, nginx-light): mmdebstrap from $mirror"
  env PATH=/usr/sbin:/usr/bin:/sbin:/bin mmdebstrap "${mmdebstrap_args[@]}" "$work/rootfs.tar" "${sources[@]}"
  mkdir -p "$cache_dir"
  rm -f "$cache_dir"/services-rootfs-*.tar
  cp "$work/rootfs.tar" "$cached.part" && mv "$cached.part" "$cached"
  rootfs="$work/rootfs.tar"
fi
say "root filesystem ready in $((SECONDS - step)) s ($(du -sh "$rootfs" | cut -f1))"

# 2. Three images, one at a time, from the same root filesystem (the same layer, stored once).
base_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
label=(--label "org.opencontainers.image.base.name=debian:bookworm (mmdebstrap --variant=essential)")
build() { # build IMAGE buildah-config-args...
  local image="$1"
  shift
  ctr=$(buildah from --quiet scratch)
  buildah add --quiet "$ctr" "$rootfs" / >/dev/null
  if [[ "$image" == *postgres* ]]; then buildah copy --quiet --chown 0:0 "$ctr" "$work/postgres-start" /usr/local/bin/postgres-start >/dev/null; fi
  buildah config "${label[@]}" "$@" "$ctr"
  buildah commit --quiet --format docker --rm "$ctr" "$image" >/dev/null
  ctr=''
  say "$image: $(buildah images --format '{{.Size}}' "$image" | head -1)"
}
build "$prefix-postgres:15" --user postgres --workingdir /var/lib/postgresql \
  --env PATH=/usr/lib/postgresql/15/bin:$base_path --env PGDATA=/var/lib/postgresql/data --env PGHOST=/tmp \
  --volume /var/lib/postgresql/data --port 5432 --stop-signal SIGINT \
  --entrypoint '["/usr/local/bin/postgres-start"]' --cmd '["postgres"]' \
  --healthcheck 'CMD pg_isready -h 127.0.0.1' --healthcheck-interval 5s --healthcheck-retries 30
build "$prefix-redis:7" --user redis --workingdir /data --env PATH=$base_path --port 6379 \
  --entrypoint '[]' --cmd '["redis-server", "--protected-mode", "no"]' \
  --healthcheck 'CMD redis-cli ping' --healthcheck-interval 5s --healthcheck-retries 30
build "$prefix-nginx:1.22" --env PATH=$base_path --port 8080 --stop-signal SIGQUIT \
  --entrypoint '[]' --cmd '["nginx", "-g", "daemon off;"]'

say "built in $((SECONDS - started)) s. For compose:"
echo "export POSTGRES_IMAGE=$prefix-postgres:15 REDIS_IMAGE=$prefix-redis:7 NGINX_IMAGE=$prefix-nginx:1.22"
