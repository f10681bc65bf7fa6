#!/usr/bin/env bash
# Load on `winback serve` (SPEC §19, issue 40): 1.6 M decisions loaded, requests signed by a PKI of the
# client's own (Benchmarks/serve_load.py, Python `cryptography`), sent at a constant rate from this machine.
# Prints the server's memory with the decisions loaded, the 500 requests/s × 60 s run, then rising rates
# (20 s each) until p99 passes 100 ms or errors appear, and the server's summary after SIGTERM.
#
#   Benchmarks/serve-load.sh [DECISIONS]      (default 1600000; work files in $WORK, default /tmp/winback-serve-load)
set -euo pipefail
cd "$(dirname "$0")/.."
decisions=${1:-1600000}
work=${WORK:-/tmp/winback-serve-load}
python3 -c "import cryptography" 2>/dev/null || python3 -m pip install --quiet cryptography
swift build -c release --product winback 2>&1 | tail -n 1
bin=$(swift build -c release --show-bin-path)/winback
rm -rf "$work"
python3 Benchmarks/serve_load.py setup "$work" --decisions "$decisions" --sample-key "$PWD/sample-data/keys/SubscriptionKey_TESTKEY001.p8"
chmod 600 sample-data/keys/SubscriptionKey_TESTKEY001.p8
port=${PORT:-18080}
"$bin" serve --config "$work/config.json" --port "$port" > "$work/serve.out" 2> "$work/serve.err" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q listening "$work/serve.out" 2>/dev/null && break; sleep 0.2; done
head -n 1 "$work/serve.out"
rss() { awk '/VmRSS/{printf "%.0f MB", $2/1024}' "/proc/$server/status"; }
echo "server RSS with $decisions decisions loaded: $(rss)"
url="http://127.0.0.1:$port"
python3 Benchmarks/serve_load.py run "$url" "$work" --rate 500 --seconds 60
for rate in 1000 2000 3000 4000 6000 8000; do
  line=$(python3 Benchmarks/serve_load.py run "$url" "$work" --rate "$rate" --seconds 20)
  echo "$line"
  python3 -c 'import json,sys; r=json.loads(sys.argv[1]); sys.exit(0 if r["errors"] == 0 and r["p99ms"] < 100 else 1)' "$line" || break
done
echo "server RSS after the load: $(rss)"
kill -TERM "$server"
wait "$server" || true
trap - EXIT
tail -n 1 "$work/serve.out"
