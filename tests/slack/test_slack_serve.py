"""``mpbot serve`` itself, as a subprocess: acks in one process, the work in worker processes.

The other Slack tests run the app in-process (its work in a thread pool);
this one runs the production path end to end: the HTTP process verifies,
commits the job and acks, a worker process claims the job and answers the
recording fake Slack, and SIGTERM stops both in order. The faults (kills,
Slack down, replicas) are in test_slack_durable_work.py.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from slackmsg import BOT_TOKEN, SIGNING_SECRET, TEAM, block_text


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()] if path.exists() else []


def _cmdline(pid: int) -> bytes:
    return Path(f"/proc/{pid}/cmdline").read_bytes()


def _all_gone(pids: list[int], timeout: float = 5.0) -> bool:
    """Whether every process in ``pids`` has exited (multiprocessing's resource tracker
    among them leaves a moment after its parent)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(Path(f"/proc/{pid}").exists() for pid in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def served(slack, tmp_path, signed_client) -> Iterator[tuple[subprocess.Popen, object]]:
    port = _free_port()
    env = {
        **os.environ,
        "SLACK_BOT_TOKEN": BOT_TOKEN,
        "SLACK_SIGNING_SECRET": SIGNING_SECRET,
        "SLACK_API_URL": slack.url + "/api/",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.db'}",
        "LOG_LEVEL": "INFO",
    }
    for name in ("SLACK_APP_TOKEN", "SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET"):
        env.pop(name, None)
    log = (tmp_path / "serve.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        cwd=tmp_path,
        stderr=log,
    )
    health = f"http://127.0.0.1:{port}/healthz"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(health, timeout=1):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError((tmp_path / "serve.log").read_text()) from None
            time.sleep(0.1)
    try:
        yield process, signed_client(f"http://127.0.0.1:{port}")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        log.close()


def test_serve_answers_through_a_worker_process_and_stops_cleanly(served, slack, tmp_path):
    process, client = served
    workers = _children(process.pid)
    assert workers, "mpbot serve started no worker process"

    sent = client.command("100 2", response_url=slack.response_url())
    assert (sent.status, sent.body) == (200, "")
    (answer,) = slack.wait(slack.responses)
    assert answer.body["response_type"] == "ephemeral"
    assert "about *50 hours" in block_text(answer.body)  # 100 h / 2

    # An event, then Slack's redelivery of it: the worker runs it once
    # (the dedupe in the HTTP process must not stop the worker's re-dispatch).
    dm = {
        "type": "message",
        "channel_type": "im",
        "channel": "D0ALICE",
        "user": "U0ALICE",
        "text": "100 2",
        "ts": "1700000000.000100",
        "event_ts": "1700000000.000100",
    }
    assert client.event(dm, event_id="Ev1").status == 200
    client.event(dm, event_id="Ev1", headers={"X-Slack-Retry-Num": "1"})
    slack.wait(lambda: slack.api("chat.postMessage"))

    # The records' buttons go to the workers too.
    client.interact(
        {
            "type": "block_actions",
            "user": {"id": "U0ALICE", "team_id": TEAM},
            "trigger_id": "1.2.trigger",
            "container": {"type": "message"},
            "actions": [
                {
                    "type": "button",
                    "action_id": "mp_record_open",
                    "block_id": "b",
                    "value": "en",
                    "action_ts": "1.2",
                }
            ],
        }
    )
    slack.wait(lambda: slack.api("views.open"))
    time.sleep(0.3)
    assert len(slack.api("chat.postMessage")) == 1

    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=20) == 0
    assert _all_gone(workers)
    log = (tmp_path / "serve.log").read_text()
    assert BOT_TOKEN not in log and SIGNING_SECRET not in log
