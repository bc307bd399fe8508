"""Queen Alice's pure rules: the chessboard model, chess movement, the final scoring.

There is no `ENGINE` here yet on purpose: a partial engine must not be registered (the
conformance check runs every engine `companion.games.engines()` finds).
"""
