"""Stage 1: raw text -> normalised text -> tokens (and the language it is written in)."""
