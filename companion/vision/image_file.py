"""Reading an image file given by a user: the size is checked before any pixel is decoded.

A 20000 x 20000 PNG is 1.2 GB of pixels once decoded, more than a 2 GB Pi can spare, and a
40000 x 40000 one makes OpenCV itself fail. The header (read by Pillow, which decodes
nothing on `open`) says how big the picture is; past `limits.max_image_pixels` the file is
refused with one line saying so.
"""

from __future__ import annotations

import warnings
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from companion.errors import UserError

DEFAULT_MAX_PIXELS = 50_000_000
"""A 50-megapixel phone photo fits (150 MB decoded); see `limits.max_image_pixels`."""


@cache
def max_pixels() -> int:
    """The configured limit (`limits.max_image_pixels` in the environment), read once."""
    from companion.config import load_settings

    try:
        return load_settings(None).limits.max_image_pixels
    except UserError:
        return DEFAULT_MAX_PIXELS


def image_size(path: Path) -> tuple[int, int] | None:
    """(width, height) from the header, or None if Pillow does not know the format."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            previous, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None
            try:
                with Image.open(path) as img:
                    return img.size
            finally:
                Image.MAX_IMAGE_PIXELS = previous
    except (UnidentifiedImageError, OSError, ValueError):
        return None


def check_image_path(path: str | Path, missing: str = "image not found") -> Path:
    """The path of an image the user named, refused in one line when it is missing or a folder.

    Commands check every path before reading any, so a typo in the last argument is
    reported before the first image's output; `missing` keeps each command's own wording."""
    p = Path(path)
    if not p.exists():
        raise UserError(f"{missing}: {p}")
    if p.is_dir():
        raise UserError(f"{p} is a folder, not an image")
    return p


def check_image_format(path: str) -> Path:
    """A file OpenCV has a reader for (judged by its header, nothing decoded): the card
    readers' commands check this of every image before the (slow) library loads."""
    p = Path(path)
    if not p.is_file():
        raise UserError(f"image not found: {path}")
    if not cv2.haveImageReader(str(p)):
        raise UserError(f"not an image (or unreadable): {path}")
    return p


def write_jpeg(path: Path, image: np.ndarray, quality: int = 95) -> Path:
    """Write a rendered photograph; a folder that cannot take it is a UserError, not a
    silent `False` from OpenCV."""
    if not cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, quality]):
        raise UserError(f"cannot write {path}")
    return path


def read_image(
    path: str | Path, limit: int | None = None, flags: int = cv2.IMREAD_COLOR
) -> np.ndarray:
    """The image as OpenCV reads it; a missing, unreadable or too large file is a UserError."""
    p = check_image_path(path)
    limit = max_pixels() if limit is None else limit
    size = image_size(p)
    if size is not None and size[0] * size[1] > limit:
        raise UserError(
            f"{p} is {size[0]} x {size[1]} pixels ({size[0] * size[1] / 1e6:.0f} MP); images "
            f"over {limit / 1e6:.0f} MP are refused (limits.max_image_pixels): scale it down"
        )
    try:
        image = cv2.imread(str(p), flags)
    except cv2.error as exc:
        raise UserError(f"{p} cannot be decoded: {exc.err or exc}") from None
    if image is None:
        raise UserError(f"{p} is not an image OpenCV can read")
    if size is None and image.shape[0] * image.shape[1] > limit:
        raise UserError(f"{p} is larger than {limit / 1e6:.0f} MP (limits.max_image_pixels)")
    return image
