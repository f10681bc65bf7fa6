#!/usr/bin/env bash
# Times a sharded night (SPEC §16) on a dataset made by scale-run.sh: for each N given, the N shards one
# after another, then their merge, each under /usr/bin/time -v; prints wall, CPU and peak RSS per process.
#
#   Benchmarks/shards-run.sh DATASET_DIR [N ...]     (default N: 1 2 4)
#
# Shards run with --no-store; each merge starts from an empty ledger (the dataset's state/ is removed) and
# publishes into $WORK/merged-N; partials and timings go to $WORK (default /tmp/winback-shards-run).
set -euo pipefail
cd "$(dirname "$0")/.."
dataset=${1:?usage: Benchmarks/shards-run.sh DATASET_DIR [N ...]}
shift
counts=("${@:-1 2 4}")
# shellcheck disable=SC2206  # the default is a list of words
counts=(${counts[*]})
work=${WORK:-/tmp/winback-shards-run}
command -v /usr/bin/time >/dev/null || { echo "shards-run: needs GNU time (apt-get install time)" >&2; exit 69; }

swift build -c release --product winback 2>&1 | tail -n 1
bin=$(swift build -c release --show-bin-path)/winback
config="$dataset/winback.json"
mkdir -p "$work"
measure() { # LABEL COMMAND...
  local label=$1
  shift
  /usr/bin/time -v -o "$work/$label.time" "$@" > "$work/$label.out" 2> "$work/$label.err"
  awk -v label="$label" '/Elapsed/{wall=$NF} /User time/{user=$NF} /System time/{sys=$NF} /Maximum resident/{rss=$NF}
    END{printf "%-14s wall %s  cpu %.1f s  peak RSS %.0f MB\n", label, wall, user+sys, rss/1024}' "$work/$label.time"
}
for n in "${counts[@]}"; do
  rm -rf "${work:?}/n$n"
  partials=()
  for ((i = 0; i < n; i++)); do
    partials+=("$work/n$n/shard-$i")
    measure "n$n-shard$i" "$bin" run --config "$config" --as-of 2026-11-19 --shard "$i/$n" --partial "$work/n$n/shard-$i" --no-store
  done
  rm -rf "$dataset/state" "${work:?}/merged-$n"
  measure "n$n-merge" "$bin" merge --config "$config" --as-of 2026-11-19 --out "$work/merged-$n" --partials "${partials[@]}"
done
