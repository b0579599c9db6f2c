"""The database layer on real databases: migrations, races, round trips."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from alembic import command
from alembic.config import Config
from slack_sdk.oauth.installation_store import Installation
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from sqlalchemy import inspect, text

from bot.models import Lang
from bot.store import Store, connect, make_engine
from bot.store.db import MIGRATIONS


def test_migrations_create_every_table_and_can_run_again(database_url, store):
    tables = set(inspect(store.engine).get_table_names())
    assert {
        "processed_events",
        "thread_estimates",
        "user_prefs",
        "slack_installations",
        "slack_bots",
        "slack_oauth_states",
        "alembic_version",
    } <= tables
    again = connect(database_url)  # a second replica starting: no error, same head
    with again.engine.connect() as connection:
        heads = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    assert len(heads) == 1


def test_migrations_downgrade_to_empty(database_url, store):
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    assert "user_prefs" not in inspect(store.engine).get_table_names()


def test_an_event_id_is_taken_once_even_in_a_race(store):
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda _: store.first_delivery("Ev0RACE"), range(16)))
    assert results.count(True) == 1
    assert store.first_delivery("Ev0OTHER") is True


def test_old_event_ids_are_forgotten(store):
    store.first_delivery("Ev0OLD")
    store.forget_events_before(datetime.now(UTC) + timedelta(seconds=1))
    assert store.first_delivery("Ev0OLD") is True


def test_language_preference_round_trip_per_user(store):
    assert store.user_language("T1", "U1")[0] is None
    store.set_lang_preference("T1", "U1", Lang.AR)
    store.set_lang_preference("T1", "U2", Lang.EN)
    store.set_lang_preference("T1", "U1", Lang.EN)
    store.set_lang_preference("T2", "U1", Lang.AR)
    assert store.user_language("T1", "U1")[0] is Lang.EN
    assert store.user_language("T1", "U2")[0] is Lang.EN
    assert store.user_language("T2", "U1")[0] is Lang.AR


def test_locale_cache_keeps_the_choice_and_the_time(store):
    store.set_lang_preference("T1", "U1", Lang.AR)
    store.cache_locale("T1", "U1", "en-GB")
    cached = store.user_language("T1", "U1")[1]
    assert cached.locale == "en-GB"
    assert abs((datetime.now(UTC) - cached.checked_at).total_seconds()) < 60
    assert store.user_language("T1", "U1")[0] is Lang.AR  # caching the locale kept the choice
    assert store.user_language("T1", "U9")[1] is None


def test_thread_time_upserts_under_concurrency(store):
    assert store.thread("T1", "C1", "1.1") is None
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda h: store.remember_thread("T1", "C1", "1.1", float(h)), range(1, 17)))
    assert store.thread("T1", "C1", "1.1").fp32_hours in {float(h) for h in range(1, 17)}
    store.remember_thread("T1", "C1", "1.1", 42.0)
    assert store.thread("T1", "C1", "1.1").fp32_hours == 42.0
    assert store.thread("T1", "C2", "1.1") is None


def test_thread_remembers_its_setup_even_without_a_time(store):
    store.remember_thread("T1", "C1", "2.2", None, {"gpu": "A100", "model": "BERT", "num_gpus": 8})
    memory = store.thread("T1", "C1", "2.2")
    assert memory.fp32_hours is None
    assert memory.setup == {"gpu": "A100", "model": "BERT", "num_gpus": 8}
    store.remember_thread("T1", "C1", "2.2", 36.0, {"gpu": "H100", "model": "BERT"})
    assert store.thread("T1", "C1", "2.2").setup == {"gpu": "H100", "model": "BERT"}
    assert store.thread("T1", "C1", "2.2").fp32_hours == 36.0


def test_preferences_survive_a_new_connection(database_url, store):
    store.set_lang_preference("T1", "U1", Lang.AR)
    store.engine.dispose()
    assert connect(database_url).user_language("T1", "U1")[0] is Lang.AR


def test_bolt_oauth_stores_work_on_the_migrated_schema(store):
    installations = SQLAlchemyInstallationStore(client_id="111.222", engine=store.engine)
    installations.save(
        Installation(
            app_id="A1",
            enterprise_id=None,
            team_id="T1",
            user_id="U1",
            bot_token="xoxb-installed",
            bot_id="B1",
            bot_user_id="UB1",
            bot_scopes="commands,chat:write",
        )
    )
    found = installations.find_bot(enterprise_id=None, team_id="T1")
    assert found is not None and found.bot_token == "xoxb-installed"
    states = SQLAlchemyOAuthStateStore(expiration_seconds=60, engine=store.engine)
    state = states.issue()
    assert states.consume(state) is True
    assert states.consume(state) is False


def test_ping_says_when_the_database_is_gone(tmp_path):
    broken = Store(make_engine(f"sqlite:///{tmp_path / 'missing' / 'dir' / 'x.db'}"))
    assert broken.ping() is False


def _migrate_to(store, revision: str, *, down: bool = False) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


def test_thread_setup_migration_keeps_existing_threads(store):
    """0002 -> 0003 copies the table on SQLite: a thread's time must survive, both ways."""
    _migrate_to(store, "0002", down=True)
    with store.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO thread_estimates (team_id, channel_id, thread_ts, fp32_hours,"
                " updated_at) VALUES ('T1', 'C1', '3.3', 12.5, CURRENT_TIMESTAMP)"
            )
        )
    _migrate_to(store, "head")
    assert store.thread("T1", "C1", "3.3").fp32_hours == 12.5
    store.remember_thread("T1", "C1", "4.4", None, {"gpu": "A100"})
    _migrate_to(store, "0002", down=True)  # a thread without a time cannot stay
    with store.engine.connect() as connection:
        kept = connection.execute(text("SELECT thread_ts FROM thread_estimates")).scalars().all()
    assert kept == ["3.3"]
    _migrate_to(store, "head")
