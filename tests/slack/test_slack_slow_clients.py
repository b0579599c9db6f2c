"""Slow clients do not stop honest commands, with the app alone (no proxy in front).

The issue's run at its scale: 1,100 clients, each sending a header line or 10
body bytes every 3 s, against the default limit of 1,000 connections,
reconnecting whenever the server hangs up on them, while a signed command is
sent every half second: each must be acked within Slack's 3 s and answered.
"""

from __future__ import annotations

import socket
import time

from slowclients import SlowClients

ACK_DEADLINE_S = 3.0


def _host_port(running) -> tuple[str, int]:
    host, port = running.url.removeprefix("http://").split(":")
    return host, int(port)


def _closed_after(sock: socket.socket, drip: bytes, every_s: float, limit_s: float) -> float:
    """Drip ``drip`` every ``every_s``; seconds until the server hangs up (or ``limit_s``)."""
    started = time.monotonic()
    sock.settimeout(every_s)
    while time.monotonic() - started < limit_s:
        try:
            sock.sendall(drip)
            if sock.recv(1) == b"":
                return time.monotonic() - started
        except TimeoutError:
            continue
        except OSError:
            return time.monotonic() - started
    return limit_s


def test_a_client_dripping_its_header_is_cut_at_the_request_deadline(start_app):
    running = start_app(http_request_deadline_s=1.5)
    with socket.create_connection(_host_port(running), timeout=5) as sock:
        sock.sendall(b"POST /slack/events HTTP/1.1\r\n")
        closed = _closed_after(sock, b"X-Slow: 1\r\n", 0.5, 10)
    assert closed < 3.0, closed  # never idle, so channel_timeout alone never fired


def test_a_client_dripping_its_body_is_cut_at_the_request_deadline(start_app):
    running = start_app(http_request_deadline_s=1.5)
    with socket.create_connection(_host_port(running), timeout=5) as sock:
        sock.sendall(b"POST /slack/events HTTP/1.1\r\nContent-Length: 5000\r\n\r\n")
        closed = _closed_after(sock, b"0123456789", 0.5, 10)
    assert closed < 3.0, closed


def test_slow_clients_past_the_connection_limit_do_not_stop_honest_commands(start_app):
    running = start_app()  # the default limit: 1,000 connections
    host, port = _host_port(running)
    running.client.command("100 2", response_url=running.slack.response_url("warm"))
    acks = []
    with SlowClients(host, port, 1100, every_s=3.0) as slow:
        time.sleep(6.0)  # every slot taken, the rest waiting to be accepted
        for n in range(16):
            started = time.monotonic()
            sent = running.client.command("100 2", response_url=running.slack.response_url(f"h{n}"))
            acks.append(time.monotonic() - started)
            assert sent.status == 200
            time.sleep(0.5)
    print(f"slow connections {slow.connected}, cut {slow.hung_up}; acks max {max(acks):.3f} s")
    assert slow.connected >= 1100 and slow.hung_up > 0  # every slot taken; cut, and back
    assert max(acks) < ACK_DEADLINE_S, acks
    for n in range(16):
        running.slack.wait(lambda n=n: running.slack.responses(f"h{n}"))
