"""Queen Alice: chess moves on the Central board, and the final scoring calculator."""
