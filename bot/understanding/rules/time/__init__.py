"""Dimension time: durations, what is not the job's time, dates and clocks, FP32 and
mixed pairs, bare numbers by position."""
