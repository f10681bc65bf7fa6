"""The Winback night on Airflow 3 (docs/sharding.md): the shards as one mapped KubernetesPodOperator task (each shard a
mapped instance, retried alone), the merge when every shard has succeeded, then delivery of the day's offers; daily at
02:30 UTC. The volumes, secrets and sizing are those of jobs/k8s/ (see its files for why each is there); each pod writes
--metrics-file into the node's textfile-collector directory (docs/operations.md).

Airflow 3 runs a cron schedule at the time it names (the logical date is the run's own time), so the day a run
reports on is the day before: `macros.ds_add(ds, -1)`. To run one night again, trigger the DAG with the config
{"as_of": "2026-11-19"}.

Checked in CI by importing it into a DagBag with Airflow 3.3 (.ci/check_workflows.py).
"""

from datetime import datetime, timedelta

from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
from airflow.sdk import DAG
from kubernetes.client import models as k8s

IMAGE = "registry.example.com/winback:1"
CONFIG = "/etc/winback/production.json"
SHARDS = 4
# The day reported on: the run's config {"as_of": …} when given, else the day before the run.
AS_OF = "{{ dag_run.conf.get('as_of') or macros.ds_add(ds, -1) }}"


def claim(name):
    """A volume from the persistent volume claim `winback-<name>`."""
    return k8s.V1Volume(name=name, persistent_volume_claim=k8s.V1PersistentVolumeClaimVolumeSource(claim_name=f"winback-{name}"))


def secret(name, secret_name):
    """A volume of the Secret `secret_name`, readable by its owner only."""
    return k8s.V1Volume(name=name, secret=k8s.V1SecretVolumeSource(secret_name=secret_name, default_mode=0o400))


def mount(name, path, read_only=False):
    """A volume mounted at `path`."""
    return k8s.V1VolumeMount(name=name, mount_path=path, read_only=read_only)


def resources(cpu, memory, limit):
    """Requests of `cpu` and `memory`, a memory limit of `limit`."""
    return k8s.V1ResourceRequirements(requests={"cpu": cpu, "memory": memory}, limits={"memory": limit})


VOLUMES = [
    k8s.V1Volume(name="config", config_map=k8s.V1ConfigMapVolumeSource(name="winback-config")),
    claim("exports"),
    claim("notifications"),
    claim("partials"),
    claim("state"),
    claim("reports"),
    secret("signing-key", "winback-signing-key"),
    secret("webhook-secret", "winback-webhook-secret"),
    k8s.V1Volume(
        name="textfile",
        host_path=k8s.V1HostPathVolumeSource(path="/var/lib/node_exporter/textfile_collector", type="DirectoryOrCreate"),
    ),
]
CONFIG_MOUNT = mount("config", "/etc/winback", read_only=True)
TEXTFILE_MOUNT = mount("textfile", "/textfile")
POD = dict(
    image=IMAGE,
    volumes=VOLUMES,
    security_context=k8s.V1PodSecurityContext(run_as_user=10001, run_as_non_root=True, fs_group=10001),
    get_logs=True,
    on_finish_action="delete_succeeded_pod",
)

with DAG(
    dag_id="winback_nightly",
    description="Winback: shards, merge, deliver",
    schedule="30 2 * * *",
    start_date=datetime(2026, 11, 1),
    catchup=False,
    max_active_runs=1,
    default_args={"retries": 3, "retry_delay": timedelta(minutes=1), "retry_exponential_backoff": True},
    tags=["winback"],
) as dag:
    # Shard i of N verifies the records it owns and writes its partial; a failed shard is retried alone.
    shard = KubernetesPodOperator.partial(
        task_id="shard",
        name="winback-shard",
        cmds=["winback"],
        container_resources=resources("2", "6Gi", "8Gi"),
        volume_mounts=[
            CONFIG_MOUNT,
            mount("exports", "/srv/winback", read_only=True),
            mount("notifications", "/srv/winback/notifications", read_only=True),
            mount("partials", "/partials"),
            mount("state", "/var/lib/winback"),
            TEXTFILE_MOUNT,
        ],
        **POD,
    ).expand(
        arguments=[
            [
                "run",
                f"--config={CONFIG}",
                f"--as-of={AS_OF}",
                f"--shard={index}/{SHARDS}",
                f"--partial=/partials/{AS_OF}/shard-{index}",
                f"--metrics-file=/textfile/winback-shard-{index}.prom",
            ]
            for index in range(SHARDS)
        ]
    )

    # The merge checks the N partials, selects, signs, writes the ledger and publishes dt=<as-of>.
    merge = KubernetesPodOperator(
        task_id="merge",
        name="winback-merge",
        cmds=["winback"],
        arguments=[
            "merge",
            f"--config={CONFIG}",
            f"--as-of={AS_OF}",
            "--metrics-file=/textfile/winback-merge.prom",
            "--partials",
            *[f"/partials/{AS_OF}/shard-{index}" for index in range(SHARDS)],
        ],
        env_vars={"WINBACK_SIGNING_KEY_FILE": "/var/run/secrets/winback/SubscriptionKey.p8"},
        container_resources=resources("2", "3Gi", "4Gi"),
        volume_mounts=[
            CONFIG_MOUNT,
            mount("partials", "/partials", read_only=True),
            mount("state", "/var/lib/winback"),
            mount("reports", "/srv/winback/reports"),
            mount("signing-key", "/var/run/secrets/winback", read_only=True),
            TEXTFILE_MOUNT,
        ],
        retries=2,
        **POD,
    )

    # The day's offers to the webhook, each batch once (the ledger remembers what was acknowledged).
    deliver = KubernetesPodOperator(
        task_id="deliver",
        name="winback-deliver",
        cmds=["winback"],
        arguments=["deliver", f"--config={CONFIG}", f"--as-of={AS_OF}", "--metrics-file=/textfile/winback-deliver.prom"],
        env_vars={"WINBACK_WEBHOOK_SECRET_FILE": "/var/run/secrets/winback-webhook/secret"},
        container_resources=resources("250m", "256Mi", "1Gi"),
        volume_mounts=[
            CONFIG_MOUNT,
            mount("state", "/var/lib/winback"),
            mount("reports", "/srv/winback/reports", read_only=True),
            mount("webhook-secret", "/var/run/secrets/winback-webhook", read_only=True),
            TEXTFILE_MOUNT,
        ],
        retry_delay=timedelta(minutes=5),
        **POD,
    )

    shard >> merge >> deliver
