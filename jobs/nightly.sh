#!/usr/bin/env bash
# Winback nightly job: when the config has an `api` block, `winback sync` first (the last 3 days of App Store
# Server Notifications through yesterday, UTC; days already downloaded are skipped); then `winback run` for
# yesterday (in WINBACK_TZ); then, when the config has a `delivery` block, `winback deliver` of the day's
# offers; one nightly at a time, with a dated log.
# Exit code: the run's own (0, 64, 65, 74, 75, 1) — 75 also when another nightly.sh is still running. When the
# sync fails (75 temporary, 76 unexpected response, 77 key refused) the run still reports on the files there
# are, and the script exits with the sync's code if the run itself succeeded; likewise a failed delivery
# (75, 76) is the exit code when the run succeeded.
#
# Environment (all optional):
#   WINBACK_BIN      the winback executable            (default: winback on PATH)
#   WINBACK_CONFIG   the run configuration            (default: /etc/winback/production.json)
#   WINBACK_TZ       report time zone for the as-of    (default: UTC; use the config's report.timeZone)
#   WINBACK_LOG_DIR  where dated logs go               (default: /var/log/winback)
#   WINBACK_AS_OF    override the as-of date (backfill a day: WINBACK_AS_OF=2026-11-03 nightly.sh)
#   WINBACK_SIGNING_KEY_FILE  the In-App Purchase key (read by winback itself)
#   WINBACK_API_KEY_FILE      the App Store Server API key of `winback sync` (read by winback itself)
#   WINBACK_WEBHOOK_SECRET_FILE  the HMAC secret of `winback deliver` (read by winback itself)
#   WINBACK_SYNC_OPTIONS  extra `winback sync` options, e.g. --from 2026-11-01 to backfill a range
#   WINBACK_RUN_OPTIONS  extra `winback run` options, e.g. --no-store to verify every file again
#
# The verified store (config `store`, default `verified/` beside the ledger) makes a night's cost follow
# its new files: unchanged exports are replayed, not verified again. Keep it writable by this job's user
# only; `rm -r` it to start over (the next night verifies everything).
set -euo pipefail

bin=${WINBACK_BIN:-winback}
config=${WINBACK_CONFIG:-/etc/winback/production.json}
log_dir=${WINBACK_LOG_DIR:-/var/log/winback}
as_of=${WINBACK_AS_OF:-$(TZ=${WINBACK_TZ:-UTC} date -d yesterday +%F)}
# node_exporter's textfile-collector directory: each command writes winback-<command>.prom there (docs/operations.md).
metrics_dir=${WINBACK_METRICS_DIR:-}
metrics() { if [ -n "$metrics_dir" ]; then echo "--metrics-file=$metrics_dir/winback-$1.prom"; fi; }

mkdir -p "$log_dir"
log="$log_dir/winback-$as_of.log"

# One nightly at a time; winback also holds <output>/.lock for the run itself.
exec 9>"$log_dir/.nightly.lock"
if ! flock -n 9; then
  echo "$(date -u +%FT%TZ) nightly.sh: another nightly run holds $log_dir/.nightly.lock; exiting 75" | tee -a "$log" >&2
  exit 75
fi

sync_status=0
if grep -q '"api"[[:space:]]*:' "$config"; then
  echo "$(date -u +%FT%TZ) nightly.sh: winback sync --config $config" >>"$log"
  set +e
  # shellcheck disable=SC2086,SC2046  # the options are words to split
  "$bin" sync --config "$config" $(metrics sync) ${WINBACK_SYNC_OPTIONS:-} >>"$log" 2>&1
  sync_status=$?
  set -e
  if [ "$sync_status" -ne 0 ]; then
    echo "$(date -u +%FT%TZ) nightly.sh: winback sync exited $sync_status; running on the files there are" >>"$log"
  fi
fi

echo "$(date -u +%FT%TZ) nightly.sh: winback run --config $config --as-of $as_of" >>"$log"
set +e
# shellcheck disable=SC2086  # the options are words to split
# shellcheck disable=SC2086,SC2046  # the options are words to split
"$bin" run --config "$config" --as-of "$as_of" $(metrics run) ${WINBACK_RUN_OPTIONS:-} >>"$log" 2>&1
status=$?
set -e

# Offers to the marketing tools (SPEC §18): after a published run, when the config has a `delivery` block.
# A failed delivery leaves what was acknowledged recorded; the next night's (or a manual) deliver sends the rest.
deliver_status=0
if [ "$status" -eq 0 ] && grep -q '"delivery"[[:space:]]*:' "$config"; then
  echo "$(date -u +%FT%TZ) nightly.sh: winback deliver --config $config --as-of $as_of" >>"$log"
  set +e
  # shellcheck disable=SC2046  # no flag, or one without spaces
  "$bin" deliver --config "$config" --as-of "$as_of" $(metrics deliver) >>"$log" 2>&1
  deliver_status=$?
  set -e
fi
if [ "$status" -eq 0 ] && [ "$deliver_status" -ne 0 ]; then status=$deliver_status; fi
if [ "$status" -eq 0 ] && [ "$sync_status" -ne 0 ]; then status=$sync_status; fi
echo "$(date -u +%FT%TZ) nightly.sh: exit $status" >>"$log"
exit "$status"
