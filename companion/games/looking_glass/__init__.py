"""Reflections in the Looking Glass: two players take cards from a mirrored layout.

Parts, as ARCHITECTURE.md shapes a game:
- `rules/`: the pure engine (`ENGINE`, in `engine.py`), with `deck` and `layout` (component
  data from models/looking-glass), `deal`, `scoring`, `players` and `hint` (computer players,
  on the `solver`), `simulate`;
- `vision/` and the readers beside it (`read`, `teach`, `render`, ...): seeing the table;
- `table/`: live play (`live.py`: the engine driven by the camera), its `track`er and `web`
  router;
- `commands.py`: the CLI verbs.
"""
