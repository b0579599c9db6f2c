"""A worker ends within its grace period even when its main thread never gets
back to the loop (stuck in a database call, say): SIGTERM is taken by a thread
of its own (bot.slack.workers.StopRequest)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

STUCK_WORKER = """
import sys, threading
from bot.slack.workers import StopRequest
StopRequest(grace_s=1.0)
print("ready", flush=True)
stuck = threading.Lock()
stuck.acquire()
stuck.acquire()  # the main thread never comes back
"""


def test_a_stuck_worker_ends_at_the_grace_period_after_sigterm():
    worker = subprocess.Popen(
        [sys.executable, "-c", STUCK_WORKER],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert worker.stdout.readline().strip() == "ready"
        started = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=10) == 0
        assert 0.5 < time.monotonic() - started < 5
    finally:
        worker.kill()
        worker.wait()


def test_without_sigterm_the_worker_keeps_running():
    worker = subprocess.Popen(
        [sys.executable, "-c", STUCK_WORKER], stdout=subprocess.PIPE, text=True
    )
    try:
        assert worker.stdout.readline().strip() == "ready"
        time.sleep(1.5)
        assert worker.poll() is None
    finally:
        worker.kill()
        worker.wait()
