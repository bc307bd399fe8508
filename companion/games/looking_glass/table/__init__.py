"""The Looking Glass at the table: live play (`live.py`), its tracker and its web router."""
