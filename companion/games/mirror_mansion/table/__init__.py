"""Mirror Mansion's live play: the typed messages, the tracker, the table game and its web
router (see live.py)."""
