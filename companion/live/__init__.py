"""The live service: capture, registration, the active game's perception and tracking, the store.

`table_game` is the contract a game implements to play at the table; `loop.Runtime` runs it.
"""
