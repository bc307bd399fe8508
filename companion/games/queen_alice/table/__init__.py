"""Queen Alice at the table: the camera's chessboard, tracked piece by piece, checked by the
engine, with everything the camera cannot see tapped in on the phones."""
