"""Onirim at the camera: the table's layout, the renderer, teach and the reader."""
