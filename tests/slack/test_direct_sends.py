"""Answers sent straight to Slack (outside a job) are counted: taken, or to be sent later.

Work answered in-process while the database is away keeps its spool file
when Slack took none of its answers (bot.slack.workers.settle); these are the
counts it goes by, against the real slack-sdk clients and a Slack stand-in.
"""

from __future__ import annotations

from slack_sdk.errors import SlackApiError

from bot.settings import Settings
from bot.slack.clients import counting, run_counting_sends, web_client
from bot.slack.listeners import Given
from bot.slack.outbox import respond

OUTAGE = (503, {"Content-Type": "text/plain"}, b"Service Unavailable")


def _settings(slack) -> Settings:
    return Settings(
        _env_file=None,
        slack_api_url=slack.url + "/api/",
        slack_retry_count=1,
        slack_retry_backoff_s=0.01,
    )


def _run(work, client) -> tuple[int, int]:
    given = Given(body={}, payload={}, context={}, client=client)
    sends = run_counting_sends(work, given)
    return sends.taken, sends.missed


def _post(client) -> None:
    try:
        client.chat_postMessage(channel="C1", text="hi")
    except SlackApiError:
        pass


def test_a_post_slack_took_counts_as_taken_one_it_answered_503_as_missed(slack):
    client = web_client(_settings(slack), "xoxb-1")
    assert _run(_post, client) == (1, 0)
    slack.outage = OUTAGE
    assert _run(_post, client) == (0, 1)


def test_a_response_url_answer_is_counted_the_same_way(slack):
    settings = _settings(slack)

    def answer(client) -> None:
        respond(slack.response_url(), {"text": "hi"}, settings, {})

    assert _run(answer, None) == (1, 0)
    slack.outage = OUTAGE
    assert _run(answer, None) == (0, 1)
    slack.outage = None
    slack.script["/T0TEAM/1234/abcd"] = [(404, {}, b"no_service")]  # refused for good
    assert _run(answer, None) == (1, 0)


def test_no_token_is_ours_to_fix_not_slacks_refusal(slack):
    """With OAuth the token is in the database: while it is away there is none, and
    the post is to be sent later, not given up."""
    slack.script["chat.postMessage"] = [(200, {}, b'{"ok": false, "error": "not_authed"}')]
    assert _run(_post, web_client(_settings(slack))) == (0, 1)


def test_bolts_per_request_client_is_made_a_counting_one(slack):
    from slack_sdk import WebClient

    plain = WebClient(token="xoxb-1", base_url=slack.url + "/api/", team_id="T1")
    client = counting(plain)
    assert (client.token, client.base_url, client.default_params) == (
        "xoxb-1",
        slack.url + "/api/",
        {"team_id": "T1"},
    )
    assert _run(_post, client) == (1, 0)
    assert _run(_post, plain) == (0, 0)  # a plain client counts nothing


def test_the_spool_file_goes_only_when_slack_took_an_answer_or_none_was_sent(tmp_path):
    from concurrent.futures import Future

    from bot.jobs import Spool
    from bot.slack.clients import DirectSends
    from bot.slack.workers import settle

    spool = Spool(tmp_path / "spool")

    def settled(sends: DirectSends | None, *, cancelled: bool = False) -> bool:
        """Whether the job is still in the spool, for the replay, once settled."""
        job = spool.keep("work", {"n": 1})
        done: Future = Future()
        if cancelled:
            done.cancel()
        else:
            done.set_result(sends)
        settle(spool, job.key, "work")(done)
        kept = [left.key for left in spool.leftovers()]
        spool.drop(job.key)
        return job.key in kept

    assert not settled(DirectSends(taken=1))
    assert not settled(DirectSends(taken=1, missed=1))  # one went: a retry would repeat it
    assert not settled(DirectSends())  # nothing to send
    assert settled(DirectSends(missed=1))
    assert settled(None, cancelled=True)  # never ran
