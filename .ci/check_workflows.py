#!/usr/bin/env python3
"""Checks the workflow-engine files of jobs/ with their engines' own code, without a cluster:

  check_workflows.py argo WINBACK_BIN      jobs/argo/*.yaml read by hera's models of Argo's API (every key known:
                                           the model dumps back to the same document), the shard -> merge -> deliver
                                           DAG with the shards fanned out by withSequence and retried alone
  check_workflows.py airflow WINBACK_BIN   jobs/airflow/ imported into an Airflow 3 DagBag: no import error, a mapped
                                           shard task over N shards, merge after it, deliver after the merge, daily

and in both that every winback flag they pass exists in `winback <command> --help`.
"""
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
failures = []


def fail(message):
    failures.append(message)


def check_flags(binary, where, arguments):
    """Every --flag of `arguments` (a winback command line after `winback`) is in its command's --help."""
    command = arguments[0]
    help_text = subprocess.run([binary, command, "--help"], capture_output=True, text=True).stdout
    known = set(re.findall(r"--[a-z][a-z-]*", help_text))
    for argument in arguments[1:]:
        flag = argument.split("=", 1)[0]
        if flag.startswith("--") and flag not in known:
            fail(f"{where}: winback {command} has no flag {flag}")


def unknown_keys(document, dumped, path=""):
    """Keys of `document` that the model dropped (a misspelt or misplaced key)."""
    if isinstance(document, dict):
        for key, value in document.items():
            if not isinstance(dumped, dict) or key not in dumped:
                yield f"{path}/{key}"
            else:
                yield from unknown_keys(value, dumped[key], f"{path}/{key}")
    elif isinstance(document, list) and isinstance(dumped, list):
        for index, (value, back) in enumerate(zip(document, dumped)):
            yield from unknown_keys(value, back, f"{path}[{index}]")


def check_argo(binary):
    import yaml
    from hera.workflows.models import CronWorkflow

    files = sorted((ROOT / "jobs/argo").glob("*.yaml"))
    if not files:
        fail("jobs/argo: no workflow")
    for path in files:
        where = path.relative_to(ROOT)
        document = yaml.safe_load(path.read_text())
        model = CronWorkflow.model_validate(document)
        for key in unknown_keys(document, model.model_dump(by_alias=True, exclude_none=True, mode="json")):
            fail(f"{where}: {key} is not a field of Argo's CronWorkflow")
        spec = model.spec.workflow_spec
        parameters = {p.name: p.value for p in spec.arguments.parameters}
        templates = {t.name: t for t in spec.templates}
        tasks = {t.name: t for t in templates[spec.entrypoint].dag.tasks}
        shard, merge, deliver = tasks.get("shard"), tasks.get("merge"), tasks.get("deliver")
        if not (shard and merge and deliver):
            fail(f"{where}: the DAG needs the tasks shard, merge and deliver")
            continue
        count = shard.with_sequence and shard.with_sequence.count
        if getattr(count, "root", count) != "{{workflow.parameters.shards}}":
            fail(f"{where}: shard is not fanned out by withSequence over the shards parameter")
        if not parameters.get("shards", "").isdigit():
            fail(f"{where}: the shards parameter is not a number")
        if "shard" not in (merge.depends or ""):
            fail(f"{where}: merge does not depend on the shards")
        if "merge" not in (deliver.depends or ""):
            fail(f"{where}: deliver does not depend on the merge")
        if templates["shard"].retry_strategy is None:
            fail(f"{where}: a failed shard is not retried alone (no retryStrategy on the shard template)")
        for name in ["shard", "merge", "deliver"]:
            container = templates[name].container
            arguments = list(container.command[1:] if container.command[0] == "winback" else []) + list(container.args)
            if container.command[0] != "winback":  # a shell line: the words after `exec winback`
                line = " ".join(container.args)
                arguments = shlex.split(re.sub(r"\$\(.*\)", "", line.split("exec winback", 1)[1]))
            check_flags(binary, f"{where} ({name})", arguments)
        print(f"check_workflows: {where}: shard x{parameters['shards']} -> merge -> deliver, {len(templates)} templates")


def check_airflow(binary):
    from airflow.dag_processing.dagbag import DagBag

    bag = DagBag(dag_folder=str(ROOT / "jobs/airflow"))
    for path, error in bag.import_errors.items():
        fail(f"{path}: {error}")
    dag = bag.dags.get("winback_nightly")
    if dag is None:
        fail("jobs/airflow: no DAG winback_nightly")
        return
    shard, merge, deliver = (dag.task_dict.get(name) for name in ["shard", "merge", "deliver"])
    if not (shard and merge and deliver):
        fail("winback_nightly: needs the tasks shard, merge and deliver")
        return
    mapped = shard.expand_input.value.get("arguments", [])
    count = len(mapped)
    if type(shard).__name__ != "MappedOperator" or count < 1:
        fail("winback_nightly: shard is not a mapped task over the shards")
    for index, arguments in enumerate(mapped):
        if f"--shard={index}/{count}" not in arguments:
            fail(f"winback_nightly: mapped shard {index} does not run --shard={index}/{count}")
        check_flags(binary, f"winback_nightly (shard {index})", arguments)
    partials = [a for a in merge.arguments if "/shard-" in a]
    if len(partials) != count:
        fail(f"winback_nightly: the merge lists {len(partials)} partials for {count} shards")
    if merge.upstream_task_ids != {"shard"} or deliver.upstream_task_ids != {"merge"}:
        fail("winback_nightly: not shard -> merge -> deliver")
    if (shard.retries or 0) < 1:
        fail("winback_nightly: a failed shard is not retried")
    for task in [merge, deliver]:
        check_flags(binary, f"winback_nightly ({task.task_id})", list(task.arguments))
    expression = getattr(dag.timetable, "expression", "")
    if len(expression.split()) != 5 or expression.split()[2:] != ["*", "*", "*"]:
        fail(f"winback_nightly: the schedule {expression!r} is not daily")
    print(f"check_workflows: winback_nightly: shard x{count} -> merge -> deliver, cron {expression!r}")


if __name__ == "__main__":
    engine, binary = sys.argv[1], sys.argv[2]
    {"argo": check_argo, "airflow": check_airflow}[engine](binary)
    for message in failures:
        print(f"check_workflows: {message}", file=sys.stderr)
    sys.exit(1 if failures else 0)
