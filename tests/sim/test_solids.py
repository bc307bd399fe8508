"""Standing solids: a slab's faces, where its front texture reads, and what is painted."""

from __future__ import annotations

import numpy as np

from companion.sim.camera import VirtualCamera
from companion.sim.solids import draw_solids, slab

PLAIN = {"front": (0, 0, 0), "back": (0, 0, 0), "end": (0, 0, 0), "top": (0, 0, 0)}


def test_a_front_texture_reads_left_to_right_from_in_front():
    """Seen from the +v side, the texture's top-left corner is on the viewer's left (a
    letter on a screen is not mirror-written)."""
    solid = slab((0.0, 0.0), np.array([1.0, 0.0]), 34, 8, 30, PLAIN, bottom_mm=3)
    for yaw in (0, 45, 315):  # cameras on the +y side, looking at the slab's front
        cam = VirtualCamera.looking_at(
            (0.0, 0.0), 300, tilt_deg=60, yaw_deg=yaw, width=640, height=480, hfov_deg=60
        )
        assert cam.C[1] > 0
        tl, tr, br, bl = cam.project(solid.faces[0].quad)
        assert tl[0] < tr[0] and bl[0] < br[0] and tl[1] < bl[1]


def test_a_slab_stands_between_its_heights_and_only_faces_toward_us_are_painted():
    solid = slab((0.0, 0.0), np.array([0.0, 2.0]), 40, 10, 25, PLAIN, bottom_mm=5)
    zs = np.concatenate([f.quad[:, 2] for f in solid.faces])
    assert (zs.min(), zs.max()) == (-25.0, -5.0) and solid.centre[2] == -15.0
    for f in solid.faces:  # outward normals: each face lies on the far side of the centre
        assert float(f.normal @ (f.quad.mean(axis=0) - solid.centre)) > 0
    cam = VirtualCamera.looking_at(
        (0.0, 0.0), 400, tilt_deg=0, yaw_deg=0, width=320, height=240, hfov_deg=60
    )
    img = np.full((240, 320, 3), 255, np.uint8)
    draw_solids(
        img,
        cam,
        [slab((0.0, 0.0), np.array([1.0, 0.0]), 40, 10, 25, {**PLAIN, "top": (0, 0, 200)})],
        np.array([0.0, 0.0, -1.0]),
    )
    centre = cam.project(np.array([[0.0, 0.0, -25.0]]))[0].round().astype(int)
    b, _, r = (int(x) for x in img[centre[1], centre[0]])
    assert r > 150 and b < 50  # the top, in its paint, lit from straight above
    assert (img.min(axis=2) < 255).sum() < 320 * 240 // 4  # and the rest left alone
