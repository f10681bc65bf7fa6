#!/usr/bin/env bash
# Runs a day as N shards and their merge on this machine (SPEC §16) — what jobs/k8s/ does on a cluster.
# The shards run one after another (each uses every core); the merge then publishes <output>/dt=<D>/, the
# same files a single `winback run` publishes (offer signatures aside).
#
# usage: jobs/run-sharded.sh N [extra `winback merge` options, e.g. --out DIR]
# Environment (all optional):
#   WINBACK_BIN       the winback executable                  (default: winback on PATH)
#   WINBACK_CONFIG    the run configuration                   (default: jobs/sample.json beside this script)
#   WINBACK_AS_OF     the as-of date                          (default: yesterday, UTC)
#   WINBACK_PARTIALS  where the partials go (kept afterwards) (default: a temporary directory, removed)
#   WINBACK_SHARD_OPTIONS  extra options of each shard, e.g. --no-store
# Exit code: the first failing shard's, else the merge's.
set -euo pipefail

if [ $# -lt 1 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 N [winback merge options]" >&2
  exit 64
fi
n=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
bin=${WINBACK_BIN:-winback}
config=${WINBACK_CONFIG:-$here/sample.json}
as_of=${WINBACK_AS_OF:-$(date -u -d yesterday +%F)}
if [ -n "${WINBACK_PARTIALS:-}" ]; then
  partials=$WINBACK_PARTIALS
else
  partials=$(mktemp -d)
  trap 'rm -rf "$partials"' EXIT
fi

dirs=()
for ((i = 0; i < n; i++)); do
  dir="$partials/shard-$i"
  dirs+=("$dir")
  # shellcheck disable=SC2086  # the options are words to split
  "$bin" run --config "$config" --as-of "$as_of" --shard "$i/$n" --partial "$dir" --quiet ${WINBACK_SHARD_OPTIONS:-} | tail -n 1 >&2
done
"$bin" merge --config "$config" --as-of "$as_of" "$@" --partials "${dirs[@]}"
