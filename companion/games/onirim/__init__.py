"""Onirim (Second Edition) with the Mirrors promo cards: the solo game (see docs/onirim.md)."""
