"""Intent, reply language and the setup context read for the advice (issue 4)."""

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel, Intent, Lang, Price
from bot.understanding import understand
from bot.understanding.context import mark_context
from bot.understanding.rules.names.names import find_names
from bot.understanding.text.normalise import normalise
from bot.understanding.text.tokens import tokenize


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "help",
        "مساعدة",
        "hi!",
        "thanks!",
        "does mixed precision help?",
        "هل تفيد الدقة المختلطة؟",
        "هلا والله، وش تسوي؟",
        "what can you do?",
    ],
)
def test_help(text: str) -> None:
    assert understand(text, Channel.DM).intent == Intent.HELP


@pytest.mark.parametrize(
    "text",
    [
        "how long will it take with AMP?",
        "estimate my BERT run on V100",
        "احسب لي الوقت مع الدقة المختلطة",
        "قديش بياخد التدريب مع AMP؟",
    ],
)
def test_estimate_without_numbers(text: str) -> None:
    q = understand(text, Channel.DM)
    assert q.intent == Intent.ESTIMATE and q.reason == "no_numbers"


@pytest.mark.parametrize("text", ["and with ratio 2.5?", "وبنسبة ٢٫٥؟", "what about 3x?"])
def test_thread_follow_up_carries_the_ratio(text: str) -> None:
    q = understand(text, Channel.DM)
    assert (q.intent, q.reason, q.fp32) == (Intent.ESTIMATE, "no_numbers", None)
    assert q.ratio in (2.5, 3)


@pytest.mark.parametrize(
    ("text", "choice"),
    [
        ("lang ar", Lang.AR),
        ("lang en", Lang.EN),
        ("اللغة عربي", Lang.AR),
        ("language: english", Lang.EN),
        ("اللغة الإنجليزية", Lang.EN),
    ],
)
def test_set_lang(text: str, choice: Lang) -> None:
    q = understand(text, Channel.COMMAND)
    assert q.intent == Intent.SET_LANG and q.lang_choice == choice


@pytest.mark.parametrize(
    ("text", "preferred", "lang"),
    [
        ("100 2", None, Lang.EN),
        ("١٠٠ ٢", None, Lang.EN),
        ("100 2", Lang.AR, Lang.AR),
        ("التدريب بدقة FP32 مع AMP و mixed precision ١٠ ساعات", None, Lang.AR),
        ("fp32 training takes 10 hours", Lang.AR, Lang.EN),
        ("مرحبا", None, Lang.AR),
    ],
)
def test_reply_language(text: str, preferred: Lang | None, lang: Lang) -> None:
    assert understand(text, Channel.COMMAND, preferred_lang=preferred).lang == lang


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("image classification", "image_classification"),
        ("تصنيف الصور", "image_classification"),
        ("object detection", "detection"),
        ("كشف الأجسام", "detection"),
        ("segmentation", "segmentation"),
        ("التجزئة", "segmentation"),
        ("language model", "language_model"),
        ("نموذج لغوي", "language_model"),
        ("translation", "translation"),
        ("الترجمة", "translation"),
        ("speech recognition", "speech_recognition"),
        ("التعرف على الكلام", "speech_recognition"),
        ("text-to-speech", "tts"),
        ("تحويل النص إلى كلام", "tts"),
        ("vocoder", "tts"),
        ("recommender", "recommender"),
        ("نظام توصية", "recommender"),
        ("time series", "time_series"),
        ("molecule", "graph"),
        ("GNN", "graph"),
    ],
)
def test_family(text: str, family: str) -> None:
    q = understand(f"{text} fp32 10h", Channel.DM)
    assert q.family == family and q.fp32.hours == 10


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("on 8 GPUs", 8),
        ("8x A100", 8),
        ("8 V100s", 8),
        ("على ٨ بطاقات", 8),
        ("٨ وحدات GPU", 8),
        ("4 nodes x 8 GPUs", 32),
        ("٤ عقد، في كل عقدة ٨ بطاقات", 32),
    ],
)
def test_gpu_count_is_context_never_a_value(text: str, gpus: int) -> None:
    q = understand(f"fp32 10h {text}, ratio 2", Channel.DM)
    assert q.num_gpus == gpus and q.fp32.hours == 10 and q.ratio == 2 and q.reason is None


def test_precision_baseline_and_batches() -> None:
    q = understand("bf16 vs a TF32 baseline, batch 112 in FP32, 256 with AMP, fp32 10h", Channel.DM)
    assert (q.precision, q.baseline, q.batch_fp32, q.batch_amp) == ("bf16", "tf32", 112, 256)
    assert q.fp32.hours == 10 and q.ratio is None and q.reason is None


@pytest.mark.parametrize(
    ("text", "batches", "hours"),
    [
        ("NCF on A100, batch 8M in FP32 and 10M with AMP", (8_000_000, 10_000_000), None),
        ("ncf on a 3090, batch 2.5M fp32 vs 4.3M amp, 6h fp32", (2_500_000, 4_300_000), 6),
        ("bs=64k fp32, 128k with amp, wide&deep on V100, 3h in fp32", (64_000, 128_000), 3),
        ("batch size of 1M with bf16, fp32 takes 2 days", (None, 1_000_000), 48),
        ("NCF على A100، حجم الدفعة 8M بالـ fp32 و 16M مع amp", (8_000_000, 16_000_000), None),
    ],
)
def test_a_batch_in_thousands_or_millions_is_no_time(
    text: str, batches: tuple[int, int], hours: float | None
) -> None:
    """Rule scaled_batch: "batch 8M" is eight million samples, never 8 minutes; the
    partner said in the same scale is the other precision's batch."""
    q = understand(text, Channel.DM)
    assert (q.batch_fp32, q.batch_amp) == batches, q
    assert (q.fp32.hours if q.fp32 else None) == hours and q.ratio is None, q


def test_minutes_after_a_batch_stay_minutes() -> None:
    q = understand("batch 32, took 8m in fp32 and 5m with amp", Channel.DM)
    assert q.batch_fp32 == 32 and q.fp32 is not None and q.ratio == 1.6, q


@pytest.mark.parametrize(
    ("text", "price"),
    [
        ("at $2.5 per GPU-hour on 8 GPUs", Price(amount=2.5, currency="USD", per_gpu=True)),
        ("2.5 USD/h", Price(amount=2.5, currency="USD")),
        ("€3 per hour", Price(amount=3, currency="EUR")),
        ("بسعر ١٠ ريال للساعة", Price(amount=10, currency="SAR")),
        ("بسعر ٥ درهم", Price(amount=5, currency="AED")),
        ("بسعر ٢٠ جنيه", Price(amount=20, currency="EGP")),
        # Arabic abbreviations, as prices are written on Gulf and Egyptian invoices.
        ("بسعر ١٠ ر.س للساعة", Price(amount=10, currency="SAR")),
        ("بسعر ٣ د.ك", Price(amount=3, currency="KWD")),
        ("بسعر ٥ د.إ للساعة", Price(amount=5, currency="AED")),
        ("بسعر ٥٠ ج.م", Price(amount=50, currency="EGP")),
        ("بسعر ١٢ ر. ق", Price(amount=12, currency="QAR")),
        ("بسعر ٢ د.ب", Price(amount=2, currency="BHD")),
        ("بسعر ٢ ر.ع", Price(amount=2, currency="OMR")),
        ("بسعر ٢ ريال قطري", Price(amount=2, currency="QAR")),
        ("بسعر ١ دينار كويتي", Price(amount=1, currency="KWD")),
        ("بسعر ٣ يورو", Price(amount=3, currency="EUR")),
        ("بسعر ٣ دولار", Price(amount=3, currency="USD")),
    ],
)
def test_price(text: str, price: Price) -> None:
    q = understand(f"fp32 10h {text}, ratio 2", Channel.DM)
    assert q.price == price and q.fp32.hours == 10 and q.ratio == 2


@pytest.mark.parametrize(
    ("text", "amount", "period_hours", "per_gpu"),
    [
        ("at $30 per day on 8 GPUs", 30, 24, None),
        ("$30/day", 30, 24, None),
        ("$30 a day", 30, 24, None),
        ("$2.5/GPU-day", 2.5, 24, True),
        ("1000 EUR per week", 1000, 168, None),
        ("$900 a month per node", 900, 730, False),
        ("€3/GPU/h", 3, 1, True),
        ("$20/hr per node on 8 GPUs", 20, 1, False),
        ("$20 per hour on 8 GPUs", 20, 1, None),
        ("بسعر ٥٠٠ ريال في اليوم", 500, 24, None),
        ("بسعر ٥٠٠ ريال يومياً", 500, 24, None),
        ("بسعر ٢٠٠ درهم في الأسبوع", 200, 168, None),
        ("شهرياً ٣٠٠٠ ريال", 3000, 730, None),
        ("بسعر ١٠ ريال للساعة لكل بطاقة", 10, 1, True),
        ("بسعر ٤٠٠ ريال لليوم للجهاز", 400, 24, False),
    ],
)
def test_price_period_and_whose_it_is(text, amount, period_hours, per_gpu) -> None:
    q = understand(f"fp32 10h {text}, ratio 2", Channel.DM)
    assert q.fp32.hours == 10 and q.ratio == 2
    assert q.price.amount == amount and q.price.period_hours == period_hours
    assert q.price.per_gpu is per_gpu


def test_a_period_after_the_next_number_is_not_the_prices() -> None:
    """In "$2.5 on 8 GPUs, 3 days" the days are the job's length, not the price's period."""
    q = understand("fp32 $2.5 on 8 GPUs, 3 days, ratio 2", Channel.DM)
    assert q.price.period_hours == 1 and q.fp32.hours == 72 and q.num_gpus == 8


@pytest.mark.parametrize(
    ("text", "params", "optimizer", "gpu"),
    [
        ("memory 7B adam on A100 80GB", 7e9, "adam", "A100"),
        ("memory 340M adamw", 340e6, "adam", None),
        ("memory 1.5B sgd with momentum on T4", 1.5e9, "sgd_momentum", "T4"),
        ("memory 7e9 sgd", 7e9, "sgd", None),
        ("ذاكرة ٧ مليار adam على H100", 7e9, "adam", "H100"),
        ("الذاكرة لنموذج ٣٤٠ مليون", 340e6, None, None),
    ],
)
def test_memory(text: str, params: float, optimizer: str | None, gpu: str | None) -> None:
    q = understand(text, Channel.COMMAND)
    assert q.intent == Intent.MEMORY
    assert (q.params, q.optimizer, q.gpu) == (params, optimizer, gpu)
    assert q.fp32 is None and q.ratio is None


def test_a_currency_word_belongs_to_the_number_before_it() -> None:
    """In "١٠ دينار ٢٠ ساعه" the dinars price the 10; the 20 is no price of its own."""
    tokens = tokenize(normalise("١٠ دينار ٢٠ ساعه"))
    find_names(tokens)
    ctx = mark_context(tokens)
    assert [t.role for t in tokens if t.kind == "num"] == ["price", ""]
    assert ctx.price == Price(amount=10, currency="KWD")


def test_arabic_currency_abbreviation_reaches_the_reply() -> None:
    got = to_json(answer("التدريب ١٠٠ ساعة والمعامل ٢ بسعر ١٠ ر.س للساعة", Channel.DM))
    assert got["cost"]["currency"] == "SAR" and got["cost"]["fp32_cost"] == 1000


def test_whose_price_is_read_to_the_end_of_its_clause_only() -> None:
    whole = understand("100h fp32 ratio 2 on 8 GPUs, $500 a day for the whole cluster", Channel.DM)
    assert whole.price.per_gpu is False and whole.price.period_hours == 24
    per_gpu = understand("at $2.5/h, total 100 hours on 8 GPUs, ratio 2", Channel.DM)
    assert per_gpu.price.per_gpu is None and per_gpu.fp32.hours == 100
