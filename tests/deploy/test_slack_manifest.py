"""The Slack app manifests in deploy/slack/ are valid and actually work.

Slack's published JSON schema catches shape errors (unknown keys, lengths,
URL patterns) but not the rules that make an installed app silently deaf: an
event subscribed without its scope is never delivered, and an HTTP-mode app
with no request URL receives nothing. Those cross-field rules live here, as a
function returning readable problems, so each rule is also shown to fail on a
deliberately broken copy.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft7Validator

REPO = Path(__file__).resolve().parents[2]
SLACK_DIR = REPO / "deploy" / "slack"
SCHEMA_NAME = "manifest.schema.1.0.0.json"
# The shared data copy is the reference when present; the copy shipped in the
# repo (same file, MIT, see SOURCE.txt) keeps the test runnable in a bare clone.
SCHEMA_CANDIDATES = (
    REPO.parent / "shared" / "data" / "slack-manifest-schema" / SCHEMA_NAME,
    SLACK_DIR / "schema" / SCHEMA_NAME,
)
MANIFESTS = {"http": SLACK_DIR / "manifest.http.yaml", "socket": SLACK_DIR / "manifest.socket.yaml"}

EVENTS_PATH = "/slack/events"
OAUTH_REDIRECT_PATH = "/slack/oauth_redirect"
COMMAND = "/mpestimate"

# Scope each bot event needs before Slack will deliver it (Slack's event reference).
EVENT_SCOPES = {
    "app_mention": "app_mentions:read",
    "message.im": "im:history",
    "app_home_opened": None,
    "app_uninstalled": None,
    "tokens_revoked": None,
}
# Channel message events would deliver every mention a second time as a plain message.
FORBIDDEN_EVENTS = {"message.channels", "message.groups", "message.mpim"}
# What the bot's features need, and nothing more (docs/deploy.md explains each).
LEAST_SCOPES = {"commands", "app_mentions:read", "chat:write", "im:history", "users:read"}

ARABIC = re.compile(r"[\u0600-\u06FF]")
LATIN = re.compile(r"[A-Za-z]")
HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$")


def load_schema() -> dict:
    path = next(p for p in SCHEMA_CANDIDATES if p.is_file())
    return json.loads(path.read_text(encoding="utf-8"))


def load_manifest(mode: str) -> dict:
    return yaml.safe_load(MANIFESTS[mode].read_text(encoding="utf-8"))


def schema_errors(manifest: dict) -> list[str]:
    validator = Draft7Validator(load_schema())
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator.iter_errors(manifest)
    ]


def _bot_scopes(manifest: dict) -> set[str]:
    return set(manifest.get("oauth_config", {}).get("scopes", {}).get("bot", []))


def _bot_events(manifest: dict) -> set[str]:
    return set(manifest.get("settings", {}).get("event_subscriptions", {}).get("bot_events", []))


def _commands(manifest: dict) -> list[dict]:
    return manifest.get("features", {}).get("slash_commands", [])


def _is_events_url(url: object) -> bool:
    return isinstance(url, str) and url.startswith("https://") and url.endswith(EVENTS_PATH)


def rule_problems(manifest: dict) -> list[str]:
    """Cross-field rules the JSON schema cannot express; empty when the app works."""
    problems: list[str] = []
    scopes = _bot_scopes(manifest)
    events = _bot_events(manifest)
    commands = _commands(manifest)
    settings = manifest.get("settings", {})
    socket = settings.get("socket_mode_enabled", False)

    for event in sorted(events):
        if event in FORBIDDEN_EVENTS:
            problems.append(f"event {event} would answer mentions twice")
        if event not in EVENT_SCOPES:
            problems.append(f"event {event} is not one the bot handles")
        elif EVENT_SCOPES[event] and EVENT_SCOPES[event] not in scopes:
            problems.append(f"event {event} needs scope {EVENT_SCOPES[event]}")
    if commands and "commands" not in scopes:
        problems.append("slash commands need scope commands")
    if unused := scopes - LEAST_SCOPES:
        problems.append(f"scopes beyond the least that work: {sorted(unused)}")

    home = manifest.get("features", {}).get("app_home", {})
    if not home.get("home_tab_enabled"):
        problems.append("App Home tab must be enabled")
    if not home.get("messages_tab_enabled") or home.get("messages_tab_read_only_enabled"):
        problems.append("Messages tab must be enabled and writable for DMs")

    interactivity = settings.get("interactivity", {})
    if not interactivity.get("is_enabled"):
        problems.append("interactivity must be enabled for buttons and the modal")

    urls = {
        "event_subscriptions.request_url": settings.get("event_subscriptions", {}).get(
            "request_url"
        ),
        "interactivity.request_url": interactivity.get("request_url"),
        **{f"slash command {c.get('command')} url": c.get("url") for c in commands},
    }
    for where, url in urls.items():
        if socket and url is not None:
            problems.append(f"Socket Mode must not set {where}")
        if not socket and not _is_events_url(url):
            problems.append(f"HTTP mode needs {where} = https://YOUR-HOST{EVENTS_PATH}")

    redirects = manifest.get("oauth_config", {}).get("redirect_urls", [])
    if not socket and not any(u.endswith(OAUTH_REDIRECT_PATH) for u in redirects):
        problems.append(f"HTTP mode needs an OAuth redirect URL ending in {OAUTH_REDIRECT_PATH}")

    # The schema spells this check "regex", which JSON Schema ignores.
    colour = manifest.get("display_information", {}).get("background_color")
    if colour is not None and not HEX_COLOUR.match(colour):
        problems.append(f"background_color {colour!r} is not #rgb or #rrggbb")
    return problems


def interface(manifest: dict) -> dict:
    """What users and the bot see, independent of how Slack reaches the bot."""
    return {
        "name": manifest["display_information"]["name"],
        "commands": [{k: v for k, v in c.items() if k != "url"} for c in _commands(manifest)],
        "events": sorted(_bot_events(manifest)),
        "scopes": sorted(_bot_scopes(manifest)),
        "app_home": manifest["features"]["app_home"],
        "bot_user": manifest["features"]["bot_user"],
    }


@pytest.fixture(params=sorted(MANIFESTS))
def manifest(request) -> dict:
    return load_manifest(request.param)


def test_schema_is_slacks_draft_07_schema():
    schema = load_schema()
    Draft7Validator.check_schema(schema)
    assert schema["title"] == "App Manifest"


def test_manifest_matches_slacks_schema(manifest):
    assert schema_errors(manifest) == []


def test_manifest_follows_the_cross_field_rules(manifest):
    assert rule_problems(manifest) == []


def test_command_has_bilingual_hint_and_description(manifest):
    (command,) = _commands(manifest)
    assert command["command"] == COMMAND
    for text in (command["usage_hint"], command["description"]):
        assert ARABIC.search(text) and LATIN.search(text), text


def test_modes_differ_only_in_transport():
    http, socket = load_manifest("http"), load_manifest("socket")
    assert interface(http) == interface(socket)
    assert interface(http)["scopes"] == sorted(LEAST_SCOPES)
    assert http["settings"]["socket_mode_enabled"] is False
    assert socket["settings"]["socket_mode_enabled"] is True


def test_shipped_schema_copy_is_licensed_and_sourced():
    schema_dir = SLACK_DIR / "schema"
    assert "MIT License" in (schema_dir / "LICENSE").read_text(encoding="utf-8")
    assert "slackapi/manifest-schema" in (schema_dir / "SOURCE.txt").read_text(encoding="utf-8")
    shipped = json.loads((schema_dir / SCHEMA_NAME).read_text(encoding="utf-8"))
    assert shipped == load_schema()


# --- the checks can fail: deliberately broken copies are rejected -------------


def _broken(mode: str, mutate) -> dict:
    manifest = copy.deepcopy(load_manifest(mode))
    mutate(manifest)
    return manifest


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda m: m["display_information"].update(name="x" * 36), "is too long"),
        (
            lambda m: m["features"]["slash_commands"][0].update(command="mpestimate"),
            "does not match",
        ),
        (lambda m: m["settings"].update(unknown_key=True), "Additional properties"),
        (
            lambda m: m["settings"]["event_subscriptions"].update(request_url="YOUR-HOST"),
            "does not match",
        ),
    ],
)
def test_schema_rejects_broken_manifests(mutate, expected):
    errors = schema_errors(_broken("http", mutate))
    assert any(expected in e for e in errors), errors


def _drop_scope(scope):
    return lambda m: m["oauth_config"]["scopes"]["bot"].remove(scope)


@pytest.mark.parametrize(
    ("mode", "mutate", "expected"),
    [
        ("http", _drop_scope("app_mentions:read"), "app_mention needs scope app_mentions:read"),
        ("socket", _drop_scope("im:history"), "message.im needs scope im:history"),
        ("http", _drop_scope("commands"), "slash commands need scope commands"),
        (
            "http",
            lambda m: m["settings"]["event_subscriptions"]["bot_events"].append("message.channels"),
            "message.channels would answer mentions twice",
        ),
        (
            "http",
            lambda m: m["oauth_config"]["scopes"]["bot"].append("chat:write.public"),
            "beyond the least",
        ),
        (
            "http",
            lambda m: m["settings"]["interactivity"].pop("request_url"),
            "HTTP mode needs interactivity.request_url",
        ),
        (
            "http",
            lambda m: m["features"]["slash_commands"][0].pop("url"),
            "HTTP mode needs slash command /mpestimate url",
        ),
        (
            "http",
            lambda m: m["settings"]["event_subscriptions"].update(
                request_url="https://YOUR-HOST/events"
            ),
            "HTTP mode needs event_subscriptions.request_url",
        ),
        ("http", lambda m: m["oauth_config"].pop("redirect_urls"), "OAuth redirect URL"),
        (
            "socket",
            lambda m: m["settings"]["interactivity"].update(
                request_url="https://YOUR-HOST/slack/events"
            ),
            "Socket Mode must not set interactivity.request_url",
        ),
        (
            "socket",
            lambda m: m["features"]["app_home"].update(messages_tab_read_only_enabled=True),
            "Messages tab",
        ),
        ("socket", lambda m: m["display_information"].update(background_color="#12345"), "#rrggbb"),
    ],
)
def test_rules_reject_broken_manifests(mode, mutate, expected):
    problems = rule_problems(_broken(mode, mutate))
    assert any(expected in p for p in problems), problems


def test_mode_comparison_notices_a_diverging_scope():
    socket = _broken("socket", _drop_scope("users:read"))
    assert interface(load_manifest("http")) != interface(socket)


def test_deploy_guide_explains_every_scope():
    guide = (REPO / "docs" / "deploy.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([a-z_.:]+)` \|", guide, re.MULTILINE))
    assert set(_bot_scopes(load_manifest("http"))) <= rows


def test_the_app_serves_the_paths_the_manifest_and_probes_use():
    """Renaming a route in bot/slack would leave Slack and the probes calling
    nothing; the paths are matched as literals in the Slack package's source."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "bot" / "slack").glob("*.py"))
    for path in (
        EVENTS_PATH,
        OAUTH_REDIRECT_PATH,
        "/slack/install",
        "/healthz",
        "/livez",
        "/readyz",
    ):
        assert f'"{path}"' in source, path
