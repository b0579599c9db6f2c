"""Bot tokens encrypted at rest (bot.store.tokens): wider columns, existing rows encrypted.

slack-sdk's token columns are VARCHAR(200); an encrypted token is about
twice the length of the plain one, so they become TEXT. Rows stored in plain
text by an older version are encrypted here with the first key the settings
give (``TOKEN_ENCRYPTION_KEYS``, or the local key for SQLite); a database
with no installations needs no key. The downgrade decrypts them again.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import context, op

from bot.store.tokens import SECRET_COLUMNS, TokenCipher, reseal_all

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _tables() -> dict[str, sa.Table]:
    metadata = sa.MetaData()
    metadata.reflect(op.get_bind(), only=list(SECRET_COLUMNS))
    return dict(metadata.tables)


def _has_tokens(tables: dict[str, sa.Table]) -> bool:
    bind = op.get_bind()
    for name, columns in SECRET_COLUMNS.items():
        table = tables[name]
        present = sa.or_(*(table.c[c].is_not(None) for c in columns))
        if bind.execute(sa.select(sa.literal(1)).select_from(table).where(present)).first():
            return True
    return False


def _cipher() -> TokenCipher:
    """The app's cipher (handed in by ``migrate``), else the one the environment gives."""
    given = context.config.attributes.get("tokens")
    if given is not None:
        return given()
    from bot.settings import load_settings
    from bot.store.tokens import cipher_for

    return cipher_for(load_settings())


def _widen(to_type: sa.types.TypeEngine, from_type: sa.types.TypeEngine) -> None:
    for name, columns in SECRET_COLUMNS.items():
        with op.batch_alter_table(name) as batch:
            for column in columns:
                batch.alter_column(column, type_=to_type, existing_type=from_type)


def upgrade() -> None:
    _widen(sa.Text(), sa.String(200))
    tables = _tables()
    if _has_tokens(tables):
        reseal_all(op.get_bind(), _cipher(), tables)


def downgrade() -> None:
    tables = _tables()
    if _has_tokens(tables):
        cipher = _cipher()
        bind = op.get_bind()
        for name, columns in SECRET_COLUMNS.items():
            table = tables[name]
            for row in bind.execute(sa.select(table.c.id, *(table.c[c] for c in columns))):
                values = {c: cipher.unseal(getattr(row, c)) for c in columns}
                bind.execute(sa.update(table).where(table.c.id == row.id).values(**values))
    _widen(sa.String(200), sa.Text())
