"""Network faults on loopback: a relay that can go silent, a server that never answers."""

from __future__ import annotations

import select
import socket
import threading
import time


class Relay:
    """A TCP relay to ``host:port``; ``freeze()`` makes it a silent drop: every
    socket stays open and nothing passes either way (a NAT or proxy forgetting it,
    a server stopped dead)."""

    def __init__(self, host: str, port: int) -> None:
        self._upstream = (host, port)
        self._listener = socket.create_server(("127.0.0.1", 0), backlog=64)
        self.port = self._listener.getsockname()[1]
        self.frozen = threading.Event()
        self._closed = threading.Event()
        self._open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def freeze(self) -> None:
        self.frozen.set()

    def close(self) -> None:
        """Close everything: both ends see the connections end."""
        self._closed.set()
        self._listener.close()
        for sock in self._open:
            sock.close()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            self._open.append(client)
            if self.frozen.is_set():  # accepted, never answered
                continue
            server = socket.create_connection(self._upstream)
            self._open.append(server)
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, client: socket.socket, server: socket.socket) -> None:
        pairs = {client: server, server: client}
        while not self._closed.is_set():
            if self.frozen.is_set():
                time.sleep(0.05)
                continue
            readable, _, _ = select.select(list(pairs), [], [], 0.05)
            for sock in readable:
                try:
                    data = sock.recv(65536)
                    if data:
                        pairs[sock].sendall(data)
                        continue
                except OSError:
                    pass
                client.close()
                server.close()
                return
