"""Time to answer on loopback: ``mpbot serve`` beside three bare Bolt apps, in one run.

Five processes: the real ``mpbot serve`` (its HTTP process verifies, commits
each command's job and acks; its worker processes claim the jobs and answer),
two bare Bolt apps on the same server stack (sync App on waitress) that ack and
then answer on the ``response_url`` from a Bolt lazy listener, a bare async
Bolt app ("async same": AsyncApp on uvicorn, an ASGI server, answering what
mpbot answers from an async lazy listener), and a stand-in for Slack (Web API
and ``response_url``). One bare app ("bare same") answers
what mpbot answers (the core's reply as the same Block Kit message): Bolt doing
our job without the durable work, so mpbot against it is the price of the jobs,
the outbox, the spool and the journal. The other ("bare fixed") answers a fixed
text: Bolt's own floor, printed beside it. Each command's ``response_url``
carries its send time, so the stand-in measures the time to answer: command
sent -> answer received, the delay a user sees, not only the ack.

Two loads per app: paced (``--rate`` commands/s, open loop, as Slack sends
them) and capacity (``--clients`` closed-loop clients sending as fast as the
acks come back; answers/s counted until the last answer arrives). Targets
(issue 20): paced p99 time to answer < 250 ms; answer capacity >= 0.8x the
bare async app answering the same; every ack < 3 s; every command answered.
mpbot runs with its fair-sharing limits raised out of the way (the bench's 16
users send 150 commands/s). Beside
the capacity, the CPU each answer cost (the server process and its children,
from ``/proc``): on a shared machine it moves far less than the wall-clock rate.

Like with like: the apps run on the same machine against the same stand-in
and load, behind the same server (waitress, ``bot.slack.server.THREADS``
request threads), and have as many threads for the answers: a bare app's
lazy-listener pool is as large as mpbot's worker threads (``WORK_PROCESSES``
x ``bot.slack.workers.THREADS``). A bare app is one process, as Bolt runs
(its listeners share one GIL); mpbot spreads its answers over its worker
processes. The commands vary (numbers, units, languages, named setups), so
neither side answers one text over and over. On a shared machine other work
lands on one app's turn more than another's, so the apps take turns for
``--rounds`` rounds (order alternating) and the ratios are given per round,
with the median.

    python bench/slack_load.py [--rate 150] [--seconds 10] [--clients 16] [--rounds 3]
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import http.client
import itertools
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
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

SECRET = "bench-signing-secret-0123456789"
# What the users ask: a mix of the reader's kinds (plain numbers, units, a named
# setup, Arabic with Arabic-Indic digits, a ratio question); each command gets
# its own number, so no two texts in a run are alike.
ASKS = (
    "{n} 2",
    "training takes {n} hours on a V100 with resnet50, how fast with amp?",
    "كم سيستغرق تدريب {n} ساعة مع fp16 على A100",
    "bert-large {n}h fp32, bf16?",
    "{n} minutes fp32 ratio 1.8",
    "how much faster is mixed precision on an A100 for a {n}M parameter transformer?",
)
TOKEN = "xoxb-bench-0000-token"
TARGET_PACED_P99_MS = 250.0
TARGET_CAPACITY_RATIO = 0.8
TARGET_ACK_MAX_S = 3.0
USERS = 16
# The baselines: Bolt's floor (a fixed text), Bolt answering what mpbot answers, and
# an async Bolt app (AsyncApp on uvicorn) answering the same: the target's baseline.
BARE = "bare fixed"
SAME = "bare same"
ASYNC = "async same"


# -- the processes under test ------------------------------------------------


def serve_bare(port: int, same_answer: bool) -> None:
    """A bare Bolt app: ack, then answer on the response_url (Bolt's lazy listener).

    With ``same_answer`` it answers what mpbot answers (the core's reply as
    Block Kit, in the listener's thread); without, a fixed text: Bolt's own floor.
    """
    import waitress
    from slack_bolt import App
    from slack_bolt.adapter.wsgi import SlackRequestHandler
    from slack_bolt.authorization import AuthorizeResult

    from bot.settings import Settings
    from bot.slack.server import THREADS
    from bot.slack.workers import THREADS as WORKER_THREADS

    answer_threads = Settings(_env_file=None).work_processes * WORKER_THREADS

    def authorize(**_: object) -> AuthorizeResult:
        return AuthorizeResult(
            enterprise_id=None,
            team_id="T0BENCH",
            bot_token=TOKEN,
            bot_user_id="U0BOT",
            bot_id="B0BOT",
        )

    app = App(
        signing_secret=SECRET,
        authorize=authorize,
        process_before_response=True,
        listener_executor=ThreadPoolExecutor(max_workers=answer_threads),
    )

    def ack_now(ack) -> None:
        ack()

    def answer(respond, command: dict) -> None:
        if not same_answer:
            respond(text="fixed text", response_type="ephemeral")
            return
        from bot.models import Channel
        from bot.slack.asks import Ask
        from bot.slack.blocks import reply_message

        text = command.get("text") or ""
        turn = Ask(text, Channel.COMMAND).answer()
        message = reply_message(turn, Ask(text, Channel.COMMAND, turn.reply.lang), shareable=True)
        respond(**message, response_type="ephemeral")

    app.command("/mpestimate")(ack=ack_now, lazy=[answer])
    waitress.serve(
        SlackRequestHandler(app), host="127.0.0.1", port=port, threads=THREADS, _quiet=True
    )


def serve_bare_async(port: int) -> None:
    """A bare async Bolt app (AsyncApp on uvicorn, an ASGI server) answering what mpbot
    answers: ack, then the core's reply as Block Kit from an async lazy listener,
    sent with Bolt's own ``respond`` (aiohttp). The core is CPU work with no I/O,
    so it runs on the event loop, as such an app would write it."""
    import uvicorn
    from slack_bolt.adapter.asgi.async_handler import AsyncSlackRequestHandler
    from slack_bolt.async_app import AsyncApp
    from slack_bolt.authorization import AuthorizeResult

    from bot.models import Channel
    from bot.slack.asks import Ask
    from bot.slack.blocks import reply_message

    async def authorize(**_: object) -> AuthorizeResult:
        return AuthorizeResult(
            enterprise_id=None,
            team_id="T0BENCH",
            bot_token=TOKEN,
            bot_user_id="U0BOT",
            bot_id="B0BOT",
        )

    app = AsyncApp(signing_secret=SECRET, authorize=authorize, process_before_response=True)

    async def ack_now(ack) -> None:
        await ack()

    async def answer(respond, command: dict) -> None:
        text = command.get("text") or ""
        turn = Ask(text, Channel.COMMAND).answer()
        message = reply_message(turn, Ask(text, Channel.COMMAND, turn.reply.lang), shareable=True)
        await respond(**message, response_type="ephemeral")

    app.command("/mpestimate")(ack=ack_now, lazy=[answer])
    uvicorn.run(AsyncSlackRequestHandler(app), host="127.0.0.1", port=port, log_level="warning")


def serve_fake_slack(port: int) -> None:
    """Answers every Web API call with ok; times each response_url post per app."""
    waited: dict[str, list[float]] = {}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path.startswith("/hook/"):
                _, _, app, sent_ns = self.path.split("/")[:4]
                took = (time.monotonic_ns() - int(sent_ns)) / 1e6  # CLOCK_MONOTONIC is system-wide
                with lock:
                    waited.setdefault(app, []).append(took)
            body = {"ok": True, "user_id": "U0BOT", "bot_id": "B0BOT", "team_id": "T0BENCH"}
            body["user"] = {"locale": "en-US"}
            self._send(json.dumps(body).encode())

        def do_GET(self) -> None:  # /times/<app>: that app's answer times since the last ask
            app = self.path.rsplit("/", 1)[-1]
            with lock:
                body = json.dumps(waited.pop(app, [])).encode()
            self._send(body)

        def _send(self, body: bytes) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    class SlackSized(ThreadingHTTPServer):
        request_queue_size = 1024  # Slack's edge does not reset a burst (the default is 5)

    server = SlackSized(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    server.serve_forever()


# -- the load ----------------------------------------------------------------


_asked = itertools.count()


def ask() -> str:
    """The next command's text, unlike any before it (Arabic asks get Arabic-Indic digits)."""
    index = next(_asked)
    text = ASKS[index % len(ASKS)]
    number = str(10 + index)
    if any("\u0600" <= char <= "\u06ff" for char in text):
        number = number.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    return text.format(n=number)


def signed_command(user: str, response_url: str, text: str = "100 2") -> tuple[bytes, dict]:
    body = urllib.parse.urlencode(
        {
            "team_id": "T0BENCH",
            "channel_id": "C0BENCH",
            "user_id": user,
            "command": "/mpestimate",
            "text": text,
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


class Sender:
    """Signed commands over kept-alive connections, one per thread; ack times recorded."""

    def __init__(self, port: int, hook: str) -> None:
        self.port = port
        self.hook = hook
        self.acks: list[float] = []
        self.errors = 0
        self._local = threading.local()
        self._lock = threading.Lock()

    def send(self, index: int) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = self._local.connection = http.client.HTTPConnection(
                "127.0.0.1", self.port, timeout=30
            )
        body, headers = signed_command(
            f"U0USER{index % USERS:02d}", f"{self.hook}/{time.monotonic_ns()}", ask()
        )
        started = time.perf_counter()
        ok = False
        try:
            connection.request("POST", "/slack/events", body, headers)
            response = connection.getresponse()
            response.read()
            ok = response.status == 200
        except (OSError, http.client.HTTPException):
            connection.close()
            self._local.connection = None
        took = time.perf_counter() - started
        with self._lock:
            self.acks.append(took)
            self.errors += not ok


def paced(port: int, hook: str, rate: float, seconds: float) -> Sender:
    """Open loop: command i leaves at i/rate, whatever the acks do."""
    sender = Sender(port, hook)
    with ThreadPoolExecutor(max_workers=64) as pool:
        began = time.monotonic()
        for index in range(int(rate * seconds)):
            pause = began + index / rate - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            pool.submit(sender.send, index)
    return sender


def closed_loop(port: int, hook: str, clients: int, seconds: float) -> tuple[Sender, float]:
    """Each client sends its next command as soon as the last one is acked."""
    sender = Sender(port, hook)
    stop = time.monotonic() + seconds

    def client(offset: int) -> None:
        index = offset
        while time.monotonic() < stop:
            sender.send(index)
            index += clients

    began = time.monotonic()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sender, began


def answer_times(fake_port: int, app: str) -> list[float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{fake_port}/times/{app}", timeout=5) as r:
        return json.loads(r.read())


def collect(fake_port: int, app: str, expected: int, timeout: float = 120.0) -> list[float]:
    """Every answer for ``app`` (up to ``expected``), waiting for stragglers."""
    times: list[float] = []
    deadline = time.monotonic() + timeout
    quiet_since = time.monotonic()
    while len(times) < expected and time.monotonic() < deadline:
        more = answer_times(fake_port, app)
        if more:
            times += more
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since > 10:  # nothing for 10 s: the rest is lost
            break
        time.sleep(0.2)
    return sorted(times)


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_up(port: int, path: str | None = None, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if path is None:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
            else:
                urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing on port {port}")


def cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU time (user + system) of a process and of all its descendants, from /proc.

    Wall-clock capacity on a shared machine moves with whatever else runs; the
    CPU a command costs each app moves far less, so it is printed beside it.
    """
    tick = os.sysconf("SC_CLK_TCK")

    def own(process: int) -> float:
        fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / tick  # utime, stime

    def children(process: int) -> list[int]:
        found = []
        for task in Path(f"/proc/{process}/task").iterdir():
            found += [int(child) for child in (task / "children").read_text().split()]
        return found

    try:
        descendants, stack = 0.0, children(pid)
        while stack:
            child = stack.pop()
            try:
                descendants += own(child)
                stack += children(child)
            except OSError:  # ended between the listing and the read
                pass
        return own(pid), descendants
    except OSError:  # no /proc (not Linux): no CPU figures
        return float("nan"), float("nan")


def measure(app: str, port: int, fake: str, fake_port: int, args, pid: int) -> dict:
    hook = f"{fake}/hook/{app}"
    for sender in (paced(port, hook, 50, 1.0),):  # warm up (users.info, caches)
        collect(fake_port, app, len(sender.acks), timeout=30)
    calm = paced(port, hook, args.rate, args.seconds)
    calm_answers = collect(fake_port, app, len(calm.acks))
    time.sleep(1.0)
    cpu_before = cpu_seconds(pid)
    busy, began = closed_loop(port, hook, args.clients, args.seconds)
    busy_answers = collect(fake_port, app, len(busy.acks))
    cpu_after = cpu_seconds(pid)
    answered = max(1, len(busy_answers))
    own_ms, workers_ms = ((a - b) * 1000 / answered for a, b in zip(cpu_after, cpu_before))
    # Answers were timed from each command's send; the last one came this long after the start.
    span = max(
        (time.monotonic() - began) if not busy_answers else 0.0,
        args.seconds + (max(busy_answers) / 1000 if busy_answers else 0.0),
    )
    return {
        "paced": {
            "sent": len(calm.acks),
            "errors": calm.errors,
            "answered": len(calm_answers),
            "ack_p99_ms": pct(calm.acks, 0.99) * 1000,
            "ack_max_s": max(calm.acks),
            "tta_p50_ms": statistics.median(calm_answers) if calm_answers else float("nan"),
            "tta_p99_ms": pct(calm_answers, 0.99),
        },
        "capacity": {
            "sent": len(busy.acks),
            "errors": busy.errors,
            "answered": len(busy_answers),
            "acks_per_s": len(busy.acks) / args.seconds,
            "ack_max_s": max(busy.acks),
            "answers_per_s": len(busy_answers) / span,
            "tta_p99_ms": pct(busy_answers, 0.99),
            "cpu_ms": own_ms + workers_ms,
            "cpu_workers_ms": workers_ms,
        },
    }


def take_turns(
    apps: dict[str, tuple[str, int, int]], fake: str, fake_port: int, args
) -> list[dict]:
    """``args.rounds`` rounds of every app, the order reversed every other round."""
    rounds = []
    for number in range(args.rounds):
        order = list(apps.items()) if number % 2 == 0 else list(apps.items())[::-1]
        results = {
            name: measure(hook, port, fake, fake_port, args, pid)
            for name, (hook, port, pid) in order
        }
        rounds.append({name: results[name] for name in apps})
    return rounds


# A table's columns: (heading, width, the figure's key, its format and unit).
COUNTS = (
    ("sent", 7, "sent", "{}"),
    ("errors", 7, "errors", "{}"),
    ("answered", 9, "answered", "{}"),
)
PACED_COLUMNS = (
    *COUNTS,
    ("ack p99", 9, "ack_p99_ms", "{:.1f}ms"),
    ("ack max", 9, "ack_max_s", "{:.2f}s"),
    ("answer p50", 11, "tta_p50_ms", "{:.1f}ms"),
    ("p99", 9, "tta_p99_ms", "{:.0f}ms"),
)
CAPACITY_COLUMNS = (
    *COUNTS,
    ("acks/s", 8, "acks_per_s", "{:.0f}"),
    ("ack max", 9, "ack_max_s", "{:.2f}s"),
    ("answers/s", 10, "answers_per_s", "{:.0f}"),
    ("answer p99", 11, "tta_p99_ms", "{:.0f}ms"),
    ("CPU/answer", 11, "cpu_ms", "{:.2f}ms"),
    ("in workers", 11, "cpu_workers_ms", "{:.2f}ms"),
)


def _table(rounds: list[dict], phase: str, columns: tuple) -> None:
    """One row per round and app of one phase's figures, under a heading line."""
    print(" " * 14 + "".join(f"{heading:>{width}}" for heading, width, _, _ in columns))
    for number, results in enumerate(rounds, 1):
        for name, row in results.items():
            cells = "".join(
                f"{form.format(row[phase][key]):>{width}}" for _, width, key, form in columns
            )
            print(f"{number} {name:12}{cells}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rate", type=float, default=150.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--database-url", help="mpbot's DATABASE_URL (default: a fresh SQLite)")
    parser.add_argument("--serve-bare", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--same-answer", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--serve-async", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--serve-fake-slack", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_bare:
        serve_bare(args.serve_bare, args.same_answer)
        return 0
    if args.serve_async:
        serve_bare_async(args.serve_async)
        return 0
    if args.serve_fake_slack:
        serve_fake_slack(args.serve_fake_slack)
        return 0

    fake_port, bot_port, bare_port, same_port = free_port(), free_port(), free_port(), free_port()
    async_port = free_port()
    fake = f"http://127.0.0.1:{fake_port}"
    workdir = tempfile.mkdtemp(prefix="mpbot-bench-")
    env = {
        **os.environ,
        "SLACK_BOT_TOKEN": TOKEN,
        "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_API_URL": fake + "/api/",
        "DATABASE_URL": args.database_url or f"sqlite:///{workdir}/bench.db",
        "JOB_SPOOL_DIR": f"{workdir}/spool",
        "LOG_LEVEL": "WARNING",
        # The bench's 16 users send 150 commands/s: the intake limits (fair sharing)
        # would answer most with "slow down". Their buckets still run, out of the way.
        "USER_REQUESTS_BURST": "1000000",
        "USER_REQUESTS_PER_MINUTE": "1000000000",
        "TEAM_REQUESTS_BURST": "1000000",
        "TEAM_REQUESTS_PER_MINUTE": "1000000000",
    }
    for name in ("SLACK_APP_TOKEN", "SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET"):
        env.pop(name, None)
    me = str(Path(__file__).resolve())
    serve = [sys.executable, "-m", "bot", "serve", "--host", "127.0.0.1", "--port", str(bot_port)]
    processes = [
        subprocess.Popen([sys.executable, me, "--serve-fake-slack", str(fake_port)], env=env),
        subprocess.Popen(serve, env=env, cwd=workdir),
        subprocess.Popen([sys.executable, me, "--serve-bare", str(bare_port)], env=env),
        subprocess.Popen(
            [sys.executable, me, "--serve-bare", str(same_port), "--same-answer"], env=env
        ),
        subprocess.Popen([sys.executable, me, "--serve-async", str(async_port)], env=env),
    ]
    try:
        wait_up(fake_port)
        wait_up(bot_port, "/healthz")
        wait_up(bare_port)
        wait_up(same_port)
        wait_up(async_port)
        time.sleep(3.0)  # mpbot's worker processes finish starting
        apps = {
            BARE: ("bare", bare_port, processes[2].pid),
            SAME: ("same", same_port, processes[3].pid),
            ASYNC: ("async", async_port, processes[4].pid),
            "mpbot": ("bot", bot_port, processes[1].pid),
        }
        rounds = take_turns(apps, fake, fake_port, args)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=30)
    return report(rounds, args)


def report(rounds: list[dict], args) -> int:
    from bot.settings import Settings
    from bot.slack.server import THREADS
    from bot.slack.workers import THREADS as WORKER_THREADS

    load = os.getloadavg()
    processes = Settings(_env_file=None).work_processes
    print(
        f"signed, varied `/mpestimate ...` commands on loopback, {os.cpu_count()} CPUs, "
        f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
    )
    print(
        f"each bare Bolt: 1 process, {THREADS} request threads, {processes * WORKER_THREADS} "
        f"lazy-listener threads; mpbot: HTTP process ({THREADS} request threads) + "
        f"{processes} worker processes x {WORKER_THREADS} threads; same stand-in, same load"
    )
    print(f"paced: {args.rate:g} commands/s for {args.seconds:g} s (open loop)")
    _table(rounds, "paced", PACED_COLUMNS)
    print(f"capacity: {args.clients} closed-loop clients for {args.seconds:g} s")
    _table(rounds, "capacity", CAPACITY_COLUMNS)
    ratio = against(rounds, ASYNC)
    against(rounds, SAME)  # printed beside it
    against(rounds, BARE)
    ours = [results["mpbot"] for results in rounds]
    paced_p99 = max(row["paced"]["tta_p99_ms"] for row in ours)
    ack_max = max(row[phase]["ack_max_s"] for row in ours for phase in ("paced", "capacity"))
    checks = {
        f"paced p99 time to answer < {TARGET_PACED_P99_MS:g} ms (every round)": paced_p99
        < TARGET_PACED_P99_MS,
        f"answer capacity >= {TARGET_CAPACITY_RATIO}x {ASYNC} (median)": ratio
        >= TARGET_CAPACITY_RATIO,
        f"every ack < {TARGET_ACK_MAX_S:g} s": ack_max < TARGET_ACK_MAX_S,
        "every command acked and answered": all(
            row[phase]["errors"] == 0 and row[phase]["answered"] == row[phase]["sent"]
            for row in ours
            for phase in ("paced", "capacity")
        ),
    }
    for name, ok in checks.items():
        print(f"  {'PASS' if ok else 'FAIL'}  {name}")
    return 0 if all(checks.values()) else 1


def against(rounds: list[dict], bare: str) -> float:
    """mpbot's answer capacity over ``bare``'s, per round and median (printed); the median."""
    ratios = [
        r["mpbot"]["capacity"]["answers_per_s"] / r[bare]["capacity"]["answers_per_s"]
        for r in rounds
    ]
    cpu = statistics.median(
        r["mpbot"]["capacity"]["cpu_ms"] / r[bare]["capacity"]["cpu_ms"] for r in rounds
    )
    each = " ".join(f"{r:.2f}" for r in ratios)
    print(
        f"mpbot / {bare}: answer capacity median {statistics.median(ratios):.2f}x "
        f"(rounds: {each}); CPU per answer {cpu:.2f}x"
    )
    return statistics.median(ratios)


if __name__ == "__main__":
    raise SystemExit(main())
