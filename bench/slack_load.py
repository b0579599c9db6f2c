"""Closed-loop load on the Slack app: signed slash commands, 16 clients, loopback.

Runs, in one go, the real ``mpbot serve`` (its HTTP process acks; its worker
processes, niced, do the work after each ack) and a bare Bolt app on the same
server stack (sync App on waitress, same thread count) that acks every command
with a fixed text, each in its own process(es). A third process stands in for
Slack (Web API and response_url) and counts the answers the bot sends. Prints
throughput, p50 and p99 of both and their ratio, next to the issue's targets:
zero errors, our p50 within 1.25x of the bare app, p99 under 100 ms. It also
prints mpbot's time to answer: from sending the command to the fake Slack
receiving the reply on the command's ``response_url`` (which carries its send
time), so work deferred past the ack cannot hide: the clients send as fast as
the acks come back, faster than the workers answer, so on a small machine the
answers queue up and the time to answer measures that backlog.

    python bench/slack_load.py [--clients 16] [--seconds 10]
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

SECRET = "bench-signing-secret-0123456789"
TOKEN = "xoxb-bench-0000-token"
TARGET_P50_RATIO = 1.25
TARGET_P99_MS = 100.0


# -- the processes under test ------------------------------------------------


def serve_bare(port: int) -> None:
    """A bare Bolt app: same App class, WSGI adapter, server and threads as mpbot."""
    import waitress
    from slack_bolt import App
    from slack_bolt.adapter.wsgi import SlackRequestHandler
    from slack_bolt.authorization import AuthorizeResult

    from bot.slack.server import THREADS

    def authorize(**_: object) -> AuthorizeResult:
        return AuthorizeResult(
            enterprise_id=None,
            team_id="T0BENCH",
            bot_token=TOKEN,
            bot_user_id="U0BOT",
            bot_id="B0BOT",
        )

    # Configured like mpbot's app: the ack is the HTTP response, no ack polling.
    app = App(signing_secret=SECRET, authorize=authorize, process_before_response=True)

    @app.command("/mpestimate")
    def fixed(ack) -> None:
        ack("fixed text")

    waitress.serve(
        SlackRequestHandler(app), host="127.0.0.1", port=port, threads=THREADS, _quiet=True
    )


def serve_fake_slack(port: int) -> None:
    """Answers every Web API call with ok; counts and times response_url posts."""
    answered = [0]
    waited_ms: list[float] = []
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path.startswith("/hook"):
                sent_ns = int(self.path.rsplit("/", 1)[1])  # CLOCK_MONOTONIC is system-wide
                with lock:
                    answered[0] += 1
                    waited_ms.append((time.monotonic_ns() - sent_ns) / 1e6)
            body = json.dumps(
                {
                    "ok": True,
                    "user_id": "U0BOT",
                    "bot_id": "B0BOT",
                    "team_id": "T0BENCH",
                    "user": {"locale": "en-US"},
                }
            ).encode()
            self._send(body)

        def do_GET(self) -> None:
            if self.path == "/times":  # the answer times since the last ask, in ms
                with lock:
                    body = json.dumps(waited_ms).encode()
                    waited_ms.clear()
                self._send(body)
                return
            self._send(str(answered[0]).encode())

        def _send(self, body: bytes) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


# -- the load ----------------------------------------------------------------


def signed_command(user: str, response_url: str) -> tuple[bytes, dict]:
    body = urllib.parse.urlencode(
        {
            "team_id": "T0BENCH",
            "channel_id": "C0BENCH",
            "user_id": user,
            "command": "/mpestimate",
            "text": "100 2",
            "response_url": response_url,
            "trigger_id": "1.2.3",
        }
    ).encode()
    ts = str(int(time.time()))
    signature = (
        "v0=" + hmac.new(SECRET.encode(), f"v0:{ts}:".encode() + body, hashlib.sha256).hexdigest()
    )
    return body, {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": signature,
    }


def load(port: int, clients: int, seconds: float, response_url: str) -> dict:
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        mine: list[float] = []
        failed = 0
        while time.monotonic() < stop:
            url = f"{response_url}/{time.monotonic_ns()}"
            body, headers = signed_command(f"U0USER{index:02d}", url)
            started = time.perf_counter()
            try:
                connection.request("POST", "/slack/events", body, headers)
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    failed += 1
            except (OSError, http.client.HTTPException):
                failed += 1
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            mine.append(time.perf_counter() - started)
        with lock:
            latencies.extend(mine)
            errors[0] += failed

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    latencies.sort()
    return {
        "requests": len(latencies),
        "errors": errors[0],
        "rps": len(latencies) / elapsed,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_up(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{url} did not come up")


def wait_bare_up(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"bare app on {port} did not come up")


def answered(fake_port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{fake_port}/count", timeout=5) as response:
        return int(response.read())


def answer_times(fake_port: int) -> list[float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{fake_port}/times", timeout=5) as response:
        return sorted(json.loads(response.read()))


def settled(fake_port: int) -> int:
    """The answer count once it has stopped moving for a second."""
    last = -1
    while (count := answered(fake_port)) != last:
        last = count
        time.sleep(1.0)
    return count


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--serve-bare", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--serve-fake-slack", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_bare:
        serve_bare(args.serve_bare)
        return 0
    if args.serve_fake_slack:
        serve_fake_slack(args.serve_fake_slack)
        return 0

    fake_port, bot_port, bare_port = free_port(), free_port(), free_port()
    fake_url = f"http://127.0.0.1:{fake_port}"
    workdir = tempfile.mkdtemp(prefix="mpbot-bench-")
    env = {
        **os.environ,
        "SLACK_BOT_TOKEN": TOKEN,
        "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_API_URL": fake_url + "/api/",
        "DATABASE_URL": f"sqlite:///{workdir}/bench.db",
        "LOG_LEVEL": "WARNING",
    }
    for name in ("SLACK_APP_TOKEN", "SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET"):
        env.pop(name, None)
    me = str(Path(__file__).resolve())
    processes = [
        subprocess.Popen([sys.executable, me, "--serve-fake-slack", str(fake_port)], env=env),
        subprocess.Popen(
            [sys.executable, "-m", "bot", "serve", "--host", "127.0.0.1", "--port", str(bot_port)],
            env=env,
            cwd=workdir,
        ),
        subprocess.Popen([sys.executable, me, "--serve-bare", str(bare_port)], env=env),
    ]
    try:
        wait_bare_up(fake_port)
        wait_until_up(f"http://127.0.0.1:{bot_port}/healthz")
        wait_bare_up(bare_port)
        hook = fake_url + "/hook/T0BENCH/1"
        load(bare_port, args.clients, 1.0, hook)  # warm up both
        load(bot_port, args.clients, 1.0, hook)
        before = settled(fake_port)  # the warm-up's answers are all in
        answer_times(fake_port)  # and not timed
        bare = load(bare_port, args.clients, args.seconds, hook)
        ours = load(bot_port, args.clients, args.seconds, hook)
        drain_started = time.monotonic()
        while (
            answered(fake_port) - before < ours["requests"]
            and time.monotonic() - drain_started < 120
        ):
            time.sleep(0.2)  # acks run ahead of the answers under saturation; wait for the rest
        ours["answered"] = answered(fake_port) - before
        ours["drain_s"] = time.monotonic() - drain_started
        ours["answers_per_s"] = ours["answered"] / (args.seconds + ours["drain_s"])
        waited = answer_times(fake_port)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=10)

    ratio = ours["p50_ms"] / bare["p50_ms"]
    print(
        f"{args.clients} clients, {args.seconds:g} s each, signed `/mpestimate 100 2` on loopback"
    )
    print(
        f"{'':10}{'requests':>10}{'errors':>8}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'answered':>10}"
    )
    for name, row in (("bare Bolt", bare), ("mpbot", ours)):
        print(
            f"{name:10}{row['requests']:>10}{row['errors']:>8}{row['rps']:>9.0f}"
            f"{row['p50_ms']:>9.1f}{row['p99_ms']:>9.1f}{row.get('answered', '-'):>10}"
        )
    print(
        f"p50 ratio mpbot/bare: {ratio:.2f}x (target <= {TARGET_P50_RATIO}x); "
        f"throughput ratio: {ours['rps'] / bare['rps']:.2f}x"
    )
    print(
        f"mpbot answers (response_url posts): {ours['answered']} of {ours['requests']}, "
        f"the last {ours['drain_s']:.1f} s after the load stopped; "
        f"sustained {ours['answers_per_s']:.0f} answers/s"
    )
    if waited:
        p99 = waited[min(len(waited) - 1, int(len(waited) * 0.99))]
        print(
            f"mpbot time to answer (command sent -> reply received): "
            f"p50 {statistics.median(waited):.1f} ms, p99 {p99:.1f} ms"
        )
    checks = {
        "zero errors": ours["errors"] == 0 and bare["errors"] == 0,
        f"p50 within {TARGET_P50_RATIO}x of bare": ratio <= TARGET_P50_RATIO,
        f"p99 < {TARGET_P99_MS:g} ms": ours["p99_ms"] < TARGET_P99_MS,
        "every command answered": ours["answered"] == ours["requests"],
    }
    for name, ok in checks.items():
        print(f"  {'PASS' if ok else 'FAIL'}  {name}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
