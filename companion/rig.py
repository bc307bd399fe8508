"""`companion rig`: how high to hang the camera over a table, and how many pixels a card gets.

Planning the mount before drilling a hole is pure geometry, so this module is a pinhole
model of the published fields of view and needs neither OpenCV nor a camera. Two questions:

- given a play area, the lowest mount that sees all of it (plus a margin for the corner
  markers), and the pixels per millimetre and card width that result;
- given a mount height, what the camera covers, and whether a play area fits.

Conventions (the same as `companion.sim`'s table): x runs across the table, y away from
the camera's foot. The camera hangs `height` mm above the table and is aimed at the centre
of the play area; `tilt` is the angle of its optical axis from straight down, leaning along
y (the image's vertical). A straight-down camera sees the table as a scaled copy, so its
px/mm is the same everywhere; a tilted one sees the far edge smaller than the centre, which
is why the far edge is reported.

Lens distortion is ignored: wide lenses (Camera Module 3 Wide) have barrel distortion, so
the real px/mm is somewhat higher than printed at the centre and lower in the corners.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from dataclasses import asdict, dataclass

from companion.cli_args import CommandParser
from companion.errors import UserError


@dataclass(frozen=True)
class Lens:
    """A camera's full field of view, on its sensor's native aspect ratio."""

    label: str
    hfov_deg: float
    vfov_deg: float
    source: str


def _from_diagonal(dfov_deg: float, aspect_w: float, aspect_h: float) -> tuple[float, float]:
    """Horizontal and vertical fields of a rectilinear lens whose box quotes the diagonal."""
    t = math.tan(math.radians(dfov_deg) / 2) / math.hypot(aspect_w, aspect_h)
    return (
        math.degrees(2 * math.atan(t * aspect_w)),
        math.degrees(2 * math.atan(t * aspect_h)),
    )


_USB78 = _from_diagonal(78.0, 16, 9)

# Published figures. The Raspberry Pi ones are from the camera documentation's hardware
# specification table (raspberrypi.com/documentation/accessories/camera.html): Camera
# Module 3 66° x 41° (75° diagonal), Camera Module 3 Wide 102° x 67° (120° diagonal),
# Camera Module 2 62.2° x 48.8°. "usb-78" is the 78° diagonal, 16:9 sensor that typical
# 1080p webcams quote (e.g. Logitech C920/C922), which works out to about 70.4° x 43.3°.
PRESETS: dict[str, Lens] = {
    "cm3": Lens(
        "Raspberry Pi Camera Module 3", 66.0, 41.0, "Raspberry Pi documentation: 66° H x 41° V"
    ),
    "cm3-wide": Lens(
        "Raspberry Pi Camera Module 3 Wide",
        102.0,
        67.0,
        "Raspberry Pi documentation: 102° H x 67° V",
    ),
    "cm2": Lens(
        "Raspberry Pi Camera Module 2", 62.2, 48.8, "Raspberry Pi documentation: 62.2° H x 48.8° V"
    ),
    "usb-78": Lens(
        "USB webcam, 78° diagonal (16:9 sensor)",
        round(_USB78[0], 2),
        round(_USB78[1], 2),
        "typical 1080p webcam datasheet: 78° diagonal on a 16:9 sensor",
    ),
}


@dataclass(frozen=True)
class View:
    """The camera as one image of `width_px` x `height_px` sees the world.

    `tan_h`/`tan_v` are the tangents of the half-angles of that image (not of the sensor):
    the Pi's camera stack crops the sensor to the requested aspect ratio, so a 4:3 image from
    a 16:9 sensor keeps the vertical field and loses the sides.
    """

    width_px: int
    height_px: int
    tan_h: float
    tan_v: float
    crop: str | None = None

    @property
    def focal_x(self) -> float:
        return self.width_px / 2 / self.tan_h

    @property
    def focal_y(self) -> float:
        return self.height_px / 2 / self.tan_v

    @property
    def hfov_deg(self) -> float:
        return math.degrees(2 * math.atan(self.tan_h))

    @property
    def vfov_deg(self) -> float:
        return math.degrees(2 * math.atan(self.tan_v))


def view_of_lens(lens: Lens, width_px: int, height_px: int) -> View:
    """Crop the lens's native field to the image's aspect ratio, keeping pixels square."""
    tan_h = math.tan(math.radians(lens.hfov_deg) / 2)
    tan_v = math.tan(math.radians(lens.vfov_deg) / 2)
    aspect = width_px / height_px
    # Published angles are rounded (and not quite pinhole), so within 3% of the native shape
    # the image is taken to be the whole sensor.
    if aspect < tan_h / tan_v * 0.97:
        return View(width_px, height_px, tan_v * aspect, tan_v, crop="sides")
    if aspect > tan_h / tan_v * 1.03:
        return View(width_px, height_px, tan_h, tan_h / aspect, crop="top and bottom")
    return View(width_px, height_px, tan_h, tan_v)


def view_of_angles(
    hfov_deg: float | None, vfov_deg: float | None, width_px: int, height_px: int
) -> View:
    """Angles measured on this very image; a missing one follows from square pixels."""
    aspect = width_px / height_px
    if hfov_deg is not None:
        tan_h = math.tan(math.radians(hfov_deg) / 2)
    if vfov_deg is not None:
        tan_v = math.tan(math.radians(vfov_deg) / 2)
    if hfov_deg is None:
        tan_h = tan_v * aspect
    if vfov_deg is None:
        tan_v = tan_h / aspect
    return View(width_px, height_px, tan_h, tan_v)


# --- geometry of a camera aimed at the centre of the area, `tilt` from straight down ---


def _depth(y_mm: float, height_mm: float, tilt: float) -> float:
    """Distance along the optical axis to the table point (0, y): what sets its scale."""
    return y_mm * math.sin(tilt) + height_mm / math.cos(tilt)


def min_height(half_w: float, half_d: float, view: View, tilt: float) -> float:
    """Lowest mount whose image holds the rectangle of half-sizes `half_w` x `half_d`.

    A table point (x, y) lands inside the image when |x| <= tan_h * depth and
    |y| cos(tilt) <= tan_v * depth; both are linear in the height, so each corner gives a
    bound and the answer is the largest. The rectangle is convex and so is the camera's
    footprint, so fitting the four corners fits the whole rectangle.
    """
    bounds = [0.0]
    c, s = math.cos(tilt), math.sin(tilt)
    for y in (-half_d, half_d):
        bounds.append(c * (half_w / view.tan_h - y * s))
        bounds.append(c * (half_d * c / view.tan_v - y * s))
    return max(bounds)


@dataclass(frozen=True)
class Footprint:
    """What one image covers on the table, relative to the point the camera aims at."""

    near_mm: float
    far_mm: float
    near_width_mm: float
    far_width_mm: float

    @property
    def depth_mm(self) -> float:
        return self.far_mm - self.near_mm


def footprint(height_mm: float, view: View, tilt: float) -> Footprint:
    """The trapezoid (a rectangle when straight down) under the camera."""

    def edge(y_norm: float) -> tuple[float, float]:
        y = y_norm * height_mm / (math.cos(tilt) * (math.cos(tilt) - y_norm * math.sin(tilt)))
        return y, 2 * view.tan_h * _depth(y, height_mm, tilt)

    near, near_w = edge(-view.tan_v)
    far, far_w = edge(view.tan_v)
    return Footprint(near, far, near_w, far_w)


@dataclass(frozen=True)
class Scale:
    """Pixels per millimetre at one table point, across the table and along it."""

    across: float
    along: float

    @property
    def worst(self) -> float:
        return min(self.across, self.along)


def scale_at(y_mm: float, height_mm: float, view: View, tilt: float) -> Scale:
    depth = _depth(y_mm, height_mm, tilt)
    return Scale(view.focal_x / depth, view.focal_y * height_mm / depth**2)


def max_height_for_card(
    card_mm: float, card_px: float, far_y: float, low: float, view: View, tilt: float
) -> float | None:
    """Highest mount (at or above `low`) where a card at the far edge is still `card_px` wide.

    None when even `low` is too high. The along-the-table scale first grows with height when
    tilted (the far edge turns to face the camera) and then falls, so start the search from
    its peak.
    """

    def px(h: float) -> float:
        return card_mm * scale_at(far_y, h, view, tilt).worst

    start = max(low, far_y * math.sin(tilt) * math.cos(tilt))
    if px(low) < card_px and px(start) < card_px:
        return None
    lo, hi = start, start * 2 + 1
    while px(hi) >= card_px:
        lo, hi = hi, hi * 2
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if px(mid) >= card_px else (lo, mid)
    return lo


# --- command line ---


def _size(text: str, what: str, kind: type = float) -> tuple[float, float]:
    match = re.fullmatch(r"\s*([0-9.]+)\s*[x×X,]\s*([0-9.]+)\s*", text)
    if not match:
        raise UserError(f"{what} {text!r}: expected WIDTHxHEIGHT, e.g. 600x450")
    try:
        w, h = kind(match.group(1)), kind(match.group(2))
    except ValueError:
        raise UserError(f"{what} {text!r}: not {'whole ' if kind is int else ''}numbers") from None
    if w <= 0 or h <= 0:
        raise UserError(f"{what} {text!r}: both sides must be positive")
    return w, h


def _build_parser() -> argparse.ArgumentParser:
    p = CommandParser(
        prog="companion rig",
        description=(
            "Mount height, coverage and pixels per millimetre for a camera over a table. "
            "Give --area to get the lowest mount that sees it, or --height to see what a "
            "mount covers (both: whether the area fits at that height)."
        ),
    )
    p.add_argument("--area", metavar="WxH", help="play area in mm, e.g. 600x450")
    p.add_argument("--height", type=float, metavar="MM", help="lens height above the table")
    p.add_argument(
        "--camera",
        default="cm3",
        choices=sorted(PRESETS),
        help="camera preset (published field of view); default cm3",
    )
    p.add_argument(
        "--hfov",
        type=float,
        metavar="DEG",
        help="horizontal field of view of this image (overrides --camera)",
    )
    p.add_argument(
        "--vfov",
        type=float,
        metavar="DEG",
        help="vertical field of view of this image (overrides --camera)",
    )
    p.add_argument("--resolution", default="1280x960", metavar="WxH", help="default 1280x960")
    p.add_argument("--tilt", type=float, default=0.0, metavar="DEG", help="from straight down")
    p.add_argument(
        "--margin",
        type=float,
        default=40.0,
        metavar="MM",
        help="extra border seen on every side (corner markers, slack); default 40",
    )
    p.add_argument(
        "--card",
        type=float,
        default=63.0,
        metavar="MM",
        help="width of the smallest thing to read (a card, a sticker dot); default 63",
    )
    p.add_argument(
        "--card-px", type=float, default=80.0, metavar="PX", help="card width wanted; 80"
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    return p


def _check(args: argparse.Namespace) -> None:
    for name in ("height", "hfov", "vfov", "card", "card_px"):
        value = getattr(args, name)
        if value is not None and not (math.isfinite(value) and value > 0):
            raise UserError(f"--{name.replace('_', '-')} must be a positive number, not {value}")
    for name in ("hfov", "vfov"):
        value = getattr(args, name)
        if value is not None and value >= 180:
            raise UserError(f"--{name} must be below 180 degrees, not {value}")
    if not (math.isfinite(args.margin) and args.margin >= 0):
        raise UserError(f"--margin must be zero or more, not {args.margin}")
    if not (math.isfinite(args.tilt) and 0 <= args.tilt < 90):
        raise UserError(f"--tilt must be from 0 to below 90 degrees, not {args.tilt}")
    if args.area is None and args.height is None:
        raise UserError("give --area WxH (mm) or --height MM (or both)")


def _up(mm: float) -> float:
    """Round a lower bound up (to 0.1 mm), so typing the printed number back still fits."""
    return math.ceil(mm * 10 - 1e-9) / 10


def _down(mm: float) -> float:
    """Round an upper bound down (to 0.1 mm), for the same reason."""
    return math.floor(mm * 10 + 1e-9) / 10


def plan(args: argparse.Namespace) -> dict[str, object]:
    """Everything the command prints, as plain data (the --json output)."""
    _check(args)
    width_px, height_px = (int(v) for v in _size(args.resolution, "--resolution", int))
    if args.hfov is not None or args.vfov is not None:
        view = view_of_angles(args.hfov, args.vfov, width_px, height_px)
        label, source = "explicit field of view", "--hfov/--vfov"
    else:
        lens = PRESETS[args.camera]
        view = view_of_lens(lens, width_px, height_px)
        label, source = lens.label, lens.source
    tilt = math.radians(args.tilt)
    if args.tilt + view.vfov_deg / 2 >= 89.0:
        raise UserError(
            f"--tilt {args.tilt:g}: the top of a {view.vfov_deg:.1f}° image would reach the "
            "horizon; tilt less"
        )
    area = _size(args.area, "--area") if args.area is not None else None
    m = args.margin
    need = min_height(area[0] / 2 + m, area[1] / 2 + m, view, tilt) if area else None
    height = args.height if args.height is not None else need
    assert height is not None  # _check asked for --area or --height
    foot = footprint(height, view, tilt)
    largest = None
    if area is not None:
        half_d = area[1] / 2
    else:  # the largest area of the image's shape that the mount sees
        k = height / min_height(view.tan_h, view.tan_v, view, tilt)
        largest = (max(2 * (view.tan_h * k - m), 0.0), max(2 * (view.tan_v * k - m), 0.0))
        half_d = largest[1] / 2
    centre = scale_at(0.0, height, view, tilt)
    far = scale_at(half_d, height, view, tilt)
    top = None
    if need is not None or args.tilt == 0:  # a tilted mount's far edge moves with its height
        low = need if need is not None else 1e-6
        top = max_height_for_card(args.card, args.card_px, half_d, low, view, tilt)
    out: dict[str, object] = {
        "camera": {
            "name": args.camera if args.hfov is None and args.vfov is None else "custom",
            "label": label,
            "source": source,
            "resolution": [width_px, height_px],
            "hfov_deg": round(view.hfov_deg, 2),
            "vfov_deg": round(view.vfov_deg, 2),
            "sensor_crop": view.crop,
        },
        "tilt_deg": args.tilt,
        "margin_mm": m,
        "area_mm": list(area) if area is not None else None,
        "height_mm": _up(height) if args.height is None else height,
        "height_is": "given" if args.height is not None else "minimum",
        "min_height_mm": _up(need) if need is not None else None,
        "fits": bool(height >= need - 1e-6) if need is not None else None,
        "coverage_mm": {k: round(v, 1) for k, v in asdict(foot).items()}
        | {"depth_mm": round(foot.depth_mm, 1)},
        "px_per_mm": {
            "centre": {"across": round(centre.across, 3), "along": round(centre.along, 3)},
            "far_edge": {"across": round(far.across, 3), "along": round(far.along, 3)},
        },
        "card": {
            "width_mm": args.card,
            "px_centre": round(args.card * centre.worst, 1),
            "px_far_edge": round(args.card * far.worst, 1),
            "wanted_px": args.card_px,
            "max_height_mm": _down(top) if top is not None else None,
        },
    }
    if largest is not None:
        out["largest_area_mm"] = [_down(largest[0]), _down(largest[1])]
    return out


def _text(p: dict) -> str:
    cam, cov, ppm, card = p["camera"], p["coverage_mm"], p["px_per_mm"], p["card"]
    w, h = cam["resolution"]
    crop = f", sensor cropped at the {cam['sensor_crop']}" if cam["sensor_crop"] else ""
    lines = [
        f"camera: {cam['label']} at {w}x{h}: {cam['hfov_deg']:.1f}° x {cam['vfov_deg']:.1f}°{crop}",
        f"  ({cam['source']}; pinhole model, lens distortion ignored)",
    ]
    tilted = p["tilt_deg"] > 0
    if tilted:
        lines.append(f"tilt: {p['tilt_deg']:g}° from straight down, aimed at the area's centre")
    if p["area_mm"] is not None:
        aw, ah = p["area_mm"]
        lines.append(f"play area: {aw:g} x {ah:g} mm, plus {p['margin_mm']:g} mm on every side")
        lines.append(
            f"minimum mount height: {math.ceil(p['min_height_mm'])} mm (lens above the table)"
        )
        if p["height_is"] == "given":
            verdict = "fits" if p["fits"] else "does NOT fit: mount higher or use a wider lens"
            lines.append(f"at {p['height_mm']:.0f} mm the area {verdict}")
    else:
        lines.append(f"mount height: {p['height_mm']:.0f} mm")
    if tilted:
        lines.append(
            f"covered: {cov['depth_mm']:.0f} mm deep, {cov['near_width_mm']:.0f} mm wide at the "
            f"near edge, {cov['far_width_mm']:.0f} mm at the far edge"
        )
    else:
        lines.append(f"covered: {cov['near_width_mm']:.0f} x {cov['depth_mm']:.0f} mm")
    if "largest_area_mm" in p:
        lw, lh = p["largest_area_mm"]
        lines.append(f"largest play area inside the margin: {lw:.0f} x {lh:.0f} mm")
    c, f = ppm["centre"], ppm["far_edge"]
    if tilted:
        lines.append(f"px/mm at the centre: {c['across']:.2f} across, {c['along']:.2f} along")
        lines.append(f"px/mm at the far edge: {f['across']:.2f} across, {f['along']:.2f} along")
        lines.append(
            f"a card {card['width_mm']:g} mm wide: {card['px_centre']:.0f} px at the centre, "
            f"{card['px_far_edge']:.0f} px at the far edge"
        )
    else:
        lines.append(f"px/mm: {min(c['across'], c['along']):.2f} everywhere on the table")
        lines.append(f"a card {card['width_mm']:g} mm wide: {card['px_centre']:.0f} px")
    if card["max_height_mm"] is None and (p["area_mm"] is not None or not tilted):
        lines.append(
            f"no mount gives a card {card['wanted_px']:g} px here: use a higher resolution "
            "or a smaller area or margin"
        )
    elif card["max_height_mm"] is not None:
        lines.append(
            f"highest mount that keeps a card at least {card['wanted_px']:g} px wide: "
            f"{math.floor(card['max_height_mm'])} mm"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    args = _build_parser().parse_args(argv)
    result = plan(args)
    print(json.dumps(result, indent=2, ensure_ascii=False) if args.json else _text(result))
    return 0
