#!/usr/bin/env python3
"""Throughput of `winback sync` and `winback deliver` against loopback mocks (docs/performance.md).

A threaded Python server answers Get Notification History with pages of 20 opaque payloads (no JWT check: the
client's cost is measured, not Apple's) and acknowledges every webhook POST. Then, on a copy of the sample config:

  sync:    one day of PAGES pages at api.requestsPerSecond 50 (Apple's limit), then the same with the pace the
           client keeps alone (requests/s of the run);
  deliver: the sample day's offers in batches of 1 (one request per offer) and of 500.

usage: Benchmarks/http_throughput.py WINBACK_BIN [PAGES]
"""
import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BINARY = sys.argv[1]
PAGES = int(sys.argv[2]) if len(sys.argv) > 2 else 300
counts = {"history": 0, "webhook": 0}
lock = threading.Lock()


class Mock(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        # Headers and body leave in two writes: without this, Nagle and the client's delayed ACK add 40 ms to each.
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        self.rfile.read(length)
        if self.path.startswith("/inApps/v1/notifications/history"):
            with lock:
                counts["history"] += 1
            page = int(self.path.split("paginationToken=")[1]) if "paginationToken=" in self.path else 0
            body = {
                "notificationHistory": [{"signedPayload": f"e30.eyJ9.page{page}-{i}"} for i in range(20)],
                "hasMore": page + 1 < PAGES,
                "paginationToken": str(page + 1),
            }
            self.answer(200, json.dumps(body).encode())
        else:
            with lock:
                counts["webhook"] += 1
            self.answer(200, b"{}")

    def answer(self, status, body):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def config(directory, port, batch_size, rate):
    text = (ROOT / "jobs/sample.json").read_text()
    text = text.replace("../sample-data", str(ROOT / "sample-data")).replace('"../state/ledger.sqlite"', '"state/ledger.sqlite"')
    text = text.replace('"../out"', '"out"')
    api = (
        f'"api": {{ "keyId": "TESTKEY001", "issuerId": "57246542-96fe-1a63-e053-0824d011072a", '
        f'"privateKeyFile": "{ROOT}/sample-data/keys/SubscriptionKey_TESTKEY001.p8", "directory": "sync", '
        f'"baseURL": "http://127.0.0.1:{port}/", "requestsPerSecond": {rate} }},'
    )
    delivery = (
        f'"delivery": {{ "webhook": {{ "url": "http://127.0.0.1:{port}/hook", "secretFile": "webhook.secret", '
        f'"batchSize": {batch_size} }} }},'
    )
    text = text.replace('"ledger":', api + "\n  " + delivery + "\n  " + '"ledger":', 1)
    (directory / "webhook.secret").write_text("whsec-benchmark-secret\n")
    path = directory / "config.json"
    path.write_text(text)
    return path


def timed(arguments):
    start = time.monotonic()
    result = subprocess.run([BINARY] + arguments, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if result.returncode != 0:
        sys.exit(f"{' '.join(arguments)}: exit {result.returncode}: {result.stderr[-400:]}")
    return seconds, json.loads(result.stdout.strip().splitlines()[-1])


server = ThreadingHTTPServer(("127.0.0.1", 0), Mock)
threading.Thread(target=server.serve_forever, daemon=True).start()
port = server.server_address[1]
with tempfile.TemporaryDirectory() as temporary:
    for rate in [50]:
        directory = Path(temporary) / f"sync-{rate}"
        directory.mkdir()
        path = config(directory, port, 500, rate)
        before = counts["history"]
        seconds, summary = timed(["sync", "--config", str(path), "--from", "2026-11-18", "--to", "2026-11-18", "--quiet"])
        requests = counts["history"] - before
        print(f"sync at api.requestsPerSecond {rate}: {requests} pages ({summary['notifications']} notifications) "
              f"in {seconds:.2f} s = {requests / seconds:.1f} requests/s, {summary['notifications'] / seconds:.0f} notifications/s")
    for batch in [1, 500]:
        directory = Path(temporary) / f"deliver-{batch}"
        directory.mkdir()
        path = config(directory, port, batch, 50)
        timed(["run", "--config", str(path), "--as-of", "2026-11-19", "--quiet", "--no-store"])
        before = counts["webhook"]
        seconds, summary = timed(["deliver", "--config", str(path), "--as-of", "2026-11-19", "--quiet"])
        requests = counts["webhook"] - before
        print(f"deliver, batchSize {batch}: {summary['offers']} offers in {requests} requests in {seconds:.2f} s "
              f"= {requests / seconds:.0f} requests/s, {summary['offers'] / seconds:.0f} offers/s")
server.shutdown()
