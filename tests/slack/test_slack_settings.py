"""Settings and the mode picker: clear messages that never show a value."""

from __future__ import annotations

import pytest

from bot.settings import SettingsError, load_settings
from bot.slack.cli import Mode, pick_mode

SECRET_LOOKING = "xoxp-9999-very-secret-value"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    for name in (
        "SLACK_BOT_TOKEN",
        "SLACK_SIGNING_SECRET",
        "SLACK_APP_TOKEN",
        "SLACK_CLIENT_ID",
        "SLACK_CLIENT_SECRET",
        "SLACK_API_URL",
        "DATABASE_URL",
        "LOG_LEVEL",
        "LOG_FORMAT",
        "WORK_PROCESSES",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_malformed_settings_are_named_without_their_values(monkeypatch):
    monkeypatch.setenv("SLACK_BOT_TOKEN", SECRET_LOOKING)
    monkeypatch.setenv("DATABASE_URL", "postgresql://user:hunter2@")
    monkeypatch.setenv("LOG_LEVEL", "LOUD")
    with pytest.raises(SettingsError) as error:
        load_settings()
    message = str(error.value)
    assert "SLACK_BOT_TOKEN" in message and "LOG_LEVEL" in message
    assert SECRET_LOOKING not in message and "hunter2" not in message


@pytest.mark.parametrize(
    ("env", "mode"),
    [
        ({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"}, Mode.SOCKET),
        ({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "abc"}, Mode.HTTP),
        (
            {"SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "s", "SLACK_SIGNING_SECRET": "abc"},
            Mode.HTTP,
        ),
        ({"SLACK_BOT_TOKEN": ""}, Mode.CONSOLE),
        ({}, Mode.CONSOLE),
    ],
)
def test_mode_follows_the_tokens_present(monkeypatch, env, mode):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    chosen, why = pick_mode(load_settings())
    assert chosen is mode
    assert all(value not in why for value in env.values() if len(value) > 3)


@pytest.mark.parametrize(
    ("env", "missing"),
    [
        ({"SLACK_BOT_TOKEN": "xoxb-half-set-1"}, ["SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET"]),
        ({"SLACK_SIGNING_SECRET": "half-set-secret"}, ["SLACK_BOT_TOKEN"]),
        ({"SLACK_APP_TOKEN": "xapp-half-set-2"}, ["SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET"]),
        (
            {"SLACK_CLIENT_ID": "1.2", "SLACK_SIGNING_SECRET": "half-set-secret"},
            ["SLACK_CLIENT_SECRET"],
        ),
    ],
)
def test_half_a_slack_setup_says_what_is_missing_not_the_console(monkeypatch, env, missing):
    """A token set without its partner is a setup to finish, not a reason to open a
    console nobody types into (a container would read an empty stdin and exit 0)."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as error:
        pick_mode(load_settings())
    message = str(error.value)
    assert all(name in message for name in [*env, *missing]), message
    assert "local console" in message
    assert all(value not in message for value in env.values() if len(value) > 3)


def test_api_url_gets_its_trailing_slash(monkeypatch):
    monkeypatch.setenv("SLACK_API_URL", "http://127.0.0.1:9/api")
    assert load_settings().slack_api_url == "http://127.0.0.1:9/api/"


def test_mpbot_serve_without_tokens_stops_with_a_clear_message(capsys):
    from bot.cli.main import main

    assert main(["serve", "--port", "0"]) == 2
    assert "SLACK_SIGNING_SECRET" in capsys.readouterr().err


@pytest.mark.parametrize(("cpus", "workers"), [(1, 2), (2, 2), (3, 2), (4, 3), (8, 4), (64, 4)])
def test_work_processes_default_to_the_cpus_this_process_may_use(monkeypatch, cpus, workers):
    monkeypatch.setattr("os.sched_getaffinity", lambda _pid: set(range(cpus)), raising=False)
    assert load_settings().work_processes == workers


def test_work_processes_set_win_over_the_cpu_count(monkeypatch):
    monkeypatch.setattr("os.sched_getaffinity", lambda _pid: set(range(64)), raising=False)
    monkeypatch.setenv("WORK_PROCESSES", "2")
    assert load_settings().work_processes == 2


def test_work_processes_must_be_at_least_one(monkeypatch):
    monkeypatch.setenv("WORK_PROCESSES", "0")
    with pytest.raises(SettingsError, match="WORK_PROCESSES"):
        load_settings()
    monkeypatch.setenv("WORK_PROCESSES", "3")
    assert load_settings().work_processes == 3


@pytest.mark.parametrize(
    ("name", "value", "why"),
    [
        ("JOB_POLL_S", "0", "greater than 0"),
        ("DATABASE_BUDGET_S", "601", "less than or equal to 600"),
        ("OUTBOX_BACKOFF_S", "-1", "greater than or equal to 0"),
        ("HTTP_CONNECTION_LIMIT", "0", "greater than or equal to 1"),
        ("WORK_PROCESSES", "33", "less than or equal to 32"),
    ],
)
def test_a_setting_out_of_its_range_is_named_with_the_range(monkeypatch, name, value, why):
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as error:
        load_settings()
    assert f"{name}: Input should be {why}" in str(error.value)
