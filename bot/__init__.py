"""mpestimate: a bilingual Slack bot that estimates mixed-precision training time."""

__version__ = "0.1.0"
