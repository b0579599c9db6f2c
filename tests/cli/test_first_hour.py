"""A new operator's first hour: each wrong setting or command ends in one line.

Every case runs ``python -m bot`` as a real subprocess, as someone trying the
bot for the first time would, and holds the same promise (docs/operations.md,
"Starting up"): a non-zero exit, one line on stderr that says what to fix, no
traceback, and never a password or token from the settings.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

PASSWORD = "s3cret-first-hour-pw"
TOKEN = "xoxb-first-hour-9999-token"
# A Fernet key (32 url-safe base64 bytes), only so rotate-token-key gets to the database.
KEY = "yMAHuJSI52_ZA8j_BQ2KwODvZo57djbNgiwzdH4ax9s="


def run_bot(tmp_path: Path, *args: str, env: dict[str, str], code: str | None = None):
    """``python -m bot ARGS`` (or ``python -c CODE ARGS``) with only ``env`` as settings."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SLACK_", "DATABASE_", "TOKEN_", "WORK_", "DEDUPE_"))
    }
    clean["XDG_DATA_HOME"] = str(tmp_path / "data")
    clean.update(env)
    head = ["-c", code] if code else ["-m", "bot"]
    return subprocess.run(
        [sys.executable, *head, *args],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        env=clean,
        cwd=tmp_path,
        check=False,
    )


def assert_one_clear_line(run, *expected: str) -> str:
    """Non-zero, one stderr line holding ``expected``, no traceback, no secret."""
    lines = run.stderr.strip().splitlines()
    assert run.returncode != 0, run.stderr
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr
    for secret in (PASSWORD, TOKEN, KEY):
        assert secret not in run.stderr + run.stdout
    for words in expected:
        assert words in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("mysqll://x/y", "unknown database dialect or driver 'mysqll'"),
        (f"mysql://u:{PASSWORD}@db.example/mpbot", "mysql is not supported"),
        (f"postgresql+asyncpg://u:{PASSWORD}@db.example/mpbot", "asyncio driver"),
        (f"postgresql+nonsense://u:{PASSWORD}@db.example/mpbot", "unknown database dialect"),
        ("sqlite+aiosqlite:///x.db", "asyncio driver"),
        (f"not a url {PASSWORD}", "must be a database URL"),
    ],
)
@pytest.mark.parametrize(
    "args",
    [("ask", "history"), (), ("serve", "--port", "0"), ("socket",), ("rotate-token-key",)],
)
def test_a_database_url_this_install_cannot_open_is_one_line(tmp_path, url, why, args):
    slack = {
        "SLACK_BOT_TOKEN": TOKEN,
        "SLACK_SIGNING_SECRET": PASSWORD,
        "SLACK_APP_TOKEN": "xapp-1",
    }
    env = {"DATABASE_URL": url, "TOKEN_ENCRYPTION_KEYS": KEY}
    if args[:1] in (("serve",), ("socket",)):
        env |= slack
    line = assert_one_clear_line(run_bot(tmp_path, *args, env=env), "DATABASE_URL", why)
    assert line.startswith("mpbot: invalid settings: DATABASE_URL: ")


def test_a_driver_that_is_not_installed_is_named(tmp_path):
    """psycopg2 is not a dependency (psycopg 3 is): the line says which module is missing."""
    try:
        import psycopg2  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("psycopg2 is installed here")
    url = f"postgresql+psycopg2://u:{PASSWORD}@db.example/mpbot"
    run = run_bot(tmp_path, "ask", "history", env={"DATABASE_URL": url})
    assert_one_clear_line(run, "DATABASE_URL", "not installed", "psycopg2")


def sqlite_places(tmp_path: Path) -> list[tuple[Path, str]]:
    """Paths where no SQLite file can be made, for root too: (path, why)."""
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    a_folder = tmp_path / "a-folder"
    a_folder.mkdir()
    return [
        (Path("/proc/mpbot-first-hour.db"), "No such file or directory"),
        (Path("/proc/missing/folder/x.db"), "No such file or directory"),
        (a_file / "x.db", "Not a directory"),
        (a_folder, "Is a directory"),
    ]


@pytest.mark.parametrize("case", range(4))
@pytest.mark.parametrize(
    "args",
    [("ask", "record T4 resnet50 ratio 1.9"), ("serve", "--port", "0"), ("rotate-token-key",)],
)
def test_a_sqlite_file_that_cannot_be_made_names_its_path(tmp_path, case, args):
    path, why = sqlite_places(tmp_path)[case]
    env = {"DATABASE_URL": f"sqlite:///{path}", "TOKEN_ENCRYPTION_KEYS": KEY}
    if args[0] == "serve":
        env |= {"SLACK_BOT_TOKEN": TOKEN, "SLACK_SIGNING_SECRET": PASSWORD}
    run = run_bot(tmp_path, *args, env=env)
    assert_one_clear_line(
        run, "DATABASE_URL", "cannot create the SQLite database file", str(path), why
    )
    if path.is_dir():
        assert stat.S_IMODE(path.stat().st_mode) != 0o600, "a folder is never locked as a file"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_read_only_folder_is_named(tmp_path):
    folder = tmp_path / "read-only"
    folder.mkdir(mode=0o500)
    run = run_bot(tmp_path, "ask", "history", env={"DATABASE_URL": f"sqlite:///{folder}/x.db"})
    assert_one_clear_line(run, str(folder / "x.db"), "Permission denied")


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://mpbot:{PASSWORD}@127.0.0.1:1/mpbot",
        f"postgres://mpbot:{PASSWORD}@127.0.0.1:1/mpbot",
    ],
)
def test_rotate_token_key_with_the_database_down_is_one_line(tmp_path, url):
    env = {"DATABASE_URL": url, "TOKEN_ENCRYPTION_KEYS": KEY}
    run = run_bot(tmp_path, "rotate-token-key", env=env)
    assert_one_clear_line(
        run, "mpbot rotate-token-key: database unavailable", "OperationalError", "nothing was"
    )


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("sevre", "did you mean mpbot serve?"),
        ("sokcet", "did you mean mpbot socket?"),
        ("rotate-key", "did you mean mpbot rotate-token-key?"),
        ("100 2", "to ask the bot: mpbot ask '100 2'"),
        ("٤٨ ساعة", "to ask the bot: mpbot ask"),
    ],
)
def test_an_unknown_command_names_the_next_step(tmp_path, typed, says):
    assert_one_clear_line(run_bot(tmp_path, typed, env={}), "unknown command", says)


@pytest.mark.parametrize(
    ("command", "needs"),
    [
        ("console", "Ctrl-D"),
        ("ask", 'mpbot ask "100 2"'),
        ("experiment", "mpbot experiment --model mlp"),
        ("predict", "--gpu A100"),
        ("serve", "SLACK_SIGNING_SECRET"),
        ("socket", "SLACK_APP_TOKEN (xapp-...)"),
        ("rotate-token-key", "TOKEN_ENCRYPTION_KEYS=NEW,OLD"),
    ],
)
def test_each_command_help_says_what_it_needs_and_what_to_try(tmp_path, command, needs):
    run = run_bot(tmp_path, command, "--help", env={})
    assert run.returncode == 0, run.stderr
    description = run.stdout.split("\n\n")[1:3]
    assert needs in " ".join(description).replace("\n", " "), run.stdout


def test_the_overview_help_says_what_to_try_first(tmp_path):
    run = run_bot(tmp_path, "--help", env={})
    assert run.returncode == 0
    assert 'First try: mpbot ask "100 2"' in run.stdout


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DATABASE_BUDGET_S", "abc"),
        ("WORK_PROCESSES", "lots"),
        ("HTTP_CONNECTION_LIMIT", "1e3x"),
        ("READY_WITHOUT_DATABASE", "perhaps"),
    ],
)
def test_a_setting_that_is_not_a_number_is_named_once(tmp_path, name, value):
    run = run_bot(tmp_path, env={name: value, "SLACK_BOT_TOKEN": TOKEN})
    line = assert_one_clear_line(run, f"mpbot: invalid settings: {name}: Input should be")
    assert value not in line


@pytest.mark.parametrize(
    ("env", "missing"),
    [
        ({"SLACK_BOT_TOKEN": TOKEN}, ("SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET")),
        ({"SLACK_SIGNING_SECRET": PASSWORD}, ("SLACK_BOT_TOKEN",)),
        ({"SLACK_APP_TOKEN": "xapp-" + PASSWORD}, ("SLACK_BOT_TOKEN",)),
        ({"SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": PASSWORD}, ("SLACK_SIGNING_SECRET",)),
    ],
)
def test_half_a_slack_setup_is_one_line_not_a_console(tmp_path, env, missing):
    run = run_bot(tmp_path, env=env)
    assert_one_clear_line(run, *env, *missing, "for the local console")


@pytest.mark.parametrize(
    "args", [("experiment", "--model", "mlp"), ("predict", "--model", "mlp", "--gpu", "T4")]
)
def test_without_torch_the_hint_gives_the_cpu_build(tmp_path, args):
    """torch made unimportable in the child (``sys.modules['torch'] = None``), the
    bot run as ``mpbot`` runs it."""
    code = (
        "import sys; sys.modules['torch'] = None; sys.argv[0] = 'mpbot'; "
        "from bot.cli.main import main; raise SystemExit(main())"
    )
    run = run_bot(tmp_path, *args, env={}, code=code)
    assert run.returncode == 3
    assert_one_clear_line(
        run,
        f"mpbot {args[0]}: needs PyTorch",
        "pip install torch --index-url https://download.pytorch.org/whl/cpu",
    )
