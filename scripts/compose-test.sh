#!/usr/bin/env bash
# `npm run test:compose`: deploy/compose.yaml brought up with podman-compose on this machine, from local images
# only (the app's, `npm run image`; PostgreSQL, Redis and nginx from Debian packages, `npm run image:services`;
# either is built when missing), then the cluster journey (cluster/compose-journey.ts) run through it: sign-ups,
# a shared session, listing, search on both instances and through nginx, a booking and a payment. Everything it
# made (containers, volumes, network) is removed at the end, passed or failed.
# podman-compose 1.0.3 (Debian bookworm) starts services in order but does not wait for depends_on conditions,
# and podman's health checks need systemd: so the services come up in the order compose.yaml's conditions say,
# one `up -d --no-deps` at a time, each waited for here (pg_isready, redis-cli ping, the migrate container's exit
# code, /api/health). nginx is published on 127.0.0.1:COMPOSE_TEST_PORT (4182); the journey reaches the two
# instances and PostgreSQL at their addresses on the compose network (a bridge, netavark).
# Skips with a banner (exit 0) without root, podman or podman-compose; COMPOSE_TEST=require fails instead.
set -euo pipefail
cd "$(dirname "$0")/.."

port="${COMPOSE_TEST_PORT:-4182}"
project="laptop-market-compose-test-$$"
say() { printf '==> %s\n' "$*"; }
skip() {
  printf '\n#  COMPOSE TEST SKIPPED: %s\n\n' "$*"
  if [ "${COMPOSE_TEST:-}" = require ]; then exit 1; fi
  exit 0
}
fail() {
  printf 'compose test FAILED: %s\n' "$*" >&2
  for c in $(podman ps -a --filter "label=io.podman.compose.project=$project" --format '{{.Names}}' 2>/dev/null); do
    echo "--- $c, last log lines:" >&2
    podman logs --tail 15 "$c" >&2 2>&1 || true
  done
  exit 1
}

[ "$(id -u)" -eq 0 ] || skip 'needs root (podman runs as root here)'
for tool in podman podman-compose runc; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool is missing (apt-get install -y podman podman-compose runc)"
done
# podman here, as scripts/image-test.sh sets it up: runc, cgroupfs, no default ulimits.
if [ -z "${CONTAINERS_CONF:-}" ]; then
  conf_dir="$(mktemp -d "${TMPDIR:-/tmp}/laptop-market-containers.XXXXXX")"
  printf '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\n' >"$conf_dir/containers.conf"
  export CONTAINERS_CONF="$conf_dir/containers.conf"
fi
export PATH="$PWD/node_modules/.bin:$PATH"

export LAPTOP_MARKET_IMAGE="${LAPTOP_MARKET_IMAGE:-localhost/laptop-market:latest}"
export POSTGRES_IMAGE="${POSTGRES_IMAGE:-localhost/laptop-market-postgres:15}"
export REDIS_IMAGE="${REDIS_IMAGE:-localhost/laptop-market-redis:7}"
export NGINX_IMAGE="${NGINX_IMAGE:-localhost/laptop-market-nginx:1.22}"
export AUTH_SECRET="compose-test-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export POSTGRES_PASSWORD="$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export PUBLIC_URL="http://127.0.0.1:$port" HTTP_PORT="$port"
# The journey's laptop goes straight to search (a new seller's first listings wait for review by default).
export LISTING_REVIEW_FIRST=0
compose=(podman-compose -f deploy/compose.yaml -p "$project")

up_log="$(mktemp "${TMPDIR:-/tmp}/$project.XXXXXX")"
cleanup() {
  # The containers with their anonymous volumes (the app image's /data in migrate), which podman-compose 1.0.3's
  # `down -v` leaves behind; then the project's named volumes and its network.
  for c in $(podman ps -a -q --filter "label=io.podman.compose.project=$project" 2>/dev/null); do
    podman rm -f -v -t 0 "$c" >/dev/null 2>&1 || true
  done
  "${compose[@]}" down -v >/dev/null 2>&1 || true
  for v in postgres-data app1-data app2-data; do podman volume rm -f "${project}_$v" >/dev/null 2>&1 || true; done
  podman network rm -f "${project}_default" >/dev/null 2>&1 || true
  rm -f "$up_log"
  if [ -n "${conf_dir:-}" ]; then rm -rf "$conf_dir"; fi
}
trap cleanup EXIT

started=$SECONDS
podman image exists "$LAPTOP_MARKET_IMAGE" || IMAGE="$LAPTOP_MARKET_IMAGE" bash scripts/image.sh
for image in "$POSTGRES_IMAGE" "$REDIS_IMAGE" "$NGINX_IMAGE"; do
  podman image exists "$image" || {
    bash scripts/service-images.sh
    break
  }
done
say "images ready in $((SECONDS - started)) s"

up() { "${compose[@]}" up -d --no-deps "$@" >"$up_log" 2>&1 || fail "up $*: $(tail -5 "$up_log")"; }
name() { printf '%s_%s_1' "$project" "$1"; }
address() { podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(name "$1")"; }
wait_for() { # wait_for WHAT SECONDS COMMAND...
  local what="$1" limit="$2" from=$SECONDS
  shift 2
  until "$@" >/dev/null 2>&1; do
    [ $((SECONDS - from)) -lt "$limit" ] || fail "$what: not within $limit s"
    sleep 1
  done
  say "$what after $((SECONDS - from)) s"
}

up_started=$SECONDS
up postgres redis
wait_for 'postgres: pg_isready' 90 podman exec "$(name postgres)" pg_isready -U laptop_market -d laptop_market
wait_for 'redis: PONG' 60 podman exec "$(name redis)" redis-cli ping
up migrate
code=$(podman wait "$(name migrate)")
[ "$code" = 0 ] || fail "migrate exited with $code"
say "migrate: $(podman logs "$(name migrate)" 2>&1 | tail -1)"
up app1 app2
A="http://$(address app1):3000"
B="http://$(address app2):3000"
wait_for "app1 ($A): /api/health 200" 180 curl -fsS -o /dev/null "$A/api/health"
wait_for "app2 ($B): /api/health 200" 180 curl -fsS -o /dev/null "$B/api/health"
up nginx
wait_for "nginx ($PUBLIC_URL): /api/health 200" 60 curl -fsS -o /dev/null "$PUBLIC_URL/api/health"
say "the stack is up in $((SECONDS - up_started)) s: $(podman ps --filter "label=io.podman.compose.project=$project" --format '{{.Names}}' | tr '\n' ' ')"

say 'the cluster journey through it'
JOURNEY_A="$A" JOURNEY_B="$B" JOURNEY_LB="$PUBLIC_URL" \
  JOURNEY_DATABASE_URL="postgres://laptop_market:$POSTGRES_PASSWORD@$(address postgres):5432/laptop_market" \
  node --import tsx cluster/compose-journey.ts || fail 'the journey failed'
say "compose test passed in $((SECONDS - started)) s"
