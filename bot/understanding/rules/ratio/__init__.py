"""Dimension ratio: ratio markers and the cues around them."""
