#!/usr/bin/env python3
"""A real single-node Slurm cluster for tests and benchmarks, in a temporary folder.

    slurm_cluster.py start DIR   writes DIR/slurm.conf and a munge key, starts munged,
                                 slurmctld and slurmd (as root, ports on 127.0.0.1), waits
                                 until the node takes jobs; prints SLURM_CONF=DIR/slurm.conf
    slurm_cluster.py stop DIR    stops the three daemons by the pid files they wrote in DIR
                                 (never by name) and waits until they are gone

Debian 12's slurm-wlm and munge. The node is this host under the name "probaudit-node";
proctrack/linuxproc and task/none need no cgroups; no accounting daemon (sacct answers that
accounting is disabled). Everything the daemons keep (state, spool, logs, pid files, the munge
socket) lives in DIR.
"""

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable

NODE = "probaudit-node"
DAEMONS = ("slurmd", "slurmctld", "munged")  # stopped in this order


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_config(d: str) -> None:
    for sub in ("state", "spool", "munge"):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    os.chmod(os.path.join(d, "munge"), 0o700)
    cpus = os.cpu_count() or 1
    conf = f"""ClusterName=probaudit-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={d}/munge/munge.socket
CredType=cred/munge
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MinJobAge=300
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=2
NodeName={NODE} NodeHostname=localhost NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=debug Nodes={NODE} Default=YES MaxTime=INFINITE State=UP
"""
    with open(os.path.join(d, "slurm.conf"), "w") as f:
        f.write(conf)
    key = os.path.join(d, "munge", "munge.key")
    if not os.path.exists(key):
        subprocess.run(["mungekey", "--create", f"--keyfile={key}"], check=True)
        os.chmod(key, 0o400)


def run_daemon(argv: list[str], d: str, name: str) -> None:
    log = open(os.path.join(d, name + ".stderr"), "w")
    subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def wait_for(what: str, check: Callable[[], bool], seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.2)
    raise SystemExit(f"slurm_cluster: {what} did not come up within {seconds} s")


def start(d: str) -> None:
    d = os.path.abspath(d)
    write_config(d)
    conf = os.path.join(d, "slurm.conf")
    env = dict(os.environ, SLURM_CONF=conf)
    os.environ["SLURM_CONF"] = conf
    m = os.path.join(d, "munge")
    run_daemon(
        [
            "munged",
            "--force",
            f"--socket={m}/munge.socket",
            f"--key-file={m}/munge.key",
            f"--pid-file={d}/munged.pid",
            f"--log-file={d}/munged.log",
            f"--seed-file={m}/munged.seed",
        ],
        d,
        "munged",
    )
    wait_for(
        "munged", lambda: os.path.exists(f"{d}/munged.pid") and os.path.exists(f"{m}/munge.socket")
    )
    run_daemon(["slurmctld", "-f", conf, "-i"], d, "slurmctld")
    wait_for(
        "slurmctld",
        lambda: subprocess.run(["scontrol", "ping"], env=env, capture_output=True).returncode == 0,
    )
    run_daemon(["slurmd", "-f", conf, "-N", NODE], d, "slurmd")

    def node_idle() -> bool:
        r = subprocess.run(
            ["sinfo", "-h", "-N", "-o", "%T"], env=env, capture_output=True, text=True
        )
        return r.returncode == 0 and r.stdout.strip() in ("idle", "mixed", "allocated")

    wait_for("the node", node_idle, 60)
    print(f"SLURM_CONF={conf}")


def pid_of(d: str, name: str) -> int | None:
    try:
        with open(os.path.join(d, name + ".pid")) as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def stop(d: str) -> None:
    d = os.path.abspath(d)
    for name in DAEMONS:
        pid = pid_of(d, name)
        if pid is None or not alive(pid):
            continue
        os.kill(pid, signal.SIGTERM)
        end = time.monotonic() + 15
        while alive(pid) and time.monotonic() < end:
            time.sleep(0.1)
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("start", "stop"):
        raise SystemExit(__doc__)
    (start if sys.argv[1] == "start" else stop)(sys.argv[2])
