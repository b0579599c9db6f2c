"""The Slack app's own words (buttons, App Home, the modal), in both languages.

They live in the gettext domain ``slack`` (``locales/<lang>/LC_MESSAGES/slack.po``),
next to the rendering catalogs, so translators find every string in one place.
Replies themselves are worded by ``bot.rendering``; these are only the chrome.
"""

from __future__ import annotations

from bot.models import Lang
from bot.rendering.i18n import translations

DOMAIN = "slack"
# Each language named in itself: the label of the button that switches to it.
LANGUAGE_NAMES = {Lang.AR: "العربية", Lang.EN: "English"}


def label(lang: Lang, msgid: str, **values: object) -> str:
    """``msgid`` in ``lang``, with ``{name}`` placeholders filled."""
    text = translations(lang, DOMAIN).gettext(msgid)
    return text.format(**values) if values else text


# The msgids, in one place so `pybabel extract` and the tests see them all.
RATIO_BUTTON = "Ratio {ratio}"
DETAILS_BUTTON = "Details"
EXPERIMENT_BUTTON = "Validate with a small experiment"
SHARE_BUTTON = "Share in channel"
NEW_ESTIMATE = "New estimate"
APOLOGY = "Sorry, something went wrong on my side. Please try again in a minute."
EXPIRED = "This button no longer works. Please ask again."
# A request past the intake limits (bot.slack.fairness); {wait}: Babel's "30 seconds".
SLOW_DOWN = (
    "You're sending me requests faster than I can answer everyone fairly, so I didn't "
    "answer this one. Please wait {wait}, then ask again."
)
SHARED_BY = "Shared by {user}"
ADMIN_CHECK_FAILED = (
    "I couldn't confirm with Slack that you are a workspace admin, so #{record} was not "
    "deleted. Please try again in a minute."
)
# Said once, in the new language, when the language button changes the stored choice.
NOW_IN_ARABIC = "I'll answer you in Arabic from now on; `lang en` switches back."
NOW_IN_ENGLISH = "I'll answer you in English from now on; `lang ar` switches back."
HOME_TITLE = "Mixed-precision training time"
HOME_GUIDE = (
    "Tell me how long training takes in FP32 and I estimate the time with mixed precision "
    "(FP32 time ÷ ratio; the ratio is usually 1.2–2.5).\n"
    "• `/mpestimate 100 2`: 100 hours at ratio 2\n"
    "• `/mpestimate 36h A100 BERT`: I suggest the ratio; `/mpestimate A100 BERT`: the ratio alone\n"
    "• `/mpestimate lang ar`: answer me in Arabic\n"
    "• `/mpestimate memory 7B adam on A100 80GB`: will it fit?\n"
    "• `/mpestimate record A100 BERT fp32 420ms amp 190ms`: save your team's ratio; "
    "`/mpestimate history` lists them\n"
    "• Mention me in a channel, or write to me here in Messages."
)
MODAL_SUBMIT = "Estimate"
MODAL_CLOSE = "Cancel"
FP32_TIME = "FP32 training time"
FP32_TIME_HINT = "A number, for example 100 or 2.5"
UNIT = "Unit"
UNIT_MINUTES = "minutes"
UNIT_HOURS = "hours"
UNIT_DAYS = "days"
UNIT_WEEKS = "weeks"
RATIO = "Speed-up ratio (optional)"
RATIO_HINT = "Usually 1.2–2.5. Leave it empty and I suggest one from the GPU or model."
NUMBER_FP32 = "Type one number here, for example 100 or 2.5, and pick the unit below."
NUMBER_RATIO = "Type one number here, for example 2 or 1.5, or leave it empty."
DECIMAL_POINT = "Write decimals with a point: {number}"
RATIO_TOO_LARGE = "That ratio is too large for mixed precision (usually 1.2–2.5); check for a typo."
SETUP = "GPU or model (optional)"
SETUP_PLACEHOLDER = "for example ResNet-50 on V100"
EXPERIMENT_RECIPE = (
    "*Validate the ratio with a small experiment*\n"
    "1. Use the same model, data and batch size for both runs.\n"
    "2. Warm up for a few dozen steps, then time 100 or more steady steps in FP32.\n"
    "3. Do the same with mixed precision (autocast; with FP16 also a gradient scaler).\n"
    "4. Ratio = FP32 step time ÷ mixed-precision step time.\n"
    "`mpbot experiment --model resnet50` does all of this for you on your GPU."
)
