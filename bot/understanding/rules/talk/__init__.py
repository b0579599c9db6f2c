"""Dimension talk: small talk and requests for a reply language."""
