#!/usr/bin/env bash
# End-to-end timing of `winback run` at nightly scale, with /usr/bin/time -v for wall time and peak RSS.
#
#   Benchmarks/scale-run.sh [DATASET_DIR] [SUBSCRIPTIONS]
#
# Generates DATASET_DIR with `winback sample-data --subscriptions SUBSCRIPTIONS` if it has no
# winback.json yet (1 640 000 subscriptions ≈ 10 M transactions + 1.6 M renewal infos, ≈ 2.5 GB gzip,
# ~17 min on 2 cores), then runs the job once into a fresh output directory and ledger (the dataset's state/), and prints the
# summary line, the time/RSS figures and records per second. Nothing is written to the checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
dataset=${1:-/tmp/winback-scale}
subscriptions=${2:-1640000}
command -v /usr/bin/time >/dev/null || { echo "scale-run: needs GNU time (apt-get install time)" >&2; exit 69; }

swift build -c release --product winback 2>&1 | tail -n 1
bin=$(swift build -c release --show-bin-path)/winback
if [ ! -f "$dataset/winback.json" ]; then
  echo "scale-run: generating $subscriptions subscriptions into $dataset"
  /usr/bin/time -f "sample-data: %e s wall, %M KB peak RSS" "$bin" sample-data --out "$dataset" --subscriptions "$subscriptions" --seed 7
fi
du -sh "$dataset/exports"

out=$(mktemp -d)
log="$out/time.txt"
set +e
rm -rf "$dataset/state"  # a fresh offer ledger, so every run selects and signs the same day from scratch
/usr/bin/time -v -o "$log" "$bin" run --config "$dataset/winback.json" --as-of 2026-11-19 --out "$out/reports" > "$out/summary.json"
status=$?
set -e
cat "$out/summary.json"
# The signature check alone (SHA-256 + ECDSA with the cached leaf key) on 20 000 records like these, to
# report the CPU a record costs beyond it: the median of three runs (one run moves by ±0.5 µs).
for i in 1 2 3; do "$bin" bench --verify 20000 | tail -n 1; done > "$out/verify.json"
grep -E "Elapsed|Maximum resident|User time|System time|Percent of CPU" "$log"
python3 - "$out/summary.json" "$log" "$out/verify.json" <<'PY'
import json, re, sys
summary = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
signatures = sorted(json.loads(line)["signatureMicrosecondsPerRecord"] for line in open(sys.argv[3]).read().strip().splitlines())
signature = signatures[len(signatures) // 2]
text = open(sys.argv[2]).read()
wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (.+)", text).group(1).split(":")
seconds = sum(float(part) * 60 ** i for i, part in enumerate(reversed(wall)))
user = float(re.search(r"User time \(seconds\): ([\d.]+)", text).group(1))
user += float(re.search(r"System time \(seconds\): ([\d.]+)", text).group(1))
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
read = summary["records"]["read"]
print(f"scale-run: {read} records in {seconds:.1f} s = {read / seconds:.0f} records/s end to end; "
      f"{user / read * 1e6:.1f} µs CPU per record (user + system), {user / read * 1e6 - signature:.1f} µs beyond its "
      f"signature check ({signature} µs, median of bench --verify {signatures}); peak RSS {rss / 1024 / 1024:.2f} GiB ({rss * 1024 / 1e9:.2f} GB); "
      f"{summary['subscriptions']} subscriptions")
PY
ls -la "$out/reports/dt=2026-11-19" | awk '{print $5, $9}'
rm -rf "$out"
exit $status
