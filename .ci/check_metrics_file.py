"""Reads a --metrics-file with prometheus_client's own parser and checks its counts against the summary line."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

metrics_path, summary_path = sys.argv[1], sys.argv[2]
summary = json.loads(open(summary_path).read())
samples = {}
for family in text_string_to_metric_families(open(metrics_path).read()):
    for sample in family.samples:
        samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value

def value(name, **labels):
    key = (name, tuple(sorted({"command": "run", **labels}.items())))
    if key not in samples:
        sys.exit(f"check_metrics_file: {name}{labels} missing from {metrics_path}")
    return samples[key]

for outcome, field in [("read", "read"), ("accepted", "accepted"), ("rejected", "rejected"), ("duplicate", "duplicates")]:
    got, want = value("winback_records_total", outcome=outcome), summary["records"][field]
    if got != want:
        sys.exit(f"check_metrics_file: winback_records_total{{outcome={outcome}}} = {got}, the summary says {want}")
if value("winback_exit_code") != summary["exitCode"]:
    sys.exit("check_metrics_file: winback_exit_code differs from the summary's exitCode")
if value("winback_last_success_timestamp_seconds") != value("winback_last_run_timestamp_seconds"):
    sys.exit("check_metrics_file: a successful run's last success is not its last run")
phases = sorted(labels["phase"] for (name, labels) in ((n, dict(l)) for n, l in samples) if name == "winback_phase_duration_seconds")
print(f"check_metrics_file: {len(samples)} samples; records {summary['records']['read']} read; phases {', '.join(phases)}")
