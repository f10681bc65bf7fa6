#!/usr/bin/env python3
"""Load for `winback serve` (SPEC §19), written apart from the project's Swift code: it makes its own
Apple-shaped PKI with `cryptography`, signs Retention Messaging requests the way the App Store does (ES256 JWS,
x5c leaf → intermediate → root, Apple's marker OIDs), and sends them at a constant rate over keep-alive
connections, timing each from its *scheduled* send (so a slow server cannot hide queueing).

  serve_load.py setup DIR [--decisions N] [--sample-key PATH]
      DIR/root.pem, DIR/leaf.pem + key, DIR/config.json (trusting root.pem, two Retention Messaging
      campaigns), DIR/out/dt=2026-11-19/retention_decisions.csv.gz with N subscriptions (default 1 600 000)
      and _SUCCESS.
  serve_load.py run URL DIR --rate R --seconds S [--connections C] [--route notifications]
      With --route notifications: R×S App Store Server Notifications V2 (unique notificationUUID, DID_RENEW,
      this app, signedDate now) POSTed to /notifications (SPEC §24), each answered only once durable.
      Otherwise: signs R×S fresh requests (unique requestIdentifier, signedDate now; subscriptions drawn from the
      decisions: 40 % promotional offer, 30 % alternate product, 10 % holdout, 20 % unknown), sends them at R
      per second, checks every answer, prints one JSON line: sent, ok, errors, achieved rate, p50/p90/p99/max ms.
"""
import argparse
import asyncio
import base64
import datetime
import gzip
import json
import os
import random
import sys
import time
import uuid

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.x509.oid import NameOID, ObjectIdentifier

APP_APPLE_ID = 1234567890
BUNDLE_ID = "com.example.winback"
MESSAGE = "0d6f1f4e-9d1c-4a57-8a4b-3f2d0c9e1a77"
LEAF_OID = ObjectIdentifier("1.2.840.113635.100.6.11.1")
INTERMEDIATE_OID = ObjectIdentifier("1.2.840.113635.100.6.2.1")
DAY = "2026-11-19"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def certificate(subject, key, issuer_name, issuer_key, ca, marker):
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
        .issuer_name(issuer_name or x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=not ca, content_commitment=False, key_encipherment=False, data_encipherment=False,
                key_agreement=False, key_cert_sign=ca, crl_sign=ca, encipher_only=False, decipher_only=False),
            critical=True)
    )
    if marker:
        builder = builder.add_extension(x509.UnrecognizedExtension(marker, b"\x05\x00"), critical=False)
    return builder.sign(issuer_key or key, hashes.SHA256())


def setup(args):
    directory = args.dir
    os.makedirs(directory, exist_ok=True)
    root_key, intermediate_key, leaf_key = (ec.generate_private_key(ec.SECP256R1()) for _ in range(3))
    root = certificate("Load TEST ONLY Root", root_key, None, None, True, None)
    intermediate = certificate("Load TEST ONLY Intermediate", intermediate_key, root.subject, root_key, True, INTERMEDIATE_OID)
    leaf = certificate("Load TEST ONLY Leaf", leaf_key, intermediate.subject, intermediate_key, False, LEAF_OID)
    with open(f"{directory}/root.pem", "wb") as out:
        out.write(root.public_bytes(serialization.Encoding.PEM))
    with open(f"{directory}/signer.json", "w") as out:
        json.dump({
            "x5c": [base64.b64encode(c.public_bytes(serialization.Encoding.DER)).decode() for c in (leaf, intermediate, root)],
            "key": leaf_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()).decode(),
        }, out)
    config = {
        "app": {"bundleId": BUNDLE_ID, "appAppleId": APP_APPLE_ID, "environment": "Production"},
        "inputs": ["none/*.ndjson"],
        "trust": {"rootCertificates": ["root.pem"]},
        "report": {"timeZone": "UTC", "gracePeriodDays": 16, "maxRejectRate": 0.01},
        "signing": {"keyId": "TESTKEY001", "issuerId": "57246542-96fe-1a63-e053-0824d011072a",
                    "privateKeyFile": os.path.abspath(args.sample_key)},
        "retentionMessaging": {"defaultMessageIdentifier": "7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4a5b"},
        "ledger": "state/ledger.sqlite",
        "output": "out",
        "api": {"keyId": "K", "issuerId": "I", "directory": "pushed"},
        "campaigns": [
            {"id": "rm-offer", "audience": "retention", "channel": "retention_messaging", "messageIdentifier": MESSAGE,
             "offer": {"offerIdentifier": "retention.monthly.1"}, "rules": {"maxDaysToExpiry": 14}, "holdoutPercent": 20},
            {"id": "rm-switch", "audience": "price_increase", "channel": "retention_messaging", "messageIdentifier": MESSAGE,
             "offer": {"type": "alternate_product", "productId": "com.example.winback.annual", "billingPlanType": "MONTHLY"},
             "rules": {"maxDaysToExpiry": 30}, "holdoutPercent": 0},
        ],
    }
    with open(f"{directory}/config.json", "w") as out:
        json.dump(config, out, indent=2)
    day = f"{directory}/out/dt={DAY}"
    os.makedirs(day, exist_ok=True)
    with gzip.open(f"{day}/retention_decisions.csv.gz", "wt", compresslevel=1, newline="") as out:
        out.write("original_transaction_id,campaign_id,account_key,variant,kind,message_identifier,product_id,offer_identifier,billing_plan_type\n")
        for index in range(args.decisions):
            otid = 2000000000000000 + index
            bucket = index % 8
            if bucket < 4:
                out.write(f"{otid},rm-offer,a{index},treatment,promotional_offer,{MESSAGE},,retention.monthly.1,\n")
            elif bucket < 7:
                out.write(f"{otid},rm-switch,a{index},treatment,alternate_product,{MESSAGE},com.example.winback.annual,,MONTHLY\n")
            else:
                out.write(f"{otid},rm-offer,a{index},holdout,,,,,\n")
    open(f"{day}/_SUCCESS", "w").close()
    print(json.dumps({"directory": directory, "decisions": args.decisions}))


def load_signer(directory):
    """The leaf's private key and the encoded JWS header (x5c leaf → intermediate → root) that setup wrote."""
    signer = json.load(open(f"{directory}/signer.json"))
    key = serialization.load_pem_private_key(signer["key"].encode(), None)
    return key, b64url(json.dumps({"alg": "ES256", "x5c": signer["x5c"]}, separators=(",", ":")).encode())


def sign_jws(key, header, payload):
    """An ES256 compact JWS of `payload` under the encoded `header`, the signature as r‖s."""
    signing_input = header + "." + b64url(json.dumps(payload, separators=(",", ":")).encode())
    r, s = decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    return signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def sign_requests(directory, count, decisions):
    key, header = load_signer(directory)
    now = int(time.time() * 1000)
    bodies = []
    for index in range(count):
        pick = random.random()
        if pick < 0.8:
            # Decisions cycle treatment offer ×4, switch ×3, holdout ×1: draw within the wanted kind.
            slot = random.randrange(decisions // 8) * 8
            otid = 2000000000000000 + slot + (random.randrange(4) if pick < 0.4 else 4 + random.randrange(3) if pick < 0.7 else 7)
        else:
            otid = 3000000000000000 + index
        payload = {"originalTransactionId": str(otid), "appAppleId": APP_APPLE_ID, "productId": "com.example.winback.monthly",
                   "userLocale": "en-US", "requestIdentifier": str(uuid.uuid4()), "signedDate": now, "environment": "Production"}
        body = json.dumps({"signedPayload": sign_jws(key, header, payload)}).encode()
        bodies.append(b"POST /retention HTTP/1.1\r\nHost: load\r\nContent-Type: application/json\r\nContent-Length: "
                      + str(len(body)).encode() + b"\r\n\r\n" + body)
    return bodies


def sign_notifications(directory, count):
    key, header = load_signer(directory)
    now = int(time.time() * 1000)
    bodies = []
    for index in range(count):
        payload = {"notificationType": "DID_RENEW", "notificationUUID": str(uuid.uuid4()), "version": "2.0", "signedDate": now,
                   "data": {"appAppleId": APP_APPLE_ID, "bundleId": BUNDLE_ID, "bundleVersion": "1", "environment": "Production",
                            "status": 1}}
        body = json.dumps({"signedPayload": sign_jws(key, header, payload)}).encode()
        bodies.append(b"POST /notifications HTTP/1.1\r\nHost: load\r\nContent-Type: application/json\r\nContent-Length: "
                      + str(len(body)).encode() + b"\r\n\r\n" + body)
    return bodies


async def load(url, bodies, rate, connections):
    host, port = url.split("//")[1].split(":")
    idle = asyncio.Queue()
    for _ in range(connections):
        idle.put_nowait(await asyncio.open_connection(host, int(port)))
    latencies, errors = [], []
    start = time.perf_counter() + 0.2

    async def one(index, request):
        scheduled = start + index / rate
        reader, writer = await idle.get()
        try:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
            body = await reader.readexactly(length)
            latencies.append(time.perf_counter() - scheduled)
            if not head.startswith(b"HTTP/1.1 200") or not body.startswith(b'{'):
                errors.append(head.split(b"\r\n")[0].decode() + " " + body[:80].decode())
        except Exception as error:  # noqa: BLE001 - a load test counts every failure
            errors.append(repr(error))
            reader, writer = await asyncio.open_connection(host, int(port))
        idle.put_nowait((reader, writer))

    tasks = []
    for index, request in enumerate(bodies):
        delay = start + index / rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(index, request)))
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - start
    return latencies, errors, elapsed


def run(args):
    config = json.load(open(f"{args.dir}/config.json"))
    del config
    decisions = int(open(f"{args.dir}/decisions").read()) if os.path.exists(f"{args.dir}/decisions") else 1_600_000
    count = int(args.rate * args.seconds)
    bodies = sign_notifications(args.dir, count) if args.route == "notifications" else sign_requests(args.dir, count, decisions)
    latencies, errors, elapsed = asyncio.run(load(args.url, bodies, args.rate, args.connections))
    latencies.sort()
    def quantile(q):
        return round(latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000, 2) if latencies else None
    print(json.dumps({
        "rate": args.rate, "seconds": args.seconds, "sent": count, "ok": len(latencies) - len(errors), "errors": len(errors),
        "achievedRate": round(count / elapsed, 1), "p50ms": quantile(0.5), "p90ms": quantile(0.9), "p99ms": quantile(0.99),
        "maxms": quantile(1.0), "firstError": errors[0] if errors else None,
    }))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    setup_parser = commands.add_parser("setup")
    setup_parser.add_argument("dir")
    setup_parser.add_argument("--decisions", type=int, default=1_600_000)
    setup_parser.add_argument("--sample-key", default="sample-data/keys/SubscriptionKey_TESTKEY001.p8")
    run_parser = commands.add_parser("run")
    run_parser.add_argument("url")
    run_parser.add_argument("dir")
    run_parser.add_argument("--rate", type=float, required=True)
    run_parser.add_argument("--seconds", type=float, required=True)
    run_parser.add_argument("--connections", type=int, default=64)
    run_parser.add_argument("--route", choices=["retention", "notifications"], default="retention")
    args = parser.parse_args()
    if args.command == "setup":
        setup(args)
        with open(f"{args.dir}/decisions", "w") as out:
            out.write(str(args.decisions))
    else:
        run(args)


if __name__ == "__main__":
    sys.exit(main())
