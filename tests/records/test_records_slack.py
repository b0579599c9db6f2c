"""Team records end to end in Slack: signed requests in, the fake Slack records what goes out."""

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.store import connect
from bot.store.records import list_records

from .harness import BOT_USER, TEAM, slackmsg

ARABIC = set("ابتثجحخدذرزسشصضطظعغفقكلمنهوي")
ADMIN = "U0ADMIN"


def command(bot, text: str, user: str = "U0ALICE") -> dict:
    before = len(bot.slack.responses())
    sent = bot.client.command(text, response_url=bot.slack.response_url(), user=user)
    assert sent.status == 200 and sent.body == ""
    return bot.slack.wait(bot.slack.responses, before + 1)[-1].body


def click(bot, button: dict, user: str = "U0ALICE") -> dict:
    before = len(bot.slack.responses())
    assert bot.client.click(button, response_url=bot.slack.response_url(), user=user).status == 200
    return bot.slack.wait(bot.slack.responses, before + 1)[-1].body


@pytest.fixture
def admins(slack):
    """users.info says ADMIN is a workspace admin; everyone else is not."""
    plain = slack.answer

    def answer(path: str, body: dict):
        if path == "/api/users.info" and body.get("user") == ADMIN:
            user = {"id": ADMIN, "locale": "en-US", "is_admin": True}
            return (
                200,
                {"Content-Type": "application/json"},
                json.dumps({"ok": True, "user": user}).encode(),
            )
        return plain(path, body)

    slack.answer = answer
    return slack


def test_record_then_history_in_english(bot):
    reply = command(bot, "record A100 BERT 8 GPUs bf16 fp32 420ms amp 190ms")
    assert reply["response_type"] == "ephemeral"
    assert "Recorded #1: *2.21×* for BERT on A100." in reply["text"]
    history = command(bot, "history")
    assert history["text"].startswith("*Team measurements* (1 record, page 1 of 1)")
    assert "#1 · *2.21×* · A100 · BERT · 8 GPUs · BF16 · <@U0ALICE>" in history["text"]
    deletes = [b["accessory"] for b in history["blocks"] if b.get("accessory", {}).get("action_id")]
    assert [d["action_id"] for d in deletes] == ["mp_record_delete"]
    assert deletes[0]["confirm"]["style"] == "danger"


def test_record_and_history_in_arabic(bot):
    reply = command(bot, "سجل A100 BERT على ٨ بطاقات fp32 ٤٢٠ مللي ثانية amp ١٩٠ مللي ثانية")
    assert "سُجِّل القياس" in reply["text"] and "\u20682.21×\u2069" in reply["text"]
    history = command(bot, "سجل القياسات")
    assert "قياسات الفريق" in history["text"] and "قياس واحد" in history["text"]


def test_a_refusal_says_what_to_type_and_offers_the_modal(bot):
    reply = command(bot, "record A100 fp32 420 amp 190")
    assert "Nothing was recorded" in reply["text"] and "`ms`" in reply["text"]
    assert slackmsg.button(reply, "mp_record_open")["value"] == "en"
    assert (
        list_records(connect(bot.settings.database_url.get_secret_value()).engine, TEAM).total == 0
    )


def test_user_text_is_escaped(bot):
    reply = command(bot, "record A100 model=<!channel> ratio 1.5")
    assert "<!channel>" not in reply["text"] and "&lt;!channel&gt;" in reply["text"]


def test_estimates_for_a_matching_setup_use_the_teams_records_first(bot):
    before = command(bot, "36h A100 BERT")
    assert "team" not in before["text"].lower()
    for ratio in ("2.1", "2.2", "2.3"):
        command(bot, f"record A100 BERT ratio {ratio}", user="U0BOB")
    after = command(bot, "36h A100 BERT")
    assert "team" in after["text"].lower()
    assert "2.2" in after["text"]


def test_history_pages_with_newer_and_older_buttons(bot):
    for n in range(12):
        command(bot, f"record T4 ratio {1.2 + n / 10:.1f}")
    first = command(bot, "history")
    assert "page 1 of 2" in first["text"]
    assert [b["action_id"] for b in slackmsg.buttons(first)] == ["mp_records_older"]
    second = click(bot, slackmsg.button(first, "mp_records_older"))
    assert second["replace_original"] is True and "page 2 of 2" in second["text"]
    assert "#2 · " in second["text"] and "#1 · " in second["text"]
    assert [b["action_id"] for b in slackmsg.buttons(second)] == ["mp_records_newer"]
    back = click(bot, slackmsg.button(second, "mp_records_newer"))
    assert "page 1 of 2" in back["text"]


def test_only_the_recorder_or_an_admin_can_delete(bot, admins):
    command(bot, "record T4 ratio 1.9", user="U0ALICE")
    command(bot, "record T4 ratio 2.0", user="U0ALICE")
    refused = command(bot, "delete 1", user="U0BOB")
    assert refused["text"] == "Only the person who recorded #1 or a workspace admin can delete it."
    assert command(bot, "delete 1", user="U0ALICE")["text"] == "Deleted record #1."
    assert "no record #1" in command(bot, "delete 1", user="U0ALICE")["text"]
    # An admin deletes someone else's record from the history's button.
    history = command(bot, "history", user=ADMIN)
    button = next(b["accessory"] for b in history["blocks"] if "accessory" in b)
    after = click(bot, button, user=ADMIN)
    assert after["text"].startswith("Deleted record #2.")
    assert "no measurements yet" in after["text"]


def test_arabic_delete_refusal(bot):
    command(bot, "record T4 ratio 1.9", user="U0ALICE")
    assert "مديري مساحة العمل" in command(bot, "احذف ١", user="U0BOB")["text"]


def _submission(lang: str, **fields: str) -> dict:
    def typed(value: str) -> dict:
        return {"value": {"type": "plain_text_input", "value": value}}

    values = {f"rec_{name}": typed(value) for name, value in fields.items()}
    return {
        "type": "view_submission",
        "user": {"id": "U0ALICE"},
        "trigger_id": "1.3.trigger",
        "view": {
            "id": "V0REC",
            "type": "modal",
            "callback_id": "mp_record_modal",
            "private_metadata": lang,
            "state": {"values": values},
        },
    }


def test_record_my_result_button_opens_the_modal(bot):
    estimate = command(bot, "100 2")
    recipe = click(bot, slackmsg.button(estimate, "mp_experiment"))
    record = slackmsg.button(recipe, "mp_record_open")
    assert bot.client.click(record, response_url=bot.slack.response_url()).status == 200
    opened = bot.slack.wait(lambda: bot.slack.api("views.open"))[-1].body
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    assert view["callback_id"] == "mp_record_modal"
    assert [b["block_id"] for b in view["blocks"]] == [
        "rec_gpu",
        "rec_model",
        "rec_count",
        "rec_precision",
        "rec_fp32",
        "rec_mixed",
        "rec_ratio",
    ]


def test_modal_errors_are_in_the_users_language_under_the_right_field(bot):
    sent = bot.client.interact(_submission("ar", gpu="A100", fp32="420", mixed="190"))
    body = json.loads(sent.body)
    assert body["response_action"] == "errors"
    assert set(body["errors"]) == {"rec_fp32"}
    assert ARABIC & set(body["errors"]["rec_fp32"]) and "`" not in body["errors"]["rec_fp32"]
    missing = json.loads(bot.client.interact(_submission("en", fp32="420ms", mixed="")).body)
    assert set(missing["errors"]) == {"rec_gpu", "rec_mixed"}


def test_a_valid_modal_is_recorded_and_confirmed_in_a_dm(bot):
    sent = bot.client.interact(
        _submission("en", gpu="V100", model="resnet50", fp32="367 img/s", mixed="1200 img/s")
    )
    assert sent.status == 200 and sent.body == ""
    posted = bot.slack.wait(lambda: bot.slack.api("chat.postMessage"))[-1].body
    assert posted["channel"] == "U0ALICE"
    assert "Recorded #1: *3.27×* for ResNet-50 on V100." in posted["text"]


def test_records_survive_a_restart(start_app):
    first = start_app()
    command(first, "record A100 BERT ratio 2.2")
    second = start_app()
    assert "#1 · *2.2×* · A100 · BERT" in command(second, "history")["text"]


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
def test_parallel_records_from_many_users_are_all_kept(database_url, start_app):
    bot = start_app()
    store = connect(database_url)
    team_before = list_records(store.engine, TEAM).total
    users = [f"U0P{n:02d}" for n in range(24)]

    def send(user: str) -> int:
        url = bot.slack.response_url(f"hook-{user}")
        return bot.client.command("record A100 BERT ratio 2.1", response_url=url, user=user).status

    with ThreadPoolExecutor(max_workers=12) as pool:
        assert set(pool.map(send, users)) == {200}
    for user in users:
        bot.slack.wait(lambda user=user: bot.slack.responses(f"hook-{user}"))
    page = list_records(store.engine, TEAM, page=1, size=100)
    assert page.total - team_before == len(users)
    assert {r.user_id for r in page.records} >= set(users)
    store.engine.dispose()


def test_record_and_history_in_a_dm_and_a_mention(bot):
    dm = {
        "type": "message",
        "channel_type": "im",
        "channel": "D0ALICE",
        "user": "U0ALICE",
        "text": "record A100 BERT fp32 420ms amp 190ms",
        "ts": "1700000000.000100",
        "event_ts": "1700000000.000100",
    }
    bot.client.event(dm, event_id="EvRec1")
    (post,) = bot.slack.wait(lambda: slackmsg.posts(bot))
    assert post.body["channel"] == "D0ALICE" and "Recorded #1" in post.body["text"]
    mention = {
        "type": "app_mention",
        "user": "U0BOB",
        "channel": "C0GENERAL",
        "text": f"<@{BOT_USER}> history",
        "ts": "1700000001.000100",
        "event_ts": "1700000001.000100",
    }
    bot.client.event(mention, event_id="EvRec2")
    # In a channel only the asker sees it: a history names its recorders.
    (private,) = bot.slack.wait(lambda: bot.slack.api("chat.postEphemeral"))
    assert len(slackmsg.posts(bot)) == 1  # the DM's confirmation only
    history = private.body
    assert history["user"] == "U0BOB" and history["channel"] == "C0GENERAL"
    assert history["thread_ts"] == "1700000001.000100"
    assert "#1 · *2.21×* · A100 · BERT" in history["text"]
    # Its buttons answer the one who clicked, privately.
    button = next(b["accessory"] for b in history["blocks"] if "accessory" in b)
    before = len(bot.slack.responses())
    bot.client.click(button, response_url=bot.slack.response_url(), user="U0BOB", ephemeral=True)
    refused = bot.slack.wait(bot.slack.responses, before + 1)[-1].body
    assert refused["response_type"] == "ephemeral"
    assert refused["text"].startswith("Only the person who recorded #1")


PINGS = ("<!channel>", "<!here>", "<!everyone>", "<@U0BOB>", "<!subteam^S0ALL>")


def _everything_sent(bot) -> str:
    return json.dumps([call.body for call in bot.slack.calls], ensure_ascii=False)


def test_names_typed_in_the_modal_never_ping_in_any_rendering(bot):
    """The confirmation, the history and an estimate that uses the records: blocks and
    the fallback ``text`` (what a notification shows) alike."""
    for name in PINGS:
        sent = bot.client.interact(
            _submission("en", gpu="A100", model=f"my {name} net", fp32="420ms", mixed="190ms")
        )
        assert sent.status == 200
    bot.slack.wait(lambda: slackmsg.posts(bot), len(PINGS))
    history = command(bot, "history")
    estimate = command(bot, "100 hours on A100 for my net")
    assert "team" in estimate["text"].lower()  # the records were used
    assert "&lt;!channel&gt;" in history["text"] and "&lt;@U0BOB&gt;" in estimate["text"]
    everything = _everything_sent(bot)
    for name in PINGS:
        assert name not in everything, name


def test_history_in_a_channel_is_private_and_pings_nobody(bot):
    for user in ("U0BOB", "U0CAROL", "U0DAVE"):
        command(bot, "record T4 ratio 1.9", user=user)
    mention = slackmsg.mention_event("history", ts="1700000002.000100")
    assert bot.client.event(mention, event_id="EvHist").status == 200
    (private,) = bot.slack.wait(lambda: bot.slack.api("chat.postEphemeral"))
    assert private.body["user"] == "U0ALICE" and "<@U0BOB>" in private.body["text"]
    assert not slackmsg.posts(bot)  # nothing in the channel for everyone


def test_records_commands_in_a_dm_are_posted_there(bot):
    dm = slackmsg.dm_event("history")
    bot.client.event(dm, event_id="EvDmHist")
    (post,) = bot.slack.wait(lambda: slackmsg.posts(bot))
    assert post.body["channel"] == "D0ALICE" and not bot.slack.api("chat.postEphemeral")
