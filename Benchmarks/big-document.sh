#!/usr/bin/env bash
# One 200 MB Get Transaction History document against the same records as NDJSON (SPEC §23): wall time,
# records/s and peak RSS of `winback verify` on each, alternating, three times.
# Usage: Benchmarks/big-document.sh [WORKDIR]   (needs a release build and python3)
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/tmp/winback-big-document}
bin=.build/release/winback
mkdir -p "$work"
[ -d "$work/sample" ] || "$bin" sample-data --out "$work/sample" --subscriptions 15000 >/dev/null
python3 - "$work" <<'PY'
import gzip, json, os, sys
work = sys.argv[1]
jws = []
for part in ("part-0", "part-1"):
    for line in gzip.open(f"{work}/sample/exports/transactions/{part}.ndjson.gz", "rt"):
        record = json.loads(line)
        if "signedTransactionInfo" in record:
            jws.append(record["signedTransactionInfo"])
chosen, total = [], 0
while total < 210_000_000:
    chosen.append(jws[len(chosen) % len(jws)])
    total += len(chosen[-1]) + 3
for name in ("doc", "ndjson"):
    os.makedirs(f"{work}/{name}/in", exist_ok=True)
with open(f"{work}/doc/in/history.json", "w") as f:
    f.write('{"revision":"r","signedTransactions":[' + ",".join(f'"{j}"' for j in chosen) + '],"hasMore":false}')
with open(f"{work}/ndjson/in/history.ndjson", "w") as f:
    f.writelines(f'{{"signedTransactionInfo":"{j}"}}\n' for j in chosen)
for name in ("doc", "ndjson"):
    with open(f"{work}/{name}/config.json", "w") as f:
        json.dump({"app": {"bundleId": "com.example.winback", "appAppleId": 1234567890, "environment": "Production"},
                   "inputs": ["in/*"], "trust": {"rootCertificates": [f"{work}/sample/certs/TEST-ONLY-root.pem"]},
                   "report": {"timeZone": "UTC", "gracePeriodDays": 16, "maxRejectRate": 0.01},
                   "ledger": "state/ledger.sqlite", "output": "out", "campaigns": []}, f)
print(f"{len(chosen)} records, document {os.path.getsize(f'{work}/doc/in/history.json')} bytes")
PY
for _ in 1 2 3; do
  for name in ndjson doc; do
    /usr/bin/time -f "$name: wall %e s, user %U s, peak RSS %M KB" "$bin" verify --config "$work/$name/config.json" --quiet \
      2>&1 >/dev/null | tail -n 1
  done
done
