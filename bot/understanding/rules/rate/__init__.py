"""Dimension rate: step times and throughputs, and the precision each is said of."""
