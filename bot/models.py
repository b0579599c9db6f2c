"""Typed values that flow through the bot, one room to the next.

Text is *understood* into a :class:`Query`, the query is *advised* into an
:class:`Advice` (pure arithmetic and published data), and the advice is
*rendered* into a :class:`Reply` in one language. Each room only knows the
models here, never the rooms around it, so the Slack layer can wire transport
to the core without touching regexes or numbers.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:  # resolved by Advice.model_rebuild() in bot.advice.estimate
    from bot.advice.cost import CostEstimate
    from bot.advice.memory import MemoryEstimate


class Lang(StrEnum):
    """Reply languages the bot ships catalogs for."""

    AR = "ar"
    EN = "en"


class Channel(StrEnum):
    """Where a message came from; bare numbers mean more in a slash command."""

    COMMAND = "command"
    MENTION = "mention"
    DM = "dm"


class Intent(StrEnum):
    """What the user asked for."""

    ESTIMATE = "estimate"
    HELP = "help"
    MEMORY = "memory"
    PRECISION = "precision"  # "is bf16 better than fp16?", "do I need loss scaling with bf16?"
    SET_LANG = "set_lang"  # "/mpestimate lang ar" stores a preference
    RECORD = "record"  # "/mpestimate record ..." stores a team measurement
    HISTORY = "history"  # "/mpestimate history [page]" lists team measurements
    DELETE_RECORD = "delete_record"  # "/mpestimate delete 12"


class Reason(StrEnum):
    """Why a request cannot be answered with a number (stable codes, used in JSON)."""

    RATIO_NOT_POSITIVE = "ratio_not_positive"
    RATIO_BELOW_ONE = "ratio_below_one"
    TIME_NOT_POSITIVE = "time_not_positive"
    NOT_FINITE = "not_finite"
    TOO_LARGE = "too_large"
    AMBIGUOUS = "ambiguous"
    NO_NUMBERS = "no_numbers"
    TOO_LONG = "too_long"
    NO_PARAMS = "no_params"  # a memory question without a parameter count
    UNKNOWN_OPTIMIZER = "unknown_optimizer"  # memory: not Adam/AdamW, SGD+momentum or SGD
    UNKNOWN_LANGUAGE = "unknown_language"  # "lang fr", "lang": candidates hold what was written
    NO_RECORD_ID = "no_record_id"  # "delete abc", "delete": no record number to delete


# The largest speed-up a ratio can be, given or recorded. The biggest published
# end-to-end figure is 5.84x (nnU-Net 3D on V100), and peak rates bound the
# math-bound part: FP16 Tensor Cores are 16x strict FP32 on A100 and FP8 doubles
# H100's 14.8x (shared/docs/mixed-precision-facts.md, sections 1 and 3), so a
# strict-FP32 baseline can pass 10x but not 20x.
MAX_PLAUSIBLE_RATIO = 20.0

# Longest message the bot reads (characters); longer ones get Reason.TOO_LONG,
# and the reply quotes this limit. One place, so parser and wording agree.
MAX_MESSAGE_CHARS = 4000


class Kind(StrEnum):
    """Shape of an answer: the JSON ``kind`` field."""

    ESTIMATE = "estimate"
    RANGE = "range"
    PRESET = "preset"
    HELP = "help"
    ERROR = "error"
    MEMORY = "memory"
    PRECISION = "precision"
    # A whole run's cost asked with no FP32 time: the share of the bill saved.
    COST = "cost"


class TimeUnit(StrEnum):
    MINUTES = "minutes"
    HOURS = "hours"
    DAYS = "days"
    WEEKS = "weeks"
    YEARS = "years"


HOURS_PER_UNIT: dict[TimeUnit, float] = {
    TimeUnit.MINUTES: 1 / 60,
    TimeUnit.HOURS: 1.0,
    TimeUnit.DAYS: 24.0,
    TimeUnit.WEEKS: 168.0,
    TimeUnit.YEARS: 8760.0,
}

# The device named when a job runs on a CPU ("on CPU", «على المعالج»): read into
# the GPU slot, so a follow-up naming a GPU replaces it; answered by bot.advice.cpu.
CPU_DEVICE = "CPU"

# Canonical names shared by the understanding layer (which maps spellings to
# them) and the advice layer (which maps them to published measurements).
GPU_NAMES: tuple[str, ...] = (
    "P100",
    "V100",
    "T4",
    "RTX 2080 Ti",
    "RTX 3090",
    "A10",
    "A100",
    "RTX 4090",
    "L4",
    "L40S",
    "H100",
    "H200",
    "B200",
    "MI250X",
    "MI300X",
    # Every other card gpu_specs.csv has a row for, so the reader keeps it
    # instead of dropping it (or reading "2x RTX A6000" as ratio 2).
    "K80",
    "P40",
    "P4",
    "TITAN V",
    "TITAN RTX",
    "GTX 1060",
    "GTX 1070",
    "GTX 1080",
    "GTX 1080 Ti",
    "GTX 1650",
    "GTX 1660",
    "GTX 1660 Ti",
    "RTX 2060",
    "RTX 2070",
    "RTX 2080",
    "RTX 3060",
    "RTX 3060 Ti",
    "RTX 3070",
    "RTX 3080",
    "RTX 3080 Ti",
    "RTX 4060",
    "RTX 4070",
    "RTX 4070 Ti",
    "RTX 4080",
    "RTX 5070",
    "RTX 5070 Ti",
    "RTX 5080",
    "RTX 5090",
    "RTX A4000",
    "RTX A5000",
    "RTX A6000",
    "A10G",
    "A30",
    "A40",
    "L40",
    "GH200",
)
MODEL_NAMES: tuple[str, ...] = (
    "ResNet-50",
    "BERT",
    "GPT-2",
    "Transformer",
    "Mask R-CNN",
    "SSD",
    "UNet",
    "Tacotron2",
    "Transformer-XL",
    "GNMT",
    "Jasper",
    "FastSpeech",
    "NCF",
    "Wide&Deep",
    "DLRM",
    "EfficientNet",
    "WaveGlow",
    "V-Net",
    "SE3-Transformer",
)


class Duration(BaseModel):
    """An FP32 training time as the user wrote it, and in hours."""

    model_config = ConfigDict(frozen=True)

    value: float
    unit: TimeUnit
    hours: float


class Price(BaseModel):
    """A price per GPU (or for the whole job) per period, in the user's currency.

    ``per_gpu`` is None when the message did not say: the price is then billed
    per GPU, the usual way GPUs are rented, and the reply says how to say otherwise.
    """

    model_config = ConfigDict(frozen=True)

    amount: float
    currency: str = Field(description="ISO 4217 code, e.g. USD, SAR")
    per_gpu: bool | None = None
    period_hours: float = Field(default=1.0, description="hours the amount pays for: 24 a day")
    # "$25/hour per node", "the whole node is $25": billed once per node (per_gpu is False).
    per_node: bool = False
    nodes: int | None = Field(default=None, description="nodes a per-node price is billed for")
    # "$30/h per node of 8 GPUs", «عقدة فيها ٨ كروت»: the node size the message gave.
    gpus_per_node: int | None = Field(default=None, description="GPUs in one billed node")
    # "the whole FP32 run costs $500": what the FP32 job costs in all, not per hour.
    per_run: bool = False

    @property
    def hourly(self) -> float:
        return self.amount / self.period_hours


class Query(BaseModel):
    """Everything the understanding layer read from one message."""

    intent: Intent
    lang: Lang
    fp32: Duration | None = None
    # The high end of an FP32 time said as a range ("30-40 hours", «بين ٣٠ و٤٠ ساعة»,
    # rule ``time_range``); ``fp32`` is then its low end, and the answer gives both.
    fp32_high: Duration | None = None
    # The FP32 time is one epoch's, no epoch count given: the estimate is per epoch.
    per_epoch: bool = False
    ratio: float | None = None
    gpu: str | None = None
    model: str | None = None
    reason: Reason | None = None
    # Numbers (as the user wrote them, normalised) that made a request ambiguous.
    candidates: list[str] = Field(default_factory=list)
    # Context that narrows the predicted ratio (issue: advice that is right).
    family: str | None = None
    num_gpus: int | None = None
    precision: str | None = None  # fp16 | bf16 | fp8
    baseline: str | None = None  # fp32 | tf32
    framework: str | None = None  # PyTorch | TensorFlow | JAX | MXNet | PaddlePaddle
    architecture: str | None = None  # "recurrent": LSTM/GRU layers, which are memory-bound
    batch_fp32: int | None = None
    batch_amp: int | None = None
    price: Price | None = None
    # "lang ar|en" chooses the reply language for bare-number messages.
    lang_choice: Lang | None = None
    # "thanks!", "يعطيك العافية", "lol": a help-kind message that asks nothing (a short
    # reply, no usage): "thanks", "wellness" or "reaction", None for anything else.
    small_talk: str | None = None
    # "3D U-Net": 3 when the model was said to be three-dimensional (its own published rows).
    dimensions: int | None = None
    # What the message says about how busy the run keeps the GPU: busy ("DALI", "100%
    # utilisation"), input_bound ("data loading is the bottleneck", "CPU-bound"),
    # small_model ("tiny model") or pure_fp16 ("pure fp16", ".half()").
    run: str | None = None
    # Memory questions.
    params: float | None = None
    optimizer: str | None = None  # adam | sgd_momentum | sgd
    gpu_memory_gb: float | None = None  # "A100 40GB": the size the user named
    memory_method: str | None = None  # full | lora | qlora | inference (full when unsaid)
    # How trained parameters are held: fp32 | amp | master | bf16 (amp when unsaid).
    memory_recipe: str | None = None
    weight_precision: str | None = None  # frozen or served weights: fp16 | int8 | int4 | nf4 ...
    sharding: str | None = None  # ddp | zero1 | zero2 | zero3 (FSDP full shard)
    sized_model: str | None = None  # a catalog model named ("BERT-large"): its size and shape
    # Precision questions: "compare" (BF16 or FP16?) or "loss_scaling".
    precision_topic: str | None = None
    # Provenance: for "fp32" and "ratio", the rule that read the value and the
    # text it read it from ({"ratio": ["step_rate", "0.5 s / it"]}); see docs/reading.md.
    read_by: dict[str, list[str]] = Field(default_factory=dict)
    # Numbers the reader saw but used for nothing (as written), named in the reply.
    unused: list[str] = Field(default_factory=list)
    # What a follow-up inherited from its thread (field names: "gpu", "price",
    # "fp32", ...), said in the reply ("Carried over: 4 GPUs, SAR 12/h").
    carried: list[str] = Field(default_factory=list)


class AdviceFactor(BaseModel):
    """One reason behind a suggested ratio (a stable code and the numbers it needs)."""

    code: str
    params: dict[str, str | int | float] = Field(default_factory=dict)


class Advice(BaseModel):
    """The numbers and the notes worth saying, before any language is chosen."""

    kind: Kind
    fp32_hours: float | None = None
    # An FP32 time said as a range: its high end (``fp32_hours`` is the low end), and
    # the whole answer again for that end (its times, savings and cost).
    fp32_hours_high: float | None = None
    high_end: Advice | None = None
    # The unit the user wrote the FP32 time in: replies say times in it.
    time_unit: TimeUnit | None = None
    ratio: float | None = None
    ratio_low: float | None = None
    ratio_high: float | None = None
    mp_hours: float | None = None
    mp_hours_low: float | None = None
    mp_hours_high: float | None = None
    saved_hours: float | None = None
    saved_percent: float | None = None
    gpu: str | None = None
    num_gpus: int | None = None  # how many of them the user said: the reply's subject says so
    model: str | None = None
    reason: Reason | None = None
    candidates: list[str] = Field(default_factory=list)
    basis: str | None = None  # measured | measured_realistic | team | modelled | typical | given
    sources: list[str] = Field(default_factory=list)
    # The setup a suggested ratio assumed where the user was silent (e.g. the
    # family of a named model, a TF32 baseline on A100); else what they said.
    family: str | None = None
    precision: str | None = None
    baseline: str | None = None
    framework: str | None = None  # as the user named it ("PyTorch"); the subject when alone
    # Stable note codes (e.g. "double_check", "loss_scaling"); rendering words them.
    notes: list[str] = Field(default_factory=list)
    # Free-form numbers a note or a detail needs (e.g. measurement counts).
    facts: dict[str, float | int | str | None] = Field(default_factory=dict)
    # What drove a suggested ratio (prediction factor codes), worded under Details.
    factors: list[AdviceFactor] = Field(default_factory=list)
    # What real projects report beside the lead ratio: {"ratio", "low", "high"}.
    projects: dict[str, float] | None = None
    # Memory questions: model-state bytes per regime, fit and suggestions.
    memory: MemoryEstimate | None = None
    # With a price: both runs at the point ratio (estimate, preset) ...
    cost: CostEstimate | None = None
    # ... or at the fast and slow ends of a range (cheapest, dearest mixed run).
    cost_low: CostEstimate | None = None
    cost_high: CostEstimate | None = None


class Reply(BaseModel):
    """A rendered answer in one language.

    ``summary``, ``notes`` and ``details`` are Slack mrkdwn with any echoed
    user text escaped; ``text`` is the same answer as plain text for the
    console, JSON output and notification fallbacks.
    """

    lang: Lang
    kind: Kind
    summary: str
    notes: list[str] = Field(default_factory=list)
    details: list[str] = Field(default_factory=list)
    text: str
