#!/usr/bin/env bash
# `bash bench/node-versions.sh [OLD_NODE]`: the same benches on the previous runtime and on the project's, back to
# back on one machine, so their figures can be read side by side. OLD_NODE defaults to the machine's own `node`
# outside node_modules (Node 20 where the project moved from it). Builds the web app once, then for each Node runs
# `bench/run.ts` (what `npm run bench` measures) and `bench/scale.ts --messages 0` (discovery at 1,000 and 100,000
# listings on PostgreSQL; pass BENCH_SCALE_ARGS to change that). Each run's output goes to bench-node-<major>-*.log
# in the current folder as well as the terminal.
set -euo pipefail
cd "$(dirname "$0")/.."
project_node="$PWD/node_modules/.bin/node"
old_node="${1:-$(PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v node_modules | paste -sd:) command -v node)}"
[ -x "$project_node" ] || { echo "run npm ci first: $project_node is missing"; exit 1; }
echo "old: $old_node ($("$old_node" --version)); project: $project_node ($("$project_node" --version))"
PATH="$PWD/node_modules/.bin:$PATH" npm run build >/dev/null
for node in "$old_node" "$project_node"; do
  major=$("$node" -p 'process.versions.node.split(".")[0]')
  bin_dir=$(mktemp -d)
  ln -s "$node" "$bin_dir/node"
  # tsx, and the app instances bench/scale.ts starts through it, take `node` from the PATH.
  for bench in run scale; do
    args=()
    [ "$bench" = scale ] && read -r -a args <<<"${BENCH_SCALE_ARGS:---messages 0}"
    echo "== Node $("$node" --version): bench/$bench.ts ${args[*]:-}"
    PATH="$bin_dir:$PWD/node_modules/.bin:$PATH" node node_modules/tsx/dist/cli.mjs "bench/$bench.ts" "${args[@]}" 2>&1 |
      tee "bench-node-$major-$bench.log"
  done
  rm -rf "$bin_dir"
done
