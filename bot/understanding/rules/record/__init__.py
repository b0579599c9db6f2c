"""Dimension record: the record, history and delete commands and their measurements."""
