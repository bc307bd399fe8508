"""Held-out painters: card and table designs the readers are measured on and NEVER tuned on.

Nothing in here may be read while developing a reader, and no failure seen here may become a
development case; the numbers they give are only meaningful while that holds.
"""
