#!/usr/bin/env python3
"""Checks jobs/k8s/ without a cluster: each manifest against a JSON schema of the parts of batch/v1 Job,
apps/v1 Deployment, v1 Service (and v1 ConfigMap) we use, then what a schema cannot say — the Indexed Job's
completions, parallelism and --shards agree, the merge lists exactly those N partials, every volume mount has
its volume, every flag exists in `winback <command> --help`, the server listens on the port its probes and
Service name, and its grace period covers its drain.

usage: check_k8s.py WINBACK_BIN
"""
import re
import shlex
import subprocess
import sys
from pathlib import Path

import jsonschema
import yaml

QUANTITY = {"type": "string", "pattern": r"^[0-9]+(\.[0-9]+)?(m|Ki|Mi|Gi|Ti)?$"}
RESOURCES = {
    "type": "object",
    "required": ["requests"],
    "properties": {
        "requests": {"type": "object", "required": ["cpu", "memory"], "properties": {"cpu": QUANTITY, "memory": QUANTITY}},
        "limits": {"type": "object", "properties": {"cpu": QUANTITY, "memory": QUANTITY}},
    },
}
CONTAINER = {
    "type": "object",
    "required": ["name", "image", "command", "args", "resources", "volumeMounts"],
    "properties": {
        "name": {"type": "string", "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},
        "image": {"type": "string", "minLength": 1},
        "command": {"type": "array", "items": {"type": "string"}},
        "args": {"type": "array", "items": {"type": "string"}},
        "env": {"type": "array", "items": {"type": "object", "required": ["name"]}},
        "envFrom": {"type": "array"},
        "resources": RESOURCES,
        "volumeMounts": {
            "type": "array",
            "items": {"type": "object", "required": ["name", "mountPath"], "properties": {"readOnly": {"type": "boolean"}}},
        },
    },
}
JOB = {
    "type": "object",
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "batch/v1"},
        "kind": {"const": "Job"},
        "metadata": {"type": "object", "required": ["name"]},
        "spec": {
            "type": "object",
            "required": ["completions", "parallelism", "template"],
            "properties": {
                "completionMode": {"enum": ["NonIndexed", "Indexed"]},
                "completions": {"type": "integer", "minimum": 1},
                "parallelism": {"type": "integer", "minimum": 1},
                "backoffLimit": {"type": "integer", "minimum": 0},
                "template": {
                    "type": "object",
                    "required": ["spec"],
                    "properties": {
                        "spec": {
                            "type": "object",
                            "required": ["restartPolicy", "containers", "volumes"],
                            "properties": {
                                "restartPolicy": {"enum": ["Never", "OnFailure"]},
                                "containers": {"type": "array", "minItems": 1, "items": CONTAINER},
                                "volumes": {"type": "array", "items": {"type": "object", "required": ["name"]}},
                            },
                        }
                    },
                },
            },
        },
    },
}
CONFIG_MAP = {
    "type": "object",
    "required": ["apiVersion", "kind", "metadata", "data"],
    "properties": {
        "apiVersion": {"const": "v1"},
        "kind": {"const": "ConfigMap"},
        "data": {"type": "object", "required": ["AS_OF"], "properties": {"AS_OF": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}}},
    },
}


DEPLOYMENT = {
    "type": "object",
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "apps/v1"},
        "kind": {"const": "Deployment"},
        "metadata": {"type": "object", "required": ["name"]},
        "spec": {
            "type": "object",
            "required": ["replicas", "selector", "template"],
            "properties": {
                "replicas": {"type": "integer", "minimum": 1},
                "selector": {"type": "object", "required": ["matchLabels"]},
                "template": {
                    "type": "object",
                    "required": ["metadata", "spec"],
                    "properties": {
                        "metadata": {"type": "object", "required": ["labels"]},
                        "spec": {
                            "type": "object",
                            "required": ["containers", "volumes", "terminationGracePeriodSeconds"],
                            "properties": {
                                "terminationGracePeriodSeconds": {"type": "integer", "minimum": 0},
                                "containers": {
                                    "type": "array",
                                    "minItems": 1,
                                    "items": {
                                        **CONTAINER,
                                        "required": CONTAINER["required"] + ["ports", "readinessProbe", "livenessProbe"],
                                    },
                                },
                                "volumes": {"type": "array", "items": {"type": "object", "required": ["name"]}},
                            },
                        },
                    },
                },
            },
        },
    },
}
SERVICE = {
    "type": "object",
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "v1"},
        "kind": {"const": "Service"},
        "spec": {
            "type": "object",
            "required": ["selector", "ports"],
            "properties": {
                "ports": {"type": "array", "minItems": 1, "items": {"type": "object", "required": ["port", "targetPort"]}},
            },
        },
    },
}


def check_serve(root, binary):
    """The Deployment runs `winback serve` on the port its probes and the Service use, with a grace period
    longer than the server's 25 s drain; the Service selects the Deployment's pods."""
    deployment = load(root / "serve-deployment.yaml", DEPLOYMENT)
    service = load(root / "serve-service.yaml", SERVICE)
    pod = deployment["spec"]["template"]
    check_mounts("serve-deployment.yaml", pod["spec"])
    labels = pod["metadata"]["labels"]
    for name, selector in [("Deployment selector", deployment["spec"]["selector"]["matchLabels"]), ("Service selector", service["spec"]["selector"])]:
        if any(labels.get(key) != value for key, value in selector.items()):
            fail(f"serve: the {name} {selector} does not select the pod labels {labels}")
    container = pod["spec"]["containers"][0]
    argv = words(container)
    if argv[:2] != ["winback", "serve"]:
        fail(f"serve-deployment.yaml: expected `winback serve …`, found {argv[:2]}")
    check_flags("serve-deployment.yaml", argv, binary)
    port = int(argv[argv.index("--port") + 1]) if "--port" in argv else 8080
    host = argv[argv.index("--host") + 1] if "--host" in argv else "127.0.0.1"
    if host not in ("0.0.0.0", "::"):
        fail(f"serve-deployment.yaml: --host {host} is not reachable from outside the pod")
    ports = {entry.get("name"): entry["containerPort"] for entry in container["ports"]}
    if port not in ports.values():
        fail(f"serve-deployment.yaml: winback listens on {port}, the container declares {sorted(ports.values())}")
    for probe in ["readinessProbe", "livenessProbe"]:
        get = container[probe].get("httpGet", {})
        if get.get("path") != "/healthz" or ports.get(get.get("port"), get.get("port")) != port:
            fail(f"serve-deployment.yaml: {probe} must GET /healthz on port {port}")
    for entry in service["spec"]["ports"]:
        if ports.get(entry["targetPort"], entry["targetPort"]) != port:
            fail(f"serve-service.yaml: targetPort {entry['targetPort']} is not winback's port {port}")
    if pod["spec"]["terminationGracePeriodSeconds"] < 30:
        fail("serve-deployment.yaml: terminationGracePeriodSeconds must cover the 25 s drain (30 or more)")


def fail(message):
    print(f"check_k8s: {message}", file=sys.stderr)
    sys.exit(1)


def load(path, schema):
    documents = list(yaml.safe_load_all(path.read_text()))
    if len(documents) != 1:
        fail(f"{path}: expected one document, found {len(documents)}")
    try:
        jsonschema.validate(documents[0], schema)
    except jsonschema.ValidationError as error:
        fail(f"{path}: {'.'.join(map(str, error.absolute_path))}: {error.message}")
    return documents[0]


def words(container):
    """The winback command line of a container (`sh -c` script), split into words."""
    script = " ".join(container["args"])
    return shlex.split(script.replace("exec ", "", 1))


def check_mounts(path, pod):
    volumes = {volume["name"] for volume in pod["volumes"]}
    for container in pod["containers"]:
        for mount in container["volumeMounts"]:
            if mount["name"] not in volumes:
                fail(f"{path}: volumeMount {mount['name']} has no volume")


def check_flags(path, argv, binary):
    command = argv[1]
    help_text = subprocess.run([binary, command, "--help"], capture_output=True, text=True).stdout
    for word in argv[2:]:
        if word.startswith("--") and f"{word.split('=')[0]} " not in help_text + " ":
            fail(f"{path}: winback {command} has no option {word}")


def main():
    binary = sys.argv[1]
    root = Path(__file__).resolve().parent.parent / "jobs" / "k8s"
    load(root / "night-configmap.yaml", CONFIG_MAP)
    shards = load(root / "shards-job.yaml", JOB)
    merge = load(root / "merge-job.yaml", JOB)
    for path, job in [("shards-job.yaml", shards), ("merge-job.yaml", merge)]:
        check_mounts(path, job["spec"]["template"]["spec"])

    spec = shards["spec"]
    if spec.get("completionMode") != "Indexed":
        fail("shards-job.yaml: completionMode must be Indexed (JOB_COMPLETION_INDEX is the shard index)")
    shard_argv = words(spec["template"]["spec"]["containers"][0])
    if shard_argv[:2] != ["winback", "run"]:
        fail(f"shards-job.yaml: expected `winback run …`, found {shard_argv[:2]}")
    check_flags("shards-job.yaml", shard_argv, binary)
    option = lambda argv, name: argv[argv.index(name) + 1] if name in argv else None
    n = option(shard_argv, "--shards")
    if option(shard_argv, "--shard") != "auto" or n is None:
        fail("shards-job.yaml: expected --shard auto --shards N")
    if not (int(n) == spec["completions"] == spec["parallelism"]):
        fail(f"shards-job.yaml: --shards {n}, completions {spec['completions']} and parallelism {spec['parallelism']} differ")
    partial = option(shard_argv, "--partial")
    if partial is None or "$JOB_COMPLETION_INDEX" not in partial:
        fail("shards-job.yaml: --partial must name a directory per JOB_COMPLETION_INDEX")

    if merge["spec"]["completions"] != 1 or merge["spec"]["parallelism"] != 1:
        fail("merge-job.yaml: the merge is one pod (the ledger's single writer)")
    merge_argv = words(merge["spec"]["template"]["spec"]["containers"][0])
    if merge_argv[:2] != ["winback", "merge"]:
        fail(f"merge-job.yaml: expected `winback merge …`, found {merge_argv[:2]}")
    check_flags("merge-job.yaml", merge_argv, binary)
    start = merge_argv.index("--partials") + 1
    listed = [word for word in merge_argv[start:] if not word.startswith("--")]
    expected = [partial.replace("$JOB_COMPLETION_INDEX", str(i)) for i in range(int(n))]
    if listed != expected:
        fail(f"merge-job.yaml: --partials {listed} are not the shards' {expected}")
    for option_name in ["--config", "--as-of"]:
        if option(shard_argv, option_name) != option(merge_argv, option_name):
            fail(f"merge-job.yaml: {option_name} differs from the shards'")
    deliver = load(root / "deliver-job.yaml", JOB)
    check_mounts("deliver-job.yaml", deliver["spec"]["template"]["spec"])
    deliver_argv = words(deliver["spec"]["template"]["spec"]["containers"][0])
    if deliver_argv[:2] != ["winback", "deliver"]:
        fail(f"deliver-job.yaml: expected `winback deliver …`, found {deliver_argv[:2]}")
    check_flags("deliver-job.yaml", deliver_argv, binary)
    for option_name in ["--config", "--as-of"]:
        if option(merge_argv, option_name) != option(deliver_argv, option_name):
            fail(f"deliver-job.yaml: {option_name} differs from the merge's")
    check_serve(root, binary)
    check_refunds(root, binary)
    print(
        f"check_k8s: shards-job.yaml ({n} shards), merge-job.yaml, deliver-job.yaml, night-configmap.yaml, serve-deployment.yaml,"
        " serve-service.yaml and refunds-cronjob.yaml are valid"
    )


CRON_JOB = {
    "type": "object",
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "batch/v1"},
        "kind": {"const": "CronJob"},
        "metadata": {"type": "object", "required": ["name"]},
        "spec": {
            "type": "object",
            "required": ["schedule", "concurrencyPolicy", "jobTemplate"],
            "properties": {
                "schedule": {"type": "string"},
                "concurrencyPolicy": {"enum": ["Allow", "Forbid", "Replace"]},
                "startingDeadlineSeconds": {"type": "integer", "minimum": 0},
                "jobTemplate": {"type": "object", "required": ["spec"], "properties": {"spec": JOB["properties"]["spec"]}},
            },
        },
    },
}


def check_refunds(root, binary):
    """refunds-cronjob.yaml: an hourly CronJob (Apple weighs answers for 12 hours) that never overlaps itself."""
    path = "refunds-cronjob.yaml"
    cron = load(root / path, CRON_JOB)
    minute, hour, *rest = cron["spec"]["schedule"].split()
    if not (minute.isdigit() and hour == "*" and rest == ["*", "*", "*"]):
        fail(f"{path}: expected an hourly schedule (M * * * *), found {cron['spec']['schedule']!r}")
    if cron["spec"]["concurrencyPolicy"] != "Forbid":
        fail(f"{path}: concurrencyPolicy must be Forbid (two answering runs would contend for the ledger)")
    pod = cron["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    check_mounts(path, pod)
    argv = words(pod["containers"][0])
    if argv[:2] != ["winback", "refunds"]:
        fail(f"{path}: expected `winback refunds …`, found {argv[:2]}")
    check_flags(path, argv, binary)


if __name__ == "__main__":
    main()
