"""The app with its database read-only, deleted, refused or frozen: acks fast, estimates still sent.

The core needs no database; only the bot's memory does (language choice,
thread context, event ids). So in every case here a user still gets their
estimate (in the default language, without thread memory), Slack still gets
its ack well within 3 s, a redelivered event is still answered once (this
replica's memory), and the log, not the user, says the database is degraded.
"""

from __future__ import annotations

import os
import time
import urllib.error
import urllib.request
import uuid

from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slackmsg import BOT_TOKEN, dm_event, installation, posts
from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.models import Lang
from bot.slack import labels
from bot.store import connect, make_engine

# Slack's deadline is 3 s; the database may take at most the dedupe budget of it.
ACK_S = 1.0
APOLOGY = labels.label(Lang.EN, labels.APOLOGY)


def _timed(call):
    started = time.monotonic()
    result = call()
    return result, time.monotonic() - started


def _health(url: str, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url + path, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _still_answers(bot, tag: str) -> None:
    """A command and a DM are acked in time and answered with an estimate; a
    redelivery of the DM is acked and not answered again."""
    sent, acked = _timed(
        lambda: bot.client.command("100 2", response_url=bot.slack.response_url(tag))
    )
    assert sent.status == 200 and acked < ACK_S, acked
    (answer,) = bot.slack.wait(lambda: bot.slack.responses(tag))
    assert "about 50 hours" in answer.body["text"] and APOLOGY not in answer.body["text"]

    before = len(posts(bot))
    event = dm_event("100 hours, ratio 2", ts=f"17000000{before}.000100")
    event_id = f"Ev{tag}{uuid.uuid4().hex[:8]}"  # unique: a shared PostgreSQL keeps old ids
    sent, acked = _timed(lambda: bot.client.event(event, event_id=event_id))
    assert sent.status == 200 and acked < ACK_S, acked
    retry, acked = _timed(
        lambda: bot.client.event(event, event_id=event_id, headers={"X-Slack-Retry-Num": "1"})
    )
    assert retry.status == 200 and acked < ACK_S, acked
    bot.slack.wait(lambda: posts(bot), count=before + 1)
    time.sleep(0.5)
    replies = posts(bot)[before:]
    assert len(replies) == 1, [(r.body.get("thread_ts"), r.body["text"][:60]) for r in replies]
    assert "50" in replies[0].body["text"] and APOLOGY not in replies[0].body["text"]


def _degraded_in_log(caplog) -> None:
    assert "degraded" in caplog.text
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


def test_read_only_sqlite(start_app, tmp_path, caplog):
    path = tmp_path / "ro.db"
    connect(f"sqlite:///{path}").engine.dispose()  # migrated, then only readable
    bot = start_app(database_url=f"sqlite:///file:{path}?mode=ro&uri=true")
    _still_answers(bot, "ro")
    # Choosing a language cannot be stored; the choice still answers, without an apology.
    bot.client.command("lang ar", response_url=bot.slack.response_url("ro-lang"))
    (chosen,) = bot.slack.wait(lambda: bot.slack.responses("ro-lang"))
    assert APOLOGY not in chosen.body["text"]
    _degraded_in_log(caplog)
    status, body = _health(bot.url, "/readyz")
    assert status == 200 and "degraded" in body and "readonly" in body


def test_deleted_sqlite_file(bot, database_url, caplog):
    bot.client.command("100 2", response_url=bot.slack.response_url("before"))
    bot.slack.wait(lambda: bot.slack.responses("before"))
    file = make_url(database_url).database
    for leftover in (file, file + "-wal", file + "-shm"):
        if os.path.exists(leftover):
            os.remove(leftover)
    status, body = _health(bot.url, "/readyz")
    assert status == 200 and "degraded" in body and "gone" in body
    assert _health(bot.url, "/healthz") == (status, body)
    assert _health(bot.url, "/livez")[0] == 200
    _still_answers(bot, "gone")
    _degraded_in_log(caplog)


def test_postgresql_refusing_connections(start_app, refused_url, caplog):
    bot, started = _timed(lambda: start_app(database_url=refused_url))
    assert started < 5
    _still_answers(bot, "refused")
    status, body = _health(bot.url, "/readyz")
    assert status == 200 and "degraded" in body
    _degraded_in_log(caplog)


def test_not_ready_without_the_database_when_so_configured(start_app, refused_url):
    bot = start_app(database_url=refused_url, ready_without_database=False)
    assert _health(bot.url, "/readyz")[0] == 503
    assert _health(bot.url, "/livez")[0] == 200


def test_postgresql_frozen_from_the_start(start_app, frozen_url, caplog):
    bot, started = _timed(lambda: start_app(database_url=frozen_url))
    assert started < 5  # the start waits one health-check budget, not for the database
    _still_answers(bot, "frozen")
    (status, body), waited = _timed(lambda: _health(bot.url, "/readyz"))
    assert status == 200 and "degraded" in body and waited < 2.5
    _degraded_in_log(caplog)


def test_postgresql_freezing_mid_run(start_app, relayed_postgres, caplog):
    """Open pooled connections hang too: only the client's own budget helps."""
    url, relay = relayed_postgres
    bot = start_app(database_url=url)
    bot.client.event(
        dm_event("100 2", ts="1700000000.000001"), event_id=f"EvWarm{uuid.uuid4().hex[:8]}"
    )
    bot.slack.wait(lambda: posts(bot))
    relay.freeze()
    _still_answers(bot, "midrun")
    _degraded_in_log(caplog)


def test_a_records_command_says_the_records_cannot_be_reached(start_app, refused_url):
    """Recording needs the database: the user is told so (nothing changed), no apology."""
    bot = start_app(database_url=refused_url)
    bot.client.command(
        "record A100 fp32 420ms amp 190ms", response_url=bot.slack.response_url("rec")
    )
    (reply,) = bot.slack.wait(lambda: bot.slack.responses("rec"))
    assert "cannot be reached right now" in reply.body["text"]
    assert APOLOGY not in reply.body["text"]


def test_oauth_installation_read_once_still_serves_its_workspace_with_the_database_gone(
    start_app, database_url, caplog
):
    """OAuth mode reads each request's token from the installation store: the last
    installation the database gave is remembered for when it cannot answer."""
    oauth = {"slack_client_id": "111.222", "slack_client_secret": "oauth-client-secret-value"}
    bot = start_app(slack_bot_token=None, **oauth)
    engine = make_engine(database_url)
    SQLAlchemyInstallationStore(client_id=oauth["slack_client_id"], engine=engine).save(
        installation()
    )
    bot.client.command("100 2", response_url=bot.slack.response_url("oauth-before"))
    bot.slack.wait(lambda: bot.slack.responses("oauth-before"))
    bot.client.event(dm_event("100 2", ts="1700000001.000001"), event_id="EvOauthWarm")
    bot.slack.wait(lambda: posts(bot))

    # The database stops answering installation reads (a deleted SQLite file would
    # not do: the app's open connections keep reading the unlinked file).
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE slack_bots"))
        connection.execute(text("DROP TABLE slack_installations"))
    engine.dispose()
    _still_answers(bot, "oauth-gone")
    assert {call.headers.get("Authorization") for call in posts(bot)} == {f"Bearer {BOT_TOKEN}"}
    _degraded_in_log(caplog)
