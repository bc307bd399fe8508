"""Reflecto: two players race their secret words' letter screens across a grid, peeking at
each other's letters with mirror screens (rules/, vision/, table/, commands.py)."""
