"""Reflections in the Looking Glass: two players take cards from a mirrored layout.

Parts: `deck` and `layout` (component data from models/looking-glass), `scoring` (pure),
`rules` (the engine, `ENGINE`), `players` and `hint` (computer players), `simulate`,
`commands` (the CLI verbs).
"""
