"""Slow clients: each sends a header line, or 10 body bytes, every few seconds, and
connects again when the server hangs up (the worst case for the server)."""

from __future__ import annotations

import contextlib
import itertools
import selectors
import socket
import threading
import time
from typing import Self

HEAD = b"POST /slack/events HTTP/1.1\r\nHost: bot\r\n"
BODY_HEAD = HEAD + b"Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n"


class SlowClients:
    def __init__(
        self,
        host: str,
        port: int,
        count: int,
        *,
        every_s: float = 3.0,
        source: str = "127.0.0.1",
        reconnect: bool = True,
    ) -> None:
        self.address = (host, port)
        self.count = count
        self.every_s = every_s
        self.source = source
        self.reconnect = reconnect
        self.hung_up = 0  # connections the server closed
        self.connected = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _open(self, index: int) -> socket.socket | None:
        try:
            sock = socket.create_connection(
                self.address, timeout=0.5, source_address=(self.source, 0)
            )
        except OSError:
            return None
        sock.setblocking(False)
        # Half drip header lines, half a body 10 bytes at a time.
        with contextlib.suppress(OSError):
            sock.send(HEAD if index % 2 else BODY_HEAD)
        self.connected += 1
        return sock

    def _run(self) -> None:
        selector = selectors.DefaultSelector()
        sockets: dict[int, socket.socket | None] = {}
        due: dict[int, float] = {}
        lines = itertools.count()
        start = time.monotonic()
        for index in range(self.count):
            sockets[index] = self._open(index)
            # Spread over one period, as independent clients would be.
            due[index] = start + self.every_s * index / self.count
            if sockets[index] is not None:
                selector.register(sockets[index], selectors.EVENT_READ, index)
        while not self._stop.is_set():
            for key, _ in selector.select(timeout=0.05):
                sock = key.fileobj
                try:
                    closed = sock.recv(65536) == b""
                except BlockingIOError:
                    closed = False
                except OSError:
                    closed = True
                if closed:
                    self._drop(selector, sockets, key.data)
            now = time.monotonic()
            for index, when in list(due.items()):
                if when > now:
                    continue
                due[index] = now + self.every_s
                sock = sockets[index]
                if sock is None:
                    if self.reconnect:
                        sockets[index] = self._open(index)
                        if sockets[index] is not None:
                            selector.register(sockets[index], selectors.EVENT_READ, index)
                    continue
                chunk = b"X-Slow-%d: 1\r\n" % next(lines) if index % 2 else b"0123456789"
                try:
                    sock.send(chunk)
                except OSError:
                    self._drop(selector, sockets, index)
        for sock in sockets.values():
            if sock is not None:
                sock.close()

    def _drop(self, selector, sockets: dict, index: int) -> None:
        sock = sockets[index]
        if sock is None:
            return
        with contextlib.suppress(KeyError, ValueError):
            selector.unregister(sock)
        sock.close()
        sockets[index] = None
        self.hung_up += 1
