"""The fake workspace's ids and secrets, and reading the Block Kit messages sent to it."""

from __future__ import annotations

from slack_sdk.oauth.installation_store import Installation

SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
BOT_TOKEN = "xoxb-1111-2222-testtokenvalue"
TEAM = "T0TEAM"
BOT_USER = "U0BOT"


def installation(bot_token: str = BOT_TOKEN) -> Installation:
    """The fake workspace's installation, as Bolt's OAuth flow saves it."""
    return Installation(
        app_id="A0APP",
        enterprise_id=None,
        team_id=TEAM,
        user_id="U0INSTALLER",
        bot_token=bot_token,
        bot_id="B0BOT",
        bot_user_id=BOT_USER,
        bot_scopes=["commands", "chat:write"],
    )


def dm_event(text: str, *, ts: str = "1700000000.000100", **extra) -> dict:
    """A ``message.im`` event as Slack sends it for Alice's direct message."""
    return {
        "type": "message",
        "channel_type": "im",
        "channel": "D0ALICE",
        "user": "U0ALICE",
        "text": text,
        "ts": ts,
        "event_ts": ts,
        **extra,
    }


def posts(bot) -> list:
    """Every ``chat.postMessage`` call the fake Slack recorded."""
    return bot.slack.api("chat.postMessage")


def mention_event(text: str, *, ts: str, thread_ts: str | None = None, **extra) -> dict:
    """An ``app_mention`` event as Slack sends it for Alice in #general."""
    event = {
        "type": "app_mention",
        "user": "U0ALICE",
        "text": f"<@{BOT_USER}> {text}",
        "ts": ts,
        "channel": "C0GENERAL",
        "event_ts": ts,
        **extra,
    }
    if thread_ts:
        event["thread_ts"] = thread_ts
    return event


def buttons(message: dict) -> list[dict]:
    """Every button in a sent message's blocks."""
    return [
        element
        for block in message.get("blocks", [])
        if block["type"] == "actions"
        for element in block["elements"]
        if element["type"] == "button"
    ]


def button(message: dict, action_prefix: str) -> dict:
    found = [b for b in buttons(message) if b["action_id"].startswith(action_prefix)]
    assert found, f"no {action_prefix} button in {[b['action_id'] for b in buttons(message)]}"
    return found[0]


def block_text(message: dict) -> str:
    """All the mrkdwn/plain text a message's blocks show."""
    texts: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") in ("mrkdwn", "plain_text") and "text" in node:
                texts.append(node["text"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(message.get("blocks", []))
    return "\n".join(texts)
