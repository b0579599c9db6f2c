"""``mpbot serve`` as a real subprocess group, started, stopped and killed like a pod."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from slackmsg import BOT_TOKEN, SIGNING_SECRET

# Leases, polls and backoffs short enough for a test to see a crash's takeover and
# a retry's second attempt within seconds.
FAST = {
    "job_lease_s": 2,
    "job_poll_s": 0.1,
    "outbox_backoff_s": 0.25,
    "outbox_backoff_max_s": 2,
    "shutdown_grace_s": 4,
    "slack_timeout_s": 2,
    "slack_retry_backoff_s": 0.05,
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def children(pid: int) -> list[int]:
    """Children of every thread of ``pid`` (a replacement worker is the supervisor thread's)."""
    found = []
    for path in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(child) for child in path.read_text().split()]
        except FileNotFoundError:  # the thread ended meanwhile
            pass
    return found


def worker_pids(pid: int) -> list[int]:
    """The worker processes (multiprocessing's resource tracker left out)."""
    found = []
    for child in children(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
        except FileNotFoundError:
            pass
    return found


class Served:
    """One replica: ``mpbot serve`` in its own process group, logging to ``log_path``."""

    def __init__(self, slack_url: str, database_url: str, log_path: Path, **settings: object):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.env = {
            **os.environ,
            "SLACK_BOT_TOKEN": BOT_TOKEN,
            "SLACK_SIGNING_SECRET": SIGNING_SECRET,
            "SLACK_API_URL": slack_url + "/api/",
            "DATABASE_URL": database_url,
            "LOG_LEVEL": "INFO",
            # The test's own (a pod's volume): restarts in one test share it.
            "JOB_SPOOL_DIR": str(log_path.parent / "spool"),
            **{name.upper(): str(value) for name, value in settings.items()},
        }
        for name in ("SLACK_APP_TOKEN", "SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET"):
            self.env.pop(name, None)
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60.0) -> Served:
        log = self.log_path.open("a")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            env=self.env,
            cwd=self.log_path.parent,
            stderr=log,
            start_new_session=True,  # its own process group, as a pod's processes are
        )
        log.close()
        deadline = time.monotonic() + timeout
        while self.health() is None:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(self.log())
            time.sleep(0.1)
        return self

    def health(self) -> int | None:
        """/healthz's status, or None while nothing answers."""
        try:
            with urllib.request.urlopen(self.url + "/healthz", timeout=2) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code
        except OSError:
            return None

    def workers(self) -> list[int]:
        return worker_pids(self.process.pid)

    def wait_for_workers(self, count: int, timeout: float = 60.0) -> list[int]:
        deadline = time.monotonic() + timeout
        while len(pids := self.workers()) < count:
            assert time.monotonic() < deadline, self.log()
            time.sleep(0.1)
        return pids

    def kill_group(self) -> None:
        """A pod killed: SIGKILL to every process of the group at once."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def signal_workers(self, signum: int) -> list[int]:
        pids = self.workers()
        for pid in pids:
            os.kill(pid, signum)
        return pids

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()


@contextmanager
def replicas_in(
    slack_url: str, folder: Path, defaults: dict, workers: int = 0
) -> Iterator[Callable[..., Served]]:
    """``replica(database_url, **settings)`` starts ``mpbot serve`` in ``folder`` (one
    spool folder for all: a pod's volume) with ``defaults`` under ``settings``, and
    waits for ``workers`` of its workers; every replica is killed at the end."""
    started: list[Served] = []

    def replica(database_url: str, **settings: object) -> Served:
        log = folder / f"serve-{len(started)}.log"
        served = Served(slack_url, database_url, log, **(defaults | settings))
        started.append(served)
        served.start()
        if workers:
            served.wait_for_workers(workers)
        return served

    try:
        yield replica
    finally:
        for served in started:
            served.close()


def answers_by_hook(slack, prefix: str) -> Counter:
    """Answers Slack took per command, by its response_url's hook (those starting with
    ``prefix``: each test file numbers its commands under its own letter)."""
    return Counter(
        call.path.split("/")[1]
        for call in slack.calls
        if call.path.startswith("/" + prefix) and not call.scripted
    )
