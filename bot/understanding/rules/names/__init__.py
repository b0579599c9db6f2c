"""Dimension names: GPUs and models."""
