"""``--post``: save the measured ratio in the bot's record store.

The record is made from the very ``/mpestimate record`` line the report
prints, read by the bot's own record reader and validated by the bot's own
rules, so posting stores exactly what pasting the line into Slack would.
A run the report offers no line for is refused with the report's reason
(:func:`bot.experiment.report.record_problem`): a CPU run, since CPU ratios do
not predict GPU ratios and the team's later estimates would trust them, or a
ratio the record command would refuse. Nothing is ever reported as saved
unless the store returned the new record.
"""

from __future__ import annotations

from bot.experiment.report import RECORD_PREFIX, Report


def post(report: Report, team_id: str | None, user_id: str) -> tuple[bool, str]:
    """(saved, message). The database URL is never echoed: it may hold a password."""
    if report.record_line is None:  # a CPU run, or a ratio the record command refuses
        return False, f"not saved: {report.record_refused}"
    from bot.settings import SettingsError, load_settings

    try:
        settings = load_settings()
    except SettingsError as exc:  # names the setting, never its value
        return False, f"not saved: {exc}"
    if "database_url" not in settings.model_fields_set:
        return False, (
            "not saved: --post needs DATABASE_URL (the bot's database) in the "
            "environment or .env; or paste the line above into Slack"
        )
    url = settings.database_url.get_secret_value()
    if not team_id:
        return False, "not saved: --post needs --team (the Slack workspace id, e.g. T0123ABCD)"
    from sqlalchemy.exc import SQLAlchemyError

    from bot.records.ratio import validate
    from bot.store import connect
    from bot.store.records import add_record
    from bot.understanding import read_record

    draft = read_record(report.record_line.removeprefix(RECORD_PREFIX))
    if isinstance(draft, tuple):
        return False, f"not saved: the bot cannot read the record ({', '.join(draft)})"
    checked = validate(draft)
    if not checked.ok:
        return False, f"not saved: the bot refuses the record ({', '.join(checked.reasons)})"
    try:
        store = connect(url)
        record = add_record(store.engine, team_id, user_id, draft, checked)
    except (SQLAlchemyError, OSError) as exc:
        return False, f"not saved: the database refused it ({type(exc).__name__})"
    return True, f"saved as record {record.id} ({record.ratio:.2f}x) for workspace {team_id}"
