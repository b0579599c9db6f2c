"""The reverse proxy (deploy/k8s/nginx.conf): read offline, and run for real when nginx is here.

Offline: the deadlines and per-address limits are set and tighter than a slow
client's drip, the body cap matches the bot's, the upstream is the bot as
compose and the pod name it, and compose and Kubernetes run this one file.
Each checker is shown to fail on a broken copy. With nginx installed
(``apt-get install nginx``), ``nginx -t`` checks the syntax, and nginx runs in
front of the real app while slow clients from one address drip header lines
and body bytes: honest commands from another address are still acked in time.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from bot.settings import Settings
from tests.records.harness import slack, start_app  # noqa: F401  (the app on loopback)

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
CONF = DEPLOY / "k8s" / "nginx.conf"
# A slow client of the issue sends something every 3 s.
DRIP_S = 3.0
ACK_DEADLINE_S = 3.0
NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
)


def directives(text: str) -> list[tuple[str, list[str]]]:
    """(name, arguments) of every simple directive, comments dropped, blocks flattened."""
    text = re.sub(r"#[^\n]*", "", text)
    found = []
    for statement in re.split(r"[;{}]", text):
        words = statement.split()
        if words:
            found.append((words[0], words[1:]))
    return found


def _seconds(value: str) -> float:
    match = re.fullmatch(r"(\d+)(ms|s|m)?", value)
    assert match, value
    number, unit = int(match[1]), match[2] or "s"
    return number / 1000 if unit == "ms" else number * (60 if unit == "m" else 1)


def _bytes(value: str) -> int:
    match = re.fullmatch(r"(\d+)([kKmM])?", value)
    assert match, value
    return int(match[1]) * {"k": 1024, "m": 1024 * 1024, None: 1}[match[2] and match[2].lower()]


def proxy_problems(text: str) -> list[str]:
    problems = []
    found: dict[str, list[list[str]]] = {}
    for name, args in directives(text):
        found.setdefault(name, []).append(args)

    def one(name: str) -> list[str] | None:
        values = found.get(name)
        if not values:
            problems.append(f"{name} is not set")
            return None
        return values[0]

    for name, most in (("client_header_timeout", 5.0), ("client_body_timeout", DRIP_S - 0.5)):
        value = one(name)
        if value and _seconds(value[0]) > most:
            problems.append(f"{name} must be at most {most} s (a slow client drips every 3 s)")
    body = one("client_max_body_size")
    if body and _bytes(body[0]) > Settings(_env_file=None).http_max_body_bytes:
        problems.append("client_max_body_size is larger than the bot's HTTP_MAX_BODY_BYTES")
    zones = {
        args[1].split("=")[1].split(":")[0]: args[0] for args in found.get("limit_conn_zone", [])
    }
    zones |= {
        args[1].split("=")[1].split(":")[0]: args[0] for args in found.get("limit_req_zone", [])
    }
    if not found.get("limit_conn"):
        problems.append("limit_conn (connections per address) is not set")
    if not found.get("limit_req"):
        problems.append("limit_req (requests per address) is not set")
    for name in ("limit_conn", "limit_req"):
        for args in found.get(name, []):
            zone = args[0].removeprefix("zone=")
            if zone not in zones:
                problems.append(f"{name} uses an undefined zone {zone}")
            elif zones[zone] != "$binary_remote_addr":
                problems.append(f"{name} must count per client address ($binary_remote_addr)")
    if ["bot:3000"] not in [args[:1] for args in found.get("server", [])]:
        problems.append("the upstream must be the bot at bot:3000")
    if found.get("listen", [[None]])[0][0] != "8080":
        problems.append("the proxy must listen on 8080 (an unprivileged port)")
    if found.get("proxy_request_buffering", [["on"]])[0][0] != "on":
        problems.append("request buffering must stay on: the bot gets each body whole")
    for args in found.get("pid", []) + found.get("client_body_temp_path", []):
        if not args[0].startswith("/tmp/"):
            problems.append("nginx's files must be under /tmp (the root is read-only)")
    return problems


def test_the_proxy_config_has_deadlines_and_per_address_limits():
    assert proxy_problems(CONF.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("client_header_timeout 5s;", "client_header_timeout 60s;", "client_header_timeout"),
        ("client_body_timeout 2s;", "client_body_timeout 60s;", "client_body_timeout"),
        ("client_body_timeout 2s;", "", "client_body_timeout is not set"),
        ("client_max_body_size 64k;", "client_max_body_size 10m;", "HTTP_MAX_BODY_BYTES"),
        ("limit_conn per_address 32;", "", "limit_conn"),
        (
            "$binary_remote_addr zone=per_address",
            "$server_name zone=per_address",
            "per client address",
        ),
        ("server bot:3000;", "server 127.0.0.1:3000;", "bot:3000"),
        ("listen 8080;", "listen 80;", "8080"),
        ("proxy_request_buffering on;", "proxy_request_buffering off;", "buffering"),
        ("pid /tmp/nginx.pid;", "pid /run/nginx.pid;", "/tmp"),
    ],
)
def test_proxy_checks_reject_broken_copies(old, new, expected):
    text = CONF.read_text(encoding="utf-8")
    assert old in text
    problems = proxy_problems(text.replace(old, new, 1))
    assert any(expected in p for p in problems), problems


def test_compose_and_kubernetes_run_this_one_config_in_front_of_the_bot():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    proxy = compose["services"]["proxy"]
    assert "./k8s/nginx.conf:/etc/nginx/nginx.conf:ro" in proxy["volumes"]
    assert "bot" in compose["services"] and proxy["ports"] == ["3000:8080"]
    assert "ports" not in compose["services"]["bot"]  # Slack reaches the bot via the proxy
    kustomization = yaml.safe_load((DEPLOY / "k8s" / "kustomization.yaml").read_text())
    (generated,) = kustomization["configMapGenerator"]
    assert generated["files"] == ["nginx.conf"]
    deployment = yaml.safe_load((DEPLOY / "k8s" / "deployment.yaml").read_text())
    pod = deployment["spec"]["template"]["spec"]
    assert {"ip": "127.0.0.1", "hostnames": ["bot"]} in pod["hostAliases"]
    (container,) = [c for c in pod["containers"] if c["name"] == "proxy"]
    assert container["ports"] == [{"name": "http", "containerPort": 8080}]
    (volume,) = [v for v in pod["volumes"] if v["name"] == "proxy-config"]
    assert volume["configMap"]["name"] == generated["name"]
    assert container["securityContext"]["readOnlyRootFilesystem"] is True


# --- nginx for real -----------------------------------------------------------

needs_nginx = pytest.mark.skipif(NGINX is None, reason="nginx is not installed")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _local_copy(folder: Path, upstream_port: int, port: int) -> Path:
    """The config as deployed, pointed at the app on loopback, its files under ``folder``."""
    text = CONF.read_text(encoding="utf-8")
    text = text.replace("server bot:3000;", f"server 127.0.0.1:{upstream_port};")
    text = text.replace("listen 8080;", f"listen 127.0.0.1:{port};")
    text = text.replace("/tmp/", f"{folder}/")
    text = text.replace("worker_connections 8192;", "worker_connections 4096;")
    path = folder / "nginx.conf"
    path.write_text(text, encoding="utf-8")
    return path


@needs_nginx
def test_nginx_accepts_the_config(tmp_path):
    conf = _local_copy(tmp_path, 3000, _free_port())
    checked = subprocess.run(
        [NGINX, "-t", "-q", "-c", str(conf), "-p", str(tmp_path), "-g", "error_log stderr;"],
        check=False,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr


@pytest.fixture
def database_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'bot.db'}"


@pytest.fixture
def proxied(start_app, tmp_path):  # noqa: F811  (the harness's fixture)
    """The real app behind nginx run with the deployed config; yields nginx's URL."""
    if NGINX is None:
        pytest.skip("nginx is not installed")
    running = start_app()
    upstream = int(running.url.rsplit(":", 1)[1])
    port = _free_port()
    conf = _local_copy(tmp_path, upstream, port)
    log = (tmp_path / "nginx.log").open("w")  # a pipe nobody reads would block nginx
    process = subprocess.Popen(
        [NGINX, "-c", str(conf), "-p", str(tmp_path), "-g", "daemon off; error_log stderr;"],
        stderr=log,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    running.client.url = f"http://127.0.0.1:{port}/slack/events"
    yield running, port
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
    log.close()


def test_behind_nginx_slow_clients_from_one_address_do_not_stop_honest_commands(proxied):
    running, port = proxied
    sys.path.insert(0, str(REPO / "tests" / "slack"))
    from slowclients import SlowClients  # the harness's folder, not a package

    acks = []
    with SlowClients("127.0.0.1", port, 300, every_s=DRIP_S, source="127.0.0.2") as slow:
        time.sleep(2.0)
        for n in range(12):
            started = time.monotonic()
            sent = running.client.command("100 2", response_url=running.slack.response_url(f"p{n}"))
            acks.append(time.monotonic() - started)
            assert sent.status == 200
            time.sleep(0.5)
        time.sleep(DRIP_S)
    assert slow.hung_up > 0  # nginx cut the drippers off (header or body deadline)
    assert max(acks) < ACK_DEADLINE_S, acks
    for n in range(12):
        running.slack.wait(lambda n=n: running.slack.responses(f"p{n}"))


def test_behind_nginx_a_10_mb_body_gets_a_413(proxied):
    running, _ = proxied
    huge = b"text=" + b"A" * (10 * 1024 * 1024)
    sent = running.client.post(huge, "application/x-www-form-urlencoded")
    assert sent.status == 413
    assert running.client.command("100 2", response_url=running.slack.response_url()).status == 200


def _cut_after(port: int, first: bytes, drip: bytes, every_s: float, limit_s: float) -> float:
    """Seconds until nginx hangs up on a client sending ``first``, then ``drip`` every ``every_s``."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=every_s) as sock:
        sock.sendall(first)
        while time.monotonic() - started < limit_s:
            try:
                data = sock.recv(4096)  # waits up to every_s
            except TimeoutError:
                data = None
            except OSError:
                break
            if data == b"":  # hung up (after a 408, or without a word)
                break
            if data is None:
                try:
                    sock.sendall(drip)
                except OSError:
                    break
    return time.monotonic() - started


def test_behind_nginx_a_dripping_header_or_body_is_cut_at_its_deadline(proxied):
    _, port = proxied
    head = b"POST /slack/events HTTP/1.1\r\nHost: x\r\n"
    # A header line every second: never idle, cut at client_header_timeout (5 s).
    assert _cut_after(port, head, b"X-Slow: 1\r\n", 1.0, 15) < 7.0
    # 10 body bytes every 3 s: cut at the first pause longer than client_body_timeout.
    body = head + b"Content-Length: 5000\r\n\r\n"
    assert _cut_after(port, body, b"0123456789", DRIP_S, 15) < DRIP_S + 1.0
