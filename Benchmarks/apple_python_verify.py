#!/usr/bin/env python3
"""Apple's App Store Server Library (Python) against `winback verify` on the same signed transactions.

Usage: Benchmarks/apple_python_verify.py DATASET_DIR [--records 20000] [--winback PATH]

DATASET_DIR is a `winback sample-data` directory (its winback.json gives the bundle id, app id,
environment and TEST-ONLY root). The first N lines of exports/transactions/part-0.ndjson.gz are verified
and decoded by `SignedDataVerifier.verify_and_decode_signed_transaction` (offline: the library checks the
chain at signedDate on every call; it caches chains only with online checks), then the same slice is
written to a scratch dataset and `winback verify` runs on it with 1 core (taskset) and with all cores.
Needs: pip install app-store-server-library (3.1.2 was measured)."""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def main(dataset: str, records: int, winback: str) -> int:
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding

    config = json.load(open(os.path.join(dataset, "winback.json")))
    roots = [x509.load_pem_x509_certificate(open(os.path.join(dataset, path), "rb").read()).public_bytes(Encoding.DER)
             for path in config["trust"]["rootCertificates"]]
    app = config["app"]
    verifier = SignedDataVerifier(roots, False, Environment(app["environment"]), app["bundleId"], app.get("appAppleId"))
    lines = []
    with gzip.open(os.path.join(dataset, "exports/transactions/part-0.ndjson.gz"), "rt") as source:
        for line in source:
            lines.append(line)
            if len(lines) == records:
                break
    jws = [json.loads(line)["signedTransactionInfo"] for line in lines]

    start = time.perf_counter()
    verified = 0
    for token in jws:
        payload = verifier.verify_and_decode_signed_transaction(token)
        verified += payload.transactionId is not None
    apple_seconds = time.perf_counter() - start
    apple_rate = len(jws) / apple_seconds
    print(f"apple python library: {verified}/{len(jws)} verified + decoded in {apple_seconds:.1f} s = {apple_rate:.0f} records/s (1 core)")

    with tempfile.TemporaryDirectory() as scratch:
        for name in ("certs", "keys"):
            if os.path.isdir(os.path.join(dataset, name)):
                shutil.copytree(os.path.join(dataset, name), os.path.join(scratch, name))
        os.makedirs(os.path.join(scratch, "exports/transactions"))
        with gzip.open(os.path.join(scratch, "exports/transactions/slice.ndjson.gz"), "wt", compresslevel=1) as target:
            target.writelines(lines)
        shutil.copy(os.path.join(dataset, "winback.json"), os.path.join(scratch, "winback.json"))
        results = {}
        for label, prefix in (("1 core", ["taskset", "-c", "0"]), ("all cores", [])):
            start = time.perf_counter()
            run = subprocess.run(prefix + [winback, "verify", "--config", os.path.join(scratch, "winback.json"), "--quiet"],
                                 capture_output=True, text=True)
            seconds = time.perf_counter() - start
            summary = json.loads(run.stdout.strip().splitlines()[-1])
            results[label] = summary["records"]["accepted"] / seconds
            print(f"winback verify ({label}): {summary['records']['accepted']}/{summary['records']['read']} accepted "
                  f"in {seconds:.2f} s = {results[label]:.0f} records/s (process start and gzip included)")
    print(f"ratio: winback is {results['1 core'] / apple_rate:.0f}x Apple's Python library per core, "
          f"{results['all cores'] / apple_rate:.0f}x with all cores")
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    options = {"--records": "20000", "--winback": os.path.join(os.path.dirname(__file__), "../.build/release/winback")}
    for flag in list(options):
        if flag in args:
            index = args.index(flag)
            options[flag] = args[index + 1]
            del args[index:index + 2]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    sys.exit(main(args[0], int(options["--records"]), os.path.abspath(options["--winback"])))
