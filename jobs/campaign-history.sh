#!/usr/bin/env bash
# Builds the sample's campaign history: runs the sample job on the weekly days the sample data was made
# for (2026-10-01 … 2026-11-12), then on 2026-11-19, into the config's output and ledger. The last day's
# campaign_outcomes.csv.gz and report.html then measure each earlier selection against its holdout.
# Usage (from the repository root): jobs/campaign-history.sh [config [winback run options…]]
#   config defaults to jobs/sample.json; WINBACK_BIN names a built winback (default: a release build).
set -euo pipefail
config=${1:-jobs/sample.json}
shift || true
bin=${WINBACK_BIN:-}
if [ -z "$bin" ]; then
  swift build -c release --product winback >/dev/null
  bin=.build/release/winback
fi
for day in 2026-10-01 2026-10-08 2026-10-15 2026-10-22 2026-10-29 2026-11-05 2026-11-12 2026-11-19; do
  "$bin" run --config "$config" --as-of "$day" --quiet "$@"
done
