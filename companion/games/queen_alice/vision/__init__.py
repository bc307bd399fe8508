"""Queen Alice's camera side: the Central board's chessboard, Crowns and Alice's Paths."""
