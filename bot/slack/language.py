"""Which language to use for a user's messages that have no words.

The user's explicit choice (``/mpestimate lang ar``) wins; otherwise their
Slack locale from ``users.info``, asked at most once a day per user and kept
in the database so every replica shares the answer.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.conversation import Turn
from bot.models import Intent, Lang
from bot.store import Store

LOCALE_TTL = timedelta(days=1)
log = logging.getLogger(__name__)


def lang_of_locale(locale: str | None) -> Lang | None:
    """``ar-SA`` -> Arabic, ``en-GB`` -> English, anything else -> no opinion."""
    prefix = (locale or "").split("-")[0].lower()
    return Lang(prefix) if prefix in (Lang.AR.value, Lang.EN.value) else None


class LanguagePreferences:
    def __init__(self, store: Store) -> None:
        self.store = store

    def preferred(self, client: WebClient, team_id: str, user_id: str) -> Lang | None:
        chosen, cached = self.store.user_language(team_id, user_id)
        if chosen is not None:
            return chosen
        if cached is not None and datetime.now(UTC) - cached.checked_at < LOCALE_TTL:
            return lang_of_locale(cached.locale)
        if self.store.degraded is not None:
            # Nowhere to keep Slack's answer: asking users.info on every message
            # would spend its rate limit. The default language it is.
            return None
        answered, locale = self._slack_locale(client, user_id)
        if answered:
            self.store.cache_locale(team_id, user_id, locale)
        return lang_of_locale(locale)

    def choose(self, team_id: str, user_id: str, lang: Lang) -> bool:
        """Store ``lang`` as the user's choice; True when that changed the stored one."""
        chosen, _ = self.store.user_language(team_id, user_id)
        self.store.set_lang_preference(team_id, user_id, lang)
        return chosen is not lang

    def remember_choice(self, turn: Turn, team_id: str, user_id: str) -> None:
        """``lang ar`` / ``lang en`` (in any wording the reader knows) is kept as the choice."""
        choice = turn.query.lang_choice
        if turn.query.intent is Intent.SET_LANG and choice is not None:
            self.choose(team_id, user_id, choice)

    @staticmethod
    def _slack_locale(client: WebClient, user_id: str) -> tuple[bool, str | None]:
        """(whether Slack answered, the user's locale if it has one)."""
        try:
            response = client.users_info(user=user_id, include_locale=True)
        except SlackApiError as error:
            log.warning(
                "users.info failed for user=%s: %s (slack_req_id=%s)",
                user_id,
                error.response.get("error"),
                error.response.headers.get("x-slack-req-id"),
            )
            return False, None
        except OSError as error:
            log.warning("users.info unreachable for user=%s: %s", user_id, error)
            return False, None
        return True, (response.get("user") or {}).get("locale")
