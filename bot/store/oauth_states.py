"""OAuth ``state`` values (Bolt's install flow), with the expired ones deleted.

slack-sdk's store deletes a state when the redirect consumes it, and never
one that expires unused: every unauthenticated ``GET /slack/install`` left a
row for ever (1,067 requests, 1,067 rows). Here each new state also deletes
the expired ones, so the table holds at most what the last
``OAUTH_STATE_TTL_S`` issued (and the proxy's per-IP limits bound that).
"""

from __future__ import annotations

from datetime import UTC, datetime

from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore


class PurgedOAuthStates(SQLAlchemyOAuthStateStore):
    def issue(self, *args, **kwargs) -> str:
        state = super().issue(*args, **kwargs)
        self.purge_expired()
        return state

    def purge_expired(self) -> int:
        """Delete the states past their expiry; how many went."""
        now = datetime.now(UTC).replace(tzinfo=None)  # the column is naive UTC
        table = self.oauth_states
        with self.engine.begin() as connection:
            return connection.execute(table.delete().where(table.c.expire_at <= now)).rowcount
