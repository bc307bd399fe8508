"""Mirror Mansion's camera side: the reader of the box (dots, top planes, pose, stickers),
the renderer and the `sim` camera's scripted film, the printable sheets and the vision CLI.

Everything here may import OpenCV; the rules engine (`../rules/`) never does, and nothing
here imports live play (`../table/`).
"""
