"""Stage 2: numbers and units: number words, the unit and word tables, rate units,
and the look-ups around a number that every rule shares."""
