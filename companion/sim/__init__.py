"""Synthetic photographs of a table: a virtual camera and the blemishes of real ones.

Every game's renderer draws its table top-down in millimetres and hands the canvas to
`VirtualCamera.render_plane`; pieces that stand up (mirrors, castle cards) are projected
with `VirtualCamera.project` at their true height. `effects` adds what real photographs
have: uneven light, glare, shadows, noise, blur, JPEG and hands.
"""
