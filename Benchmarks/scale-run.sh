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
# A fresh offer ledger, so every run selects and signs the same day from scratch; the verified store goes
# too (a cold run) unless WINBACK_WARM=1 keeps it (a warm night: unchanged files replayed).
if [ -n "${WINBACK_WARM:-}" ]; then rm -f "$dataset/state/ledger.sqlite"*; else rm -rf "$dataset/state"; fi
/usr/bin/time -v -o "$log" "$bin" run --config "$dataset/winback.json" --as-of 2026-11-19 --out "$out/reports" > "$out/summary.json" 2> >(tee "$out/stderr.txt" >&2)
status=$?
sleep 1  # let tee finish the copy of stderr
set -e
cat "$out/summary.json"
# The signature check alone (SHA-256 + ECDSA with the cached leaf key) on 20 000 records like these, to
# report the CPU a record costs beyond it: the median of three runs (one run moves by ±0.5 µs).
for i in 1 2 3; do "$bin" bench --verify 20000 | tail -n 1; done > "$out/verify.json"
grep -E "Elapsed|Maximum resident|User time|System time|Percent of CPU" "$log"
python3 - "$out/summary.json" "$log" "$out/verify.json" "$out/stderr.txt" <<'PY'
import json, re, sys
summary = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
benches = [json.loads(line) for line in open(sys.argv[3]).read().strip().splitlines()]
signatures = sorted(bench["signatureMicrosecondsPerRecord"] for bench in benches)
signature = signatures[len(signatures) // 2]
# The same check timed on every core at once (CPU seconds), as the run's cores work: the floor under the
# same sharing of caches and memory.
shared = sorted(bench["signatureCPUMicrosecondsPerRecordAllCores"] for bench in benches)
shared_signature = shared[len(shared) // 2]
text = open(sys.argv[2]).read()
wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (.+)", text).group(1).split(":")
seconds = sum(float(part) * 60 ** i for i, part in enumerate(reversed(wall)))
user = float(re.search(r"User time \(seconds\): ([\d.]+)", text).group(1))
user += float(re.search(r"System time \(seconds\): ([\d.]+)", text).group(1))
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
read = summary["records"]["read"]
# The run's own estimate of its signature checks' CPU where they ran (SignatureClock: one check in 64 timed).
in_place = re.search(r"phase=ingest .*signature_cpu_seconds=([\d.]+)", open(sys.argv[4]).read())
in_place = float(in_place.group(1)) / summary["records"]["read"] * 1e6 if in_place else None
print(f"scale-run: {read} records in {seconds:.1f} s = {read / seconds:.0f} records/s end to end; "
      f"{user / read * 1e6:.1f} µs CPU per record (user + system), {user / read * 1e6 - signature:.1f} µs beyond its "
      f"signature check ({signature} µs, median of bench --verify {signatures}); "
      f"{user / read * 1e6 - shared_signature:.1f} µs beyond it timed on all cores at once ({shared_signature} µs, {shared}); "
      + (f"{user / read * 1e6 - in_place:.1f} µs beyond it as timed inside the run ({in_place:.1f} µs); " if in_place else "")
      + f"peak RSS {rss / 1024 / 1024:.2f} GiB ({rss * 1024 / 1e9:.2f} GB); "
      f"{summary['subscriptions']} subscriptions")
PY
ls -la "$out/reports/dt=2026-11-19" | awk '{print $5, $9}'
rm -rf "$out"
exit $status
