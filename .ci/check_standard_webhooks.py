#!/usr/bin/env python3
"""`winback deliver` against a receiver that verifies every request with the official `standardwebhooks` library
(and answers 400 to any it cannot verify): the sample day's offers with a `whsec_` secret, every batch accepted.

usage: check_standard_webhooks.py WINBACK_BIN
"""
import base64
import json
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from standardwebhooks.webhooks import Webhook

ROOT = Path(__file__).resolve().parent.parent
BINARY = sys.argv[1]
SECRET = "whsec_" + base64.b64encode(b"winback-ci-standard-webhooks-key!").decode()
verified, refused = [], []


class Receiver(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        try:
            payload = Webhook(SECRET).verify(body, {key.lower(): value for key, value in self.headers.items()})
            verified.append((self.headers["webhook-id"], payload))
            status = 200
        except Exception as error:  # the library's WebhookVerificationError, or a body that is not JSON
            refused.append(f"{self.headers.get('webhook-id')}: {error}")
            status = 400
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()


server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
threading.Thread(target=server.serve_forever, daemon=True).start()
with tempfile.TemporaryDirectory() as temporary:
    directory = Path(temporary)
    text = (ROOT / "jobs/sample.json").read_text().replace("../sample-data", str(ROOT / "sample-data"))
    text = text.replace('"../state/ledger.sqlite"', '"state/ledger.sqlite"').replace('"../out"', '"out"')
    delivery = (
        '"delivery": { "events": ["offers", "subscription.auto_renew_disabled", "subscription.billing_issue", '
        '"subscription.expired", "subscription.refunded", "subscription.reactivated"], '
        f'"webhook": {{ "url": "http://127.0.0.1:{server.server_address[1]}/hooks/winback", '
        f'"secretFile": "webhook.secret", "batchSize": 20 }} }},'
    )
    (directory / "config.json").write_text(text.replace('"ledger":', delivery + "\n  " + '"ledger":', 1))
    (directory / "webhook.secret").write_text(SECRET + "\n")
    (directory / "webhook.secret").chmod(0o600)
    config = str(directory / "config.json")
    run = subprocess.run([BINARY, "run", "--config", config, "--as-of", "2026-11-19", "--quiet", "--no-store"], capture_output=True)
    if run.returncode != 0:
        sys.exit(f"check_standard_webhooks: winback run exited {run.returncode}")
    deliver = subprocess.run([BINARY, "deliver", "--config", config, "--as-of", "2026-11-19"], capture_output=True, text=True)
    server.shutdown()
    if refused:
        sys.exit("check_standard_webhooks: refused by the standardwebhooks library: " + "; ".join(refused[:5]))
    if deliver.returncode != 0:
        sys.exit(f"check_standard_webhooks: winback deliver exited {deliver.returncode}: {deliver.stderr[-300:]}")
    summary = json.loads(deliver.stdout.strip().splitlines()[-1])
    offers = sum(len(payload.get("offers", [])) for _, payload in verified)
    events = sum(len(payload.get("events", [])) for _, payload in verified)
    published = subprocess.run(["gzip", "-dc", str(directory / "out/dt=2026-11-19/lifecycle_events.ndjson.gz")], capture_output=True, text=True)
    ids = [json.loads(line)["id"] for line in published.stdout.splitlines()]
    sent = [event["id"] for _, payload in verified for event in payload.get("events", [])]
    typed = all(
        (p["type"] == "offers.selected") == ("offers" in p) and (p["type"].startswith("subscription.") == ("events" in p)) for _, p in verified
    )
    if summary["batches"] != len(verified) or summary["offers"] != offers or summary["events"] != events or not typed:
        sys.exit(f"check_standard_webhooks: the summary {summary} does not match the {len(verified)} verified batches")
    if sorted(sent) != sorted(ids) or not ids:
        sys.exit(f"check_standard_webhooks: events sent {sent} are not the day's lifecycle events {ids}")
    if SECRET in deliver.stdout + deliver.stderr:
        sys.exit("check_standard_webhooks: the secret appears in deliver's output")
    print(f"check_standard_webhooks: {len(verified)} batches ({offers} offers, {events} lifecycle events) verified by standardwebhooks")
