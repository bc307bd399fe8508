"""The companion: a camera over the table that follows mirror-themed games."""

__version__ = "0.1.0"
