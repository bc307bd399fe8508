"""Moved to `companion.games.looking_glass.rules.layout`: this name stays the same module (not a
copy: one `Deck`, one `Layout`) while the vision side still imports it here. Import the new
path; remove this file once nothing imports the old one."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("companion.games.looking_glass.rules.layout")
