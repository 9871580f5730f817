#!/usr/bin/env bash
# `npm run test:image`: builds the production image (scripts/image.sh) and runs it with podman as production does:
# read-only root filesystem, no tmpfs, one data volume. Checks that the migrations run as a one-shot container,
# /api/health answers from the container, a seller lists a laptop, a buyer signs in and a search finds the laptop,
# the server runs as the non-root user `app`, a write anywhere but the volume fails and one to the volume succeeds,
# the image's HEALTHCHECK passes, and `podman stop` (SIGTERM) drains and exits with 0.
# A machine that cannot build or run containers (not root, no podman/buildah/mmdebstrap, podman unable to start
# one) skips it with a banner and exit 0; IMAGE_TEST=skip skips it on purpose, IMAGE_TEST=require fails instead.
# Containers run with --network=host (this machine's podman has no other working network); the server listens
# on IMAGE_TEST_PORT (4136).
set -euo pipefail
cd "$(dirname "$0")/.."

port="${IMAGE_TEST_PORT:-4136}"
image="${IMAGE:-localhost/laptop-market:test}"
export IMAGE="$image"
name="laptop-market-image-test-$$"
base="http://127.0.0.1:$port"
secret="image-test-secret-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"

say() { printf '==> %s\n' "$*"; }
skip() {
  printf '\n%s\n' '################################################################################'
  printf '#  IMAGE TEST SKIPPED: %s\n' "$*"
  printf '%s\n\n' '################################################################################'
  if [ "${IMAGE_TEST:-}" = require ]; then exit 1; fi
  exit 0
}
fail() {
  printf 'image test FAILED: %s\n' "$*" >&2
  if [ -n "${started_container:-}" ]; then
    echo '--- the container'"'"'s last log lines:' >&2
    podman logs --tail 30 "$name" >&2 2>&1 || true
  fi
  exit 1
}
passed() { printf '  ok  %s\n' "$*"; }

[ "${IMAGE_TEST:-}" != skip ] || skip 'IMAGE_TEST=skip'
[ "$(id -u)" -eq 0 ] || skip 'needs root (mmdebstrap, buildah and podman run as root here)'
for tool in podman buildah mmdebstrap runc; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool is missing (apt-get install -y podman buildah mmdebstrap runc)"
done
# podman here: the runc runtime, cgroupfs, no default ulimits (crun and systemd's cgroups refuse on these machines).
if [ -z "${CONTAINERS_CONF:-}" ]; then
  conf_dir="$(mktemp -d "${TMPDIR:-/tmp}/laptop-market-containers.XXXXXX")"
  printf '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\n' >"$conf_dir/containers.conf"
  export CONTAINERS_CONF="$conf_dir/containers.conf"
fi
export PATH="$PWD/node_modules/.bin:$PATH"
if node -e "const s=require('net').connect($port,'127.0.0.1');s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1))"; then
  fail "something already answers on 127.0.0.1:$port (IMAGE_TEST_PORT)"
fi

cleanup() {
  podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
  podman volume rm -f "$name" >/dev/null 2>&1 || true
  if [ -n "${conf_dir:-}" ]; then rm -rf "$conf_dir"; fi
}
trap cleanup EXIT

build_started=$SECONDS
if [ "${IMAGE_TEST_REUSE:-}" = 1 ]; then
  say "IMAGE_TEST_REUSE=1: testing $image as it is"
else
  bash scripts/image.sh
fi
build_seconds=$((SECONDS - build_started))
say "image built in $build_seconds s"

run=(podman run --network=host --read-only --read-only-tmpfs=false -v "$name:/data"
  -e AUTH_SECRET="$secret" -e PUBLIC_URL="$base" -e PORT="$port")
if ! podman run --rm --network=host --entrypoint /bin/true "$image" 2>"${TMPDIR:-/tmp}/$name.probe"; then
  skip "podman cannot start a container on this machine: $(tail -1 "${TMPDIR:-/tmp}/$name.probe")"
fi
rm -f "${TMPDIR:-/tmp}/$name.probe"
podman volume create "$name" >/dev/null

say 'the image as built'
user=$(podman image inspect --format '{{.Config.User}}' "$image")
[ "$user" = 10001:10001 ] || fail "the image's user is '$user', not 10001:10001"
passed "runs as 10001:10001 (app), not root"
podman image inspect --format '{{json .Config.Healthcheck}}' "$image" | grep -q healthcheck.mjs ||
  fail 'the image has no HEALTHCHECK'
passed "HEALTHCHECK: $(podman image inspect --format '{{join .Config.Healthcheck.Test " "}}' "$image")"
[ "$(podman image inspect --format '{{.Config.StopSignal}}' "$image")" = SIGTERM ] || fail 'stop signal is not SIGTERM'
passed 'stops with SIGTERM'

say 'migrations as a one-shot container (what compose'"'"'s migrate service runs)'
"${run[@]}" --rm --no-healthcheck "$image" dist/app/migrate-cli.js | tail -1
passed 'dist/app/migrate-cli.js applied the migrations into the volume'
# A production database starts without brands (the operator adds them); one for the listing below.
brand=$("${run[@]}" --rm --no-healthcheck "$image" --input-type=module -e "
  import { PGlite } from '@electric-sql/pglite'
  import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
  const db = await PGlite.create('/data/pg', { extensions: { pg_trgm } })
  const r = await db.query(\"insert into brands (name, image_url) values ('Image Brand', 'https://images.example.com/b.png') returning id\")
  console.log(r.rows[0].id)
  await db.close()" | tail -1)
[ -n "$brand" ] || fail 'could not add a brand'

say "the server: $image on 127.0.0.1:$port, read-only, /data the only volume"
"${run[@]}" -d --name "$name" -e LISTING_REVIEW_FIRST=0 -e SHUTDOWN_DELAY_MS=500 "$image" >/dev/null
started_container=1
boot_started=$SECONDS
until [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/api/health")" = 200 ]; do
  [ "$(podman inspect --format '{{.State.Running}}' "$name")" = true ] || fail 'the container stopped'
  [ $((SECONDS - boot_started)) -lt 180 ] || fail '/api/health did not answer 200 within 180 s'
  sleep 1
done
passed "/api/health answers 200 from the container after $((SECONDS - boot_started)) s: $(curl -s "$base/api/health")"

# JSON out of an answer: json 'expression on b' < body
json() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const b=JSON.parse(s);console.log($1)})"; }
jar="$(mktemp)"
cookies=("$jar")
trap 'rm -f "${cookies[@]}"; cleanup' EXIT
post() { # post COOKIEJAR PATH JSON
  curl -s -o "$1.body" -w '%{http_code}' -c "$1" -b "$1" -H "origin: $base" -H 'content-type: application/json' \
    -X POST "$base$2" --data "$3"
}
password='Ultra-violet-image-42'

seller="$(mktemp)"
cookies+=("$seller" "$seller.body" "$jar.body")
status=$(post "$seller" /api/auth/sign-up/email \
  "{\"name\":\"Image Seller\",\"email\":\"seller-$$@image.test\",\"password\":\"$password\",\"role\":\"seller\"}")
[ "$status" = 200 ] || fail "seller sign-up answered $status: $(cat "$seller.body")"
status=$(post "$seller" /api/products "{\"name\":\"Image Searchable Laptop\",\"category_id\":\"$brand\",
  \"seller_phone\":\"(512) 555-0142\",\"resale_price\":649.5,\"original_price\":1299,
  \"description\":\"Fully working, light marks on the lid, battery at 88% of design capacity.\",
  \"condition\":\"Excellent\",\"location\":\"Austin, TX\",\"uses\":2,\"processor\":\"Intel Core i7-1185G7\",
  \"ram_gb\":16,\"storage_gb\":512,\"screen_inches\":13.4,\"img\":\"/images/laptop-placeholder.svg\"}")
[ "$status" = 201 ] || fail "listing a laptop answered $status: $(cat "$seller.body")"
listing=$(json b.insertedId <"$seller.body")
passed "a seller signed up and listed a laptop ($listing)"

status=$(post "$jar" /api/auth/sign-up/email \
  "{\"name\":\"Image Buyer\",\"email\":\"buyer-$$@image.test\",\"password\":\"$password\",\"role\":\"buyer\"}")
[ "$status" = 200 ] || fail "buyer sign-up answered $status: $(cat "$jar.body")"
: >"$jar"
status=$(post "$jar" /api/auth/sign-in/email "{\"email\":\"buyer-$$@image.test\",\"password\":\"$password\"}")
[ "$status" = 200 ] || fail "sign-in answered $status: $(cat "$jar.body")"
grep -q . "$jar" || fail 'sign-in set no cookie'
session=$(curl -s -b "$jar" "$base/api/auth/get-session")
[ "$(printf '%s' "$session" | json 'b && b.user && b.user.email')" = "buyer-$$@image.test" ] ||
  fail "the signed-in session is not the buyer's: $session"
passed 'a buyer signed in (email and password) and the session is theirs'

found=no
for _ in $(seq 1 50); do
  if curl -s -b "$jar" "$base/api/search?brand=$brand&sort=newest&page_size=50" |
    json "b.items.some((p) => p._id === '$listing')" | grep -q true; then
    found=yes
    break
  fi
  sleep 0.2
done
[ "$found" = yes ] || fail "search by brand does not find the listed laptop"
passed 'a search finds the laptop'

say 'inside the container'
[ "$(podman exec "$name" id -u)" = 10001 ] || fail "the server does not run as 10001: $(podman exec "$name" id)"
passed "id: $(podman exec "$name" id)"
for target in /probe /app/probe /tmp/probe /etc/probe; do
  if podman exec "$name" sh -c "echo x > $target" 2>/dev/null; then fail "writing $target succeeded"; fi
done
passed 'a write to /, /app, /tmp or /etc fails (read-only root filesystem)'
podman exec "$name" sh -c 'echo x > /data/probe && rm /data/probe' || fail 'writing to /data failed'
passed 'a write to the volume /data succeeds'
# As the runtime does: unhealthy only after the image's retries (3) all fail (a loaded machine starts Node slowly).
healthy=no
for attempt in 1 2 3; do
  if podman healthcheck run "$name" >/dev/null; then
    healthy=yes
    break
  fi
done
[ "$healthy" = yes ] || fail "the image's HEALTHCHECK fails 3 times in a row"
passed "podman healthcheck run: healthy (attempt $attempt)"

say 'graceful stop'
stop_started=$SECONDS
podman stop -t 20 "$name" >/dev/null
code=$(podman inspect --format '{{.State.ExitCode}}' "$name")
[ "$code" = 0 ] || fail "podman stop: exit code $code"
podman logs "$name" 2>&1 | grep -q 'SIGTERM: closed' || fail 'the log does not say the server drained and closed'
passed "podman stop (SIGTERM): drained, closed, exit code 0 in $((SECONDS - stop_started)) s"

size=$(podman image inspect --format '{{.Size}}' "$image")
say "image test passed: $image, $((size / 1000000)) MB, built in $build_seconds s"
