"""`mpbot ask` starts fast: the database and its libraries load only when needed,
and local data lives in the user's data directory, never the current one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HEAVY = ("sqlalchemy", "alembic", "bot.store", "bot.settings", "slack_bolt", "torch")

PROBE = """
import sys
from bot.cli.main import main
status = main(sys.argv[1:])
heavy = [name for name in {heavy!r} if name in sys.modules]
print("loaded:", ",".join(heavy) or "-", file=sys.stderr)
raise SystemExit(status)
"""


def run_probe(tmp_path: Path, *args: str, env_extra: dict | None = None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DATABASE_URL"))}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["HOME"] = str(tmp_path / "home")
    env.update(env_extra or {})
    cwd = tmp_path / "cwd"
    cwd.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=cwd,
        check=False,
    )


def loaded(run) -> set[str]:
    line = next(x for x in run.stderr.splitlines() if x.startswith("loaded:"))
    return set(line.removeprefix("loaded:").strip().split(",")) - {"-"}


def test_an_estimate_with_a_ratio_loads_no_database_code(tmp_path):
    run = run_probe(tmp_path, "ask", "100 2")
    assert run.returncode == 0, run.stderr
    assert "about 50 hours" in run.stdout
    assert loaded(run) == set()
    assert not list((tmp_path / "cwd").iterdir()), "nothing is written where the user stands"


def test_a_question_that_could_use_records_reads_none_before_any_exist(tmp_path):
    """ "36h A100 BERT" looks for team records; a new user's local file is not there,
    so nothing is opened, imported or created."""
    run = run_probe(tmp_path, "ask", "36h A100 BERT")
    assert run.returncode == 0, run.stderr
    assert "BERT on A100" in run.stdout
    assert loaded(run) == {"bot.settings"}
    assert not (tmp_path / "data" / "mpestimate" / "mpbot.db").exists()


def test_a_record_opens_the_database_in_the_user_data_directory(tmp_path):
    run = run_probe(tmp_path, "ask", "record T4 resnet50 ratio 1.9")
    assert run.returncode == 0, run.stderr
    assert {"sqlalchemy", "bot.store"} <= loaded(run)
    assert (tmp_path / "data" / "mpestimate" / "mpbot.db").is_file()
    assert not list((tmp_path / "cwd").iterdir())
    # ... and a later estimate for that setup finds it there.
    again = run_probe(tmp_path, "ask", "36h T4 resnet50")
    assert "1.9" in again.stdout, again.stdout


def test_a_second_start_does_not_migrate_an_up_to_date_schema(tmp_path):
    from sqlalchemy import create_engine

    from bot.cli.local import migrate_if_behind

    engine = create_engine(f"sqlite:///{tmp_path / 'x.db'}")
    assert migrate_if_behind(engine) is True
    assert migrate_if_behind(engine) is False
