"""`mpbot console` in a real terminal (a pseudo-terminal from the `pty` module):
the banner says how to leave, Ctrl-C and Ctrl-D leave without a traceback,
answers carry no invisible bidi controls, and history is kept in the user's
data directory. `mpbot ask --json` keeps the controls for its readers."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

pty = pytest.importorskip("pty", reason="pseudo-terminals need a POSIX system")

BIDI = [chr(c) for c in (*range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)]


def _take_terminal() -> None:
    import fcntl
    import termios

    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """`python -m bot console` on the slave side of a pty; we type on the master."""

    def __init__(self, tmp_path: Path, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}
        env |= {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.db'}",
            "XDG_DATA_HOME": str(tmp_path / "data"),
            "HOME": str(tmp_path),
            "TERM": "xterm",
            "PYTHONIOENCODING": "utf-8",
        }
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", *(args or ("console",))],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            cwd=tmp_path,
            close_fds=True,
            start_new_session=True,
            # The pty becomes its controlling terminal, so Ctrl-C sends SIGINT (no threads here).
            preexec_fn=_take_terminal,  # noqa: PLW1509
        )
        os.close(slave)
        self.seen = b""

    def read_until(self, needle: str, timeout: float = 30, *, after: int = 0) -> str:
        """The screen so far, once ``needle`` shows (past byte ``after`` of it)."""
        deadline = time.monotonic() + timeout
        want = needle.encode()
        while want not in self.seen[after:] and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    self.seen += os.read(self.master, 65536)
                except OSError:  # the other side closed
                    break
        text = self.seen.decode("utf-8", "replace")
        assert want in self.seen[after:], text
        return text

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def at_prompt(self, after: int = 0) -> None:
        """Wait for the prompt, then until the console waits for a key (see :meth:`idle`)."""
        self.read_until("> ", after=after)
        self.idle()

    def idle(self, timeout: float = 30) -> None:
        """Until the console sleeps waiting for input, however loaded the machine is.

        A key typed while readline is still between reading one key and waiting
        for the next can be lost: CPython's readline checks for Ctrl-C's signal
        only when its wait is interrupted, so a SIGINT that lands just before the
        wait goes unseen (a person is never that fast). The process's state in
        ``/proc`` says when it waits; elsewhere a pause stands in for it.
        """
        stat = Path(f"/proc/{self.process.pid}/stat")
        if not stat.exists():
            time.sleep(0.3)
            return
        deadline, asleep = time.monotonic() + timeout, 0
        while asleep < 3 and time.monotonic() < deadline:
            state = stat.read_text().rsplit(")", 1)[1].split()[0]
            asleep = asleep + 1 if state == "S" else 0
            time.sleep(0.02)
        assert asleep >= 3, f"the console never waited for input (state {state})"

    def finish(self, timeout: float = 30) -> tuple[int, str]:
        status = self.process.wait(timeout=timeout)
        try:
            while select.select([self.master], [], [], 0.2)[0]:
                chunk = os.read(self.master, 65536)
                if not chunk:
                    break
                self.seen += chunk
        except OSError:
            pass
        os.close(self.master)
        return status, self.seen.decode("utf-8", "replace")


@pytest.fixture
def terminal(tmp_path):
    term = Terminal(tmp_path)
    yield term
    if term.process.poll() is None:
        term.process.kill()
        term.process.wait()


def test_banner_says_how_to_leave_and_ctrl_d_leaves_cleanly(terminal):
    terminal.at_prompt()
    banner = terminal.seen.decode()
    assert "Ctrl-D" in banner and "Ctrl-C" in banner and "quit" in banner
    terminal.type("100 2\r")
    terminal.read_until("about 50 hours")
    terminal.at_prompt(after=terminal.seen.index(b"about 50 hours"))  # the next prompt
    terminal.type("\x04")  # Ctrl-D on an empty line
    status, screen = terminal.finish()
    assert status == 0 and "Traceback" not in screen


def test_ctrl_c_leaves_cleanly(terminal):
    terminal.at_prompt()
    terminal.type("100 2")  # half-typed line, then Ctrl-C
    terminal.read_until("100 2", after=terminal.seen.index(b"> "))
    terminal.idle()  # readline echoed the keys and waits for the next one
    terminal.type("\x03")
    status, screen = terminal.finish()
    assert status == 0 and "Traceback" not in screen and "KeyboardInterrupt" not in screen


def test_arabic_answers_reach_the_terminal_without_bidi_controls(terminal):
    terminal.at_prompt()
    terminal.type("٤٨ ساعة ٢\r")
    screen = terminal.read_until("تقريبًا")
    terminal.type("quit\r")
    terminal.finish()
    assert "FP32" in screen
    assert not [c for c in BIDI if c in screen]


def test_history_is_kept_in_the_user_data_directory(terminal, tmp_path):
    terminal.at_prompt()
    terminal.type("36h A100 BERT\r")
    terminal.read_until("BERT on A100")
    terminal.type("quit\r")
    assert terminal.finish()[0] == 0
    history = tmp_path / "data" / "mpestimate" / "console_history"
    assert "36h A100 BERT" in history.read_text(encoding="utf-8")


def test_ask_writes_to_a_terminal_without_bidi_controls(tmp_path):
    term = Terminal(tmp_path, "ask", "--channel", "command", "٤٨ ساعة ٢")
    status, screen = term.finish()
    assert status == 0 and "FP32" in screen
    assert not [c for c in BIDI if c in screen]


def test_json_keeps_the_isolates_for_its_readers(mpbot):
    run = mpbot("ask", "--json", "--channel", "command", "٤٨ ساعة ٢")
    assert "\u2068FP32\u2069" in json.loads(run.stdout)["text"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("ask",), ["mpbot ask", "one per line"]),
        (("ask", "--explain"), ["mpbot ask", "one per line"]),
        (("ask", "--lang", "ar"), ["mpbot ask", "اكتب السؤال", "سطر"]),
    ],
)
def test_ask_without_a_message_at_a_terminal_says_how_and_stops(tmp_path, args, words):
    """Typed bare at a terminal, `ask` has nothing to read: one hint line, status 2,
    no silent wait (finish() would time out if it waited on the terminal)."""
    status, screen = Terminal(tmp_path, *args).finish(timeout=30)
    lines = [line for line in screen.splitlines() if line.strip()]
    assert status == 2 and len(lines) == 1, screen
    assert all(word in screen for word in words), screen
    assert "Traceback" not in screen
