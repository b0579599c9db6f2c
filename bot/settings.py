"""Runtime settings, read once from the environment or a ``.env`` file.

pydantic-settings does the reading and type checks; this module only adds the
rules Slack imposes (token prefixes, an API base URL ending in ``/``) and turns
a validation failure into a message that names each bad setting *without its
value*, because the values are secrets and startup errors end up in logs.
"""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import platformdirs
from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.files import private_folder
from bot.startup import SettingsError

DEFAULT_SLACK_API_URL = "https://slack.com/api/"

# The ranges a setting may take, checked (and explained) by pydantic's own constraints.
Seconds = Annotated[float, Field(gt=0)]
WaitLimit = Annotated[float, Field(gt=0, le=600)]  # a database or Slack wait: never unbounded
Pause = Annotated[float, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]
# ``mpbot serve``'s default worker processes on a large machine (see default_work_processes).
MOST_DEFAULT_WORKERS = 4


def default_database_url() -> str:
    """A SQLite file in the user's data directory (``platformdirs``), created on
    first use: local data must not land in whatever directory the user stands in."""
    return f"sqlite:///{private_folder(data_folder()) / 'mpbot.db'}"


def data_folder() -> Path:
    """The user's data directory for the bot (``platformdirs``): 0700 once the bot made it."""
    return Path(platformdirs.user_data_dir("mpestimate", appauthor=False))


def default_work_processes() -> int:
    """One worker process per CPU this process may run on, less one for the HTTP
    process, from 2 to 4. Answers are CPU work under one GIL per process, so a
    fixed 2 leaves a larger machine's cores idle; past 4 the acks (one process)
    are the limit, and each worker holds its own ~100 MB. The affinity mask does
    not see a container's CPU quota: set ``WORK_PROCESSES`` there."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(MOST_DEFAULT_WORKERS, max(2, (usable or 1) - 1))


def default_job_spool_dir() -> Path:
    """Beside the default database, in the user's data directory (not created here)."""
    return data_folder() / "spool"


class LogFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


class LogLevel(StrEnum):
    DEBUG = "DEBUG"
    INFO = "INFO"
    WARNING = "WARNING"
    ERROR = "ERROR"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", frozen=True
    )

    slack_bot_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_client_id: str | None = None
    slack_client_secret: SecretStr | None = None
    slack_api_url: str = DEFAULT_SLACK_API_URL
    # Fernet keys for the bot tokens stored in OAuth mode, comma-separated, the
    # newest first (bot.store.tokens). Required with a shared database.
    token_encryption_keys: SecretStr | None = None
    database_url: SecretStr = Field(default_factory=lambda: SecretStr(default_database_url()))
    log_level: LogLevel = LogLevel.INFO
    log_format: LogFormat = LogFormat.TEXT
    # Pause before the first retry of a failed Slack call (doubles each time).
    slack_retry_backoff_s: Pause = 0.5
    slack_retry_count: int = 2
    # How long one Slack call may take before it counts as failed.
    slack_timeout_s: Seconds = 10.0
    # ``mpbot serve``: processes that do the work after each ack (~100 MB each).
    work_processes: Annotated[int, Field(ge=1, le=32)] = Field(
        default_factory=default_work_processes
    )
    # How long the database may make anything wait (see docs/operations.md).
    database_connect_timeout_s: WaitLimit = 2.0
    database_statement_timeout_s: WaitLimit = 2.0
    database_lock_timeout_s: WaitLimit = 1.0
    database_sqlite_busy_timeout_s: WaitLimit = 10.0
    database_budget_s: WaitLimit = 1.0
    dedupe_budget_s: WaitLimit = 0.2
    database_retry_after_s: WaitLimit = 10.0
    # /readyz stays 200 (saying "degraded") while the database is unavailable:
    # every replica would fail the same way, and answers go out without it.
    ready_without_database: bool = True
    # The HTTP edge (``mpbot serve``): Slack's payloads are a few KB.
    http_max_body_bytes: Positive = 64 * 1024
    http_connection_limit: Positive = 1000
    http_channel_timeout_s: Positive = 10
    # A request's header and body must arrive within this of its first byte
    # (Slack sends a few KB at once, and wants its ack within 3 s).
    http_request_deadline_s: WaitLimit = 5.0
    # Socket Mode: a ping this often; a connection silent for 4 pings is dropped
    # and replaced (slack-sdk's own check), so a silent drop is noticed in ~10 s.
    socket_ping_interval_s: WaitLimit = 2.0
    # A claimed job (or an answer being sent) is another worker's to take once
    # its lease runs out: how long a dead worker's jobs wait. Jobs take milliseconds.
    job_lease_s: Seconds = 30.0
    # How often an idle worker looks for jobs another process or replica took.
    job_poll_s: Seconds = 0.2
    # Runs of one job before it is given up (logged): a job that kills its worker.
    job_max_attempts: Positive = 5
    # First pause before an answer Slack did not take is sent again (doubles each time).
    outbox_backoff_s: Pause = 1.0
    outbox_backoff_max_s: Pause = 60.0
    # An event's answer (chat.postMessage) is retried for this long; a command's
    # for its response_url's 30-minute life.
    event_answer_window_s: Seconds = 1800.0
    # Jobs the database did not take before the ack wait here, one file each, until
    # it does (bot.jobs.spool). One directory per replica, on a volume that outlives
    # the process.
    job_spool_dir: Path = Field(default_factory=default_job_spool_dir)
    # SIGTERM: finish or hand back the work within this (the pod's grace period less a margin).
    shutdown_grace_s: Seconds = 25.0
    # Fair sharing at intake, per replica (bot.slack.fairness): past these a request is
    # answered with a translated "slow down", never dropped. A burst, then a rate.
    user_requests_burst: Positive = 10
    user_requests_per_minute: Positive = 20
    team_requests_burst: Positive = 300
    team_requests_per_minute: Positive = 600

    @field_validator(
        "slack_bot_token",
        "slack_signing_secret",
        "slack_app_token",
        "slack_client_id",
        "slack_client_secret",
        "token_encryption_keys",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        """``SLACK_APP_TOKEN=`` in a .env file means "not set", not "empty token"."""
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("slack_bot_token")
    @classmethod
    def _bot_token_shape(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith("xoxb-"):
            raise ValueError("must be a bot token starting with xoxb-")
        return value

    @field_validator("slack_app_token")
    @classmethod
    def _app_token_shape(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith("xapp-"):
            raise ValueError("must be an app-level token starting with xapp-")
        return value

    @field_validator("token_encryption_keys")
    @classmethod
    def _fernet_keys(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None:
            return value
        from cryptography.fernet import Fernet  # only when set: the console never needs it

        keys = [key.strip() for key in value.get_secret_value().split(",") if key.strip()]
        try:
            for key in keys:
                Fernet(key)
        except ValueError:
            raise ValueError(
                "must be Fernet keys (32 url-safe base64 bytes each), comma-separated"
            ) from None
        if not keys:
            raise ValueError("must name at least one key")
        return value

    @model_validator(mode="after")
    def _keys_for_a_shared_database(self) -> Settings:
        """A generated key lives on one machine's disk: replicas sharing a database
        need the same key, from the settings."""
        shared = not self.database_url.get_secret_value().startswith("sqlite")
        if self.oauth_enabled and shared and self.token_encryption_keys is None:
            raise ValueError(
                "TOKEN_ENCRYPTION_KEYS must be set in OAuth mode with a shared database"
            )
        return self

    @field_validator("slack_api_url")
    @classmethod
    def _api_url_shape(cls, value: str) -> str:
        if not value.startswith(("https://", "http://")):
            raise ValueError("must be an http(s) URL such as https://slack.com/api/")
        return value if value.endswith("/") else value + "/"

    @field_validator("database_url")
    @classmethod
    def _database_url_shape(cls, value: SecretStr) -> SecretStr:
        """A dialect the store speaks, with its driver installed (``bot.database_url``)."""
        if value.get_secret_value().startswith("sqlite:///"):
            return value  # a file path SQLAlchemy accepts as is (the local default)
        # Imported here, so the console reads its settings without loading SQLAlchemy.
        from bot.database_url import unusable

        if (reason := unusable(value.get_secret_value())) is not None:
            raise ValueError(reason)
        return value

    @property
    def oauth_enabled(self) -> bool:
        """Multi-workspace install: Bolt's OAuth flow instead of one bot token."""
        return bool(self.slack_client_id and self.slack_client_secret)

    @property
    def http_ready(self) -> bool:
        return self.slack_signing_secret is not None and (
            self.slack_bot_token is not None or self.oauth_enabled
        )

    @property
    def socket_ready(self) -> bool:
        return self.slack_bot_token is not None and self.slack_app_token is not None


def load_settings(**overrides: object) -> Settings:
    """Read settings, or raise :class:`SettingsError` naming what is wrong."""
    try:
        return Settings(**overrides)
    except ValidationError as error:
        problems = [
            ": ".join(filter(None, [".".join(str(p) for p in e["loc"]).upper(), _reason(e)]))
            for e in error.errors(include_input=False, include_url=False)
        ]
        raise SettingsError("invalid settings: " + "; ".join(problems)) from None


def _reason(error: dict) -> str:
    """pydantic's message without its "Value error, " prefix."""
    return str(error["msg"]).removeprefix("Value error, ")
