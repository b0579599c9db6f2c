"""English words of the reader's newer rules (data only; see ``words/__init__``)."""

# Greetings, fillers and thanks around a command ("hello, 80 1.5", "60 2 ty"):
# rule ``chatter_around_command`` drops them at either end of a message.
CHATTER = (
    "hi",
    "hello",
    "hey",
    "hiya",
    "yo",
    "ok",
    "okay",
    "so",
    "um",
    "hmm",
    "well",
    "pls",
    "plz",
    "please",
    "thanks",
    "thank you",
    "thx",
    "ty",
    "cheers",
    "quick one",
    "quick question",
    "question",
    "quick q",
    "q",
    "got a question",
    "thanks in advance",
    "hi team",
    "hey team",
    "hey there",
    "hi there",
    "hello there",
    "hey all",
    "hi all",
    "hello everyone",
    "morning",
    "good morning",
    "sup",
    "also",
    "btw",
    "fyi",
    "here",
    "channel",
    "everyone",
    "lol",
    "bot",
    "mpestimate",
    "mpbot",
    "again",
)
# What a throughput counts ("it/s", "samples/sec", "tokens per second"): rule
# ``throughput_is_speed`` reads "25% more it/s" as 25% faster.
WORK_NOUNS = (
    "it",
    "its",
    "iter",
    "iters",
    "iteration",
    "iterations",
    "step",
    "steps",
    "sample",
    "samples",
    "seq",
    "seqs",
    "sequence",
    "sequences",
    "token",
    "tokens",
    "tok",
    "toks",
    "img",
    "imgs",
    "image",
    "images",
    "batch",
    "batches",
    "frame",
    "frames",
    "ex",
    "example",
    "examples",
)
SECOND_WORDS = ("s", "sec", "secs", "second", "seconds")
PER_WORDS = ("per", "a", "each", "every")
MILLISECOND_WORDS = ("ms", "msec", "millisecond", "milliseconds")
# How many steps a run has: "20k iterations", "500 steps".
STEP_COUNT_NOUNS = ("it", "its", "iter", "iters", "iteration", "iterations", "step", "steps")
# Verbs that slow something down: "slowed down by 1.5x", "slows training by 2x".
SLOWING_VERBS = ("slowed", "slows", "slow", "slowing", "slowdown", "slower")
# "three times as slow": the adjective after "as".
SLOW_ADJECTIVES = ("slow", "long")
# Training verbs that make "can I train a 3B on a 24GB 3090?" a memory question.
TRAIN_VERBS = (
    "train",
    "training",
    "trains",
    "fine-tune",
    "finetune",
    "fine-tuning",
    "finetuning",
    "fine-tuned",
    "pretrain",
    "pre-train",
    "pretraining",
    "tune",
    "run",
    "load",
    "host",
)
# Labels of a run's time that are not deadlines: "ETA 30h", "wall-clock 30h".
RUN_TIME_LABELS = ("eta", "wall-clock", "wallclock", "wall-time", "walltime")
# Words of what the bot answers: a question with none of these is off-topic
# (rule ``off_topic_question``) and gets one line saying what the bot does.
TOPIC_WORDS = (
    "time",
    "times",
    "speed",
    "speedup",
    "speed-up",
    "faster",
    "slower",
    "fast",
    "slow",
    "ratio",
    "estimate",
    "estimates",
    "long",
    "hours",
    "days",
    "memory",
    "vram",
    "fit",
    "fits",
    "cost",
    "costs",
    "price",
    "cheaper",
    "help",
    "usage",
    "how",
    "bot",
    "command",
    "commands",
    "mpestimate",
    "mpbot",
    "throughput",
    "worth",
    "benefit",
    "gain",
    "gains",
    "experiment",
    "record",
    "history",
    "what",
    "works",
    "work",
)
# Words of a question without a question mark.
QUESTION_LEADS = (
    "will",
    "would",
    "should",
    "does",
    "do",
    "is",
    "are",
    "can",
    "could",
    "which",
    "why",
    "best",
    "what",
    "when",
    "where",
    "who",
)
# "without amp", "no fp16": the precision named is the one NOT used.
NEGATIONS = ("without", "no", "w/o", "disable", "disabled", "non")
# A negation that stands alone for "without the mixed precision" ("1.1 it/s without").
BARE_NEGATIONS = ("without", "disabled", "off")
# Words that start a new clause when looking back for what a rate is said of.
CLAUSE_JOINERS = ("and", "vs", "versus", "while", "but", "whereas", "then")
COMMAND_JOINERS = ("and", "&", "+")
# Limits that still name the run's time when FP32 is said right after ("budget is 30h fp32").
RUN_LIMITS = ("budget",)
BILLIONS = ("billion", "bn")
# What a question off the bot's topic is about: training quality, not time or memory
# (rule ``off_topic_question``: "will bf16 change my final accuracy?", "best lr for bf16?").
OFF_TOPIC_WORDS = (
    "accuracy",
    "lr",
    "loss",
    "losses",
    "convergence",
    "converge",
    "converges",
    "overfit",
    "overfitting",
    "perplexity",
    "bleu",
    "f1",
    "metric",
    "metrics",
    "score",
    "scores",
    "quality",
    "results",
    "hyperparameter",
    "hyperparameters",
    "dropout",
    "seed",
    "diverge",
    "diverges",
    "divergence",
    "scaler",
    "optimizer",
)
OFF_TOPIC_PHRASES = ("learning rate", "weight decay", "final accuracy", "loss scale")

# Currencies (rule ``currency``): names, plurals, symbols and country adjectives come
# from Babel's CLDR data (``bot/understanding/currencies.py``). Kept here only what
# CLDR cannot decide: the currency a word names when CLDR gives it to several
# ("dollar" is the US dollar, "dinar" the Kuwaiti one), words CLDR does not know
# ("bucks"), and "?" where no default is honest ("lira" alone: Turkish? the
# Lebanese and Syrian pounds are called lira too; the reply asks which).
CURRENCY_DEFAULTS = {
    "dollar": "USD",
    "dollars": "USD",
    "buck": "USD",
    "bucks": "USD",
    "pound": "GBP",
    "pounds": "GBP",
    "riyal": "SAR",
    "riyals": "SAR",
    "dinar": "KWD",
    "dinars": "KWD",
    "dirham": "AED",
    "dirhams": "AED",
    "lira": "?",
    "liras": "?",
}
# CLDR currency names that are everyday English words too ("10 real hours",
# "we won 2x"): read as a currency only with their country ("Brazilian real").
CURRENCY_WORDS_NEEDING_COUNTRY = (
    "real",
    "reals",
    "won",
    "rand",
    "mark",
    "marks",
    "kip",
    "som",
    "dram",
    "gold",
)
# ISO codes read as a currency with no price cue ("10 SAR"); any other code
# needs one ("at 300 MAD"), so "try", "all" or "top" stay words.
CURRENCY_CODES_ALWAYS = ("usd", "eur", "gbp", "sar", "aed", "egp", "qar", "kwd")
# Country adjectives CLDR does not write in a currency's name ("American dollars").
CURRENCY_COUNTRY_EXTRAS = {"american": "USD", "sterling": "GBP", "emirati": "AED"}
# Symbols CLDR's English and Arabic data write as a code ("TRY", "ر.س."), and
# country letters glued to a symbol that CLDR spells otherwise ("E£200", "C$5").
CURRENCY_SYMBOL_EXTRAS = {"₺": "TRY", "﷼": "SAR"}
PREFIXED_SYMBOL_EXTRAS = {
    ("e", "£"): "EGP",
    ("le", "£"): "EGP",
    ("c", "$"): "CAD",
    ("s", "$"): "SGD",
}
