#!/usr/bin/env python3
"""A real OpenSSH server on 127.0.0.1 for tests and benchmarks, in a temporary folder.

    ssh_server.py start DIR   generates a host key and a user key, writes DIR/sshd_config and
                              a client config DIR/ssh_config (host "probaudit-test": this
                              server, the user key, the host key as the only known host, batch
                              mode), starts Debian's sshd on a free loopback port (as root) and
                              waits until it answers; prints the client config's path
    ssh_server.py stop DIR    stops that sshd by the pid file it wrote (never by name); the
                              sessions it started end with their connections

The sessions log in as the user running this script, with the generated key only.
"""

import getpass
import os
import signal
import socket
import subprocess
import sys
import time

HOST = "probaudit-test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def keygen(path: str) -> None:
    if not os.path.exists(path):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", path], check=True)


def write_configs(d: str, port: int) -> None:
    keygen(f"{d}/host_key")
    keygen(f"{d}/user_key")
    with open(f"{d}/user_key.pub") as f, open(f"{d}/authorized_keys", "w") as out:
        out.write(f.read())
    os.chmod(f"{d}/authorized_keys", 0o600)
    with open(f"{d}/sshd_config", "w") as f:
        f.write(f"""Port {port}
ListenAddress 127.0.0.1
HostKey {d}/host_key
PidFile {d}/sshd.pid
AuthorizedKeysFile {d}/authorized_keys
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PrintMotd no
LogLevel ERROR
""")
    with open(f"{d}/host_key.pub") as f:
        host_key = " ".join(f.read().split()[:2])
    with open(f"{d}/known_hosts", "w") as f:
        f.write(f"[127.0.0.1]:{port} {host_key}\n")
    with open(f"{d}/ssh_config", "w") as f:
        f.write(f"""Host {HOST}
    HostName 127.0.0.1
    Port {port}
    User {getpass.getuser()}
    IdentityFile {d}/user_key
    IdentitiesOnly yes
    UserKnownHostsFile {d}/known_hosts
    StrictHostKeyChecking yes
    BatchMode yes
""")


def start(d: str) -> None:
    d = os.path.abspath(d)
    os.makedirs(d, exist_ok=True)
    os.makedirs("/run/sshd", exist_ok=True)  # sshd's privilege separation folder
    port = free_port()
    write_configs(d, port)
    log = open(f"{d}/sshd.log", "w")
    subprocess.Popen(
        ["/usr/sbin/sshd", "-D", "-e", "-f", f"{d}/sshd_config"],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    end = time.monotonic() + 30
    while time.monotonic() < end:
        r = subprocess.run(["ssh", "-F", f"{d}/ssh_config", HOST, "true"], capture_output=True)
        if r.returncode == 0:
            print(f"{d}/ssh_config")
            return
        time.sleep(0.2)
    raise SystemExit(f"ssh_server: sshd did not answer within 30 s; see {d}/sshd.log")


def stop(d: str) -> None:
    try:
        with open(os.path.join(os.path.abspath(d), "sshd.pid")) as f:
            pid = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    end = time.monotonic() + 10
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("start", "stop"):
        raise SystemExit(__doc__)
    (start if sys.argv[1] == "start" else stop)(sys.argv[2])
