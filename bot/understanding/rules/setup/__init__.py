"""Dimension setup: counts, prices, currencies, dates and the setup words."""
