"""Reflecto's live play: the tracker, the table game, its web router (see live.py)."""
