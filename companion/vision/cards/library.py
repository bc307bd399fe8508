"""The card library: what teach learned about the user's own deck, and how cards are matched.

Game-independent: a game keeps its library where it likes (each game's own
`games/<game>/vision/library.py` says where).

For each card id the library keeps the rectified UPPER half of the face (the part a covered
card still shows), as a small Lab patch, plus the card's measured shape: its aspect and the
width of its light border; and the whole face, rectified at `FACE_PX_PER_MM`, from which the
feature reader (`companion.vision.cards.features`) learns the art's local features. The
light-border reader finds card *interiors* (the art inside the border), so the border width
is what turns an interior back into the whole card.

Stored as one `.npz` file (arrays + a JSON header).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.lib.stride_tricks import as_strided

from companion.errors import UserError

CARD_W_MM = 63.0
"""Width of a poker card; everything else is measured relative to it by `teach`."""
PATCH_W, PATCH_H = 48, 30
"""Canonical upper-half patch, in pixels."""
PATCH_LEN = PATCH_H * PATCH_W * 3
FACE_PX_PER_MM = 3.0
"""Resolution of a stored whole face: about twice what a card shows at the table (1280 px)."""
SEARCH_PX = 2
"""A read patch is cut this much larger on every side and the template slid inside it,
so a card found a millimetre or two off still matches."""
FORMAT = 1
CHANNEL_WEIGHTS = np.array([0.8, 1.1, 1.1], np.float32)
"""Lab weights of a descriptor: chroma tells two faces apart more than lightness does."""


def card_outline_mm(height_mm: float, dtype: type = np.float32) -> np.ndarray:
    """A card's corners in card mm (origin its top-left, y down the card; TL, TR, BR, BL): the
    one frame every homography between a card and a picture of it is made against."""
    return np.array([[0, 0], [CARD_W_MM, 0], [CARD_W_MM, height_mm], [0, height_mm]], dtype)


CELLS_X, CELLS_Y = 6, 3
"""The grid `match_visible` compares a partly hidden card by (cells of 8 × 10 patch px)."""
VISIBLE_SHARE = 0.6
"""...scoring each template by its best cells, this share of them: an arm may hide the rest."""


def _cells(a: np.ndarray) -> np.ndarray:
    """(..., PATCH_H, PATCH_W, 3) -> (..., cells, values): each cell's values less its own
    mean per channel."""
    lead = a.shape[:-3]
    ch, cw = PATCH_H // CELLS_Y, PATCH_W // CELLS_X
    b = a.reshape(*lead, CELLS_Y, ch, CELLS_X, cw, 3)
    b = np.moveaxis(b, -3, -4).reshape(*lead, CELLS_Y * CELLS_X, ch * cw, 3)
    b = b - b.mean(axis=-2, keepdims=True)
    return b.reshape(*lead, CELLS_Y * CELLS_X, ch * cw * 3)


def _shifted_crops(window: np.ndarray) -> np.ndarray:
    """(shifts, PATCH_LEN): every patch-sized crop of a search window descriptor (each
    shift, row by row, as `sliding_window_view` orders them), contiguous."""
    h, w = window.shape[:2]
    sy, sx = h - PATCH_H + 1, w - PATCH_W + 1
    window = np.ascontiguousarray(window)
    s0, s1, s2 = window.strides
    rows = as_strided(window, (sy, sx, PATCH_H, PATCH_W * 3), (s0, s1, s0, s2), writeable=False)
    out = np.empty((sy, sx, PATCH_H, PATCH_W * 3), window.dtype)
    np.copyto(out, rows)
    return out.reshape(sy * sx, PATCH_LEN)


@dataclass(frozen=True)
class CardShape:
    height_mm: float = 88.0
    border_mm: float = 4.0

    @property
    def width_mm(self) -> float:
        return CARD_W_MM

    def patch_region(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) card mm of the upper-half patch: inside the border, above the
        part the next row may cover (half the height, less a few mm of dealing slack)."""
        b = self.border_mm
        return (b + 1.0, b + 1.0, CARD_W_MM - b - 1.0, self.height_mm / 2 - 4.0)


def face_size(shape: CardShape) -> tuple[int, int]:
    """(width, height) px of a stored whole face of this shape."""
    return round(CARD_W_MM * FACE_PX_PER_MM), round(shape.height_mm * FACE_PX_PER_MM)


def descriptor(patch_bgr: np.ndarray) -> np.ndarray:
    """A patch as float32 Lab, each channel zero-mean unit-variance (gain- and offset-free).

    Chroma channels carry most of what tells two faces apart, so they are weighted up."""
    lab = cv2.cvtColor(patch_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab = cv2.GaussianBlur(lab, (3, 3), 0.7)
    # OpenCV's statistics and arithmetic, not numpy's: the reader calls this ~50 times a
    # frame, and numpy broadcasts a 3-vector over a patch one pixel at a time (the same
    # float32 operations, 15-20 µs a patch more).
    mean, std = (v.reshape(3).astype(np.float32) for v in cv2.meanStdDev(lab))
    # A flat channel (grey art) has no structure; do not blow its noise up.
    gain = CHANNEL_WEIGHTS / np.maximum(std, 6.0)
    cv2.subtract(lab, (*mean.tolist(), 0.0), dst=lab)
    return cv2.multiply(lab, (*gain.tolist(), 0.0), dst=lab)


@dataclass
class Library:
    ids: list[str]
    templates: np.ndarray
    """(n, PATCH_H, PATCH_W, 3) descriptors."""
    patches: np.ndarray
    """(n, PATCH_H, PATCH_W, 3) uint8 BGR, for the dashboard and for humans."""
    shape: CardShape
    faces: np.ndarray | None = None
    """(n, h, w, 3) uint8 BGR whole faces at `FACE_PX_PER_MM` (None: taught before faces were
    kept; the feature reader needs them)."""
    _flat: np.ndarray | None = field(default=None, repr=False)
    _cells: np.ndarray | None = field(default=None, repr=False)
    _cell_valid: np.ndarray | None = field(default=None, repr=False)
    notes: dict[str, Any] = field(default_factory=dict, compare=False)
    """What a game measured once on these faces and keeps with them (JSON values; the Looking
    Glass's reader choice, `choose.reader_choice`): saved in the file's header, so a measure
    that takes seconds is taken once per deck taught, not once per start."""
    derived: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """What is computed from the faces once per library, not once per reader (the feature
    index: the SIFT of every face and its search trees, seconds on a Pi), by its maker's key."""

    def save(self, path: Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        header = {
            "format": FORMAT,
            "ids": self.ids,
            "height_mm": self.shape.height_mm,
            "border_mm": self.shape.border_mm,
            "notes": self.notes,
        }
        tmp = path.with_suffix(".tmp.npz")
        faces: dict[str, Any] = {} if self.faces is None else {"faces": self.faces}
        np.savez_compressed(
            tmp,
            header=np.array(json.dumps(header)),
            templates=self.templates,
            patches=self.patches,
            **faces,
        )
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> Library:
        path = Path(path)
        if not path.is_file():
            raise UserError(
                f"card library not found: {path} (teach your deck first: "
                "`companion teach <game> DIR`)"
            )
        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(str(data["header"]))
                templates = data["templates"].astype(np.float32)
                patches = data["patches"].astype(np.uint8)
                faces = data["faces"].astype(np.uint8) if "faces" in data.files else None
        except (OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
            raise UserError(f"{path}: not a card library ({exc})") from None
        if header.get("format") != FORMAT or templates.shape[1:] != (PATCH_H, PATCH_W, 3):
            raise UserError(f"{path}: card library of an unknown format; teach again")
        shape = CardShape(float(header["height_mm"]), float(header["border_mm"]))
        notes = header.get("notes", {})
        return cls(
            list(header["ids"]),
            templates,
            patches,
            shape,
            faces,
            notes=notes if isinstance(notes, dict) else {},
        )

    def subset(self, keep: list[int]) -> Library:
        """The library of the cards at these indices, in this order."""
        faces = None if self.faces is None else self.faces[keep]
        return Library(
            [self.ids[i] for i in keep], self.templates[keep], self.patches[keep], self.shape, faces
        )

    def match(self, window: np.ndarray, search: bool = True) -> np.ndarray:
        """Best normalised correlation of every template at every shift inside a search window
        descriptor (n scores). One matrix product: shifted crops × templates.
        `search=False`: only the centred crop (a quick look, e.g. which end is the top)."""
        if self._flat is None:
            flat = self.templates.reshape(len(self.ids), -1)
            self._flat = np.ascontiguousarray(
                (flat / np.maximum(1e-6, np.linalg.norm(flat, axis=1, keepdims=True))).T
            )
        m = SEARCH_PX
        if search:
            # Every shift's crop as rows of one array: one copy of a strided view, not 25
            # slices stacked (the reader matches ~100 windows a frame), each crop's row of
            # pixels copied whole (a crop's row is contiguous in the window; numpy's copy of
            # the sliding view walks it a channel at a time, at twice the cost).
            crops = _shifted_crops(window)
        else:
            crops = window[m : m + PATCH_H, m : m + PATCH_W].reshape(1, PATCH_LEN)
        norms = np.sqrt(np.einsum("ij,ij->i", crops, crops))
        # numpy's single-threaded BLAS (see companion/__init__.py) is ~6x faster than cv2.gemm.
        return ((crops @ self._flat) / np.maximum(1e-6, norms)[:, None]).max(axis=0)

    def match_visible(self, patch_bgr: np.ndarray) -> np.ndarray:
        """Template scores of a card part of which an arm hides (n scores): each template is
        compared cell by cell (a 6 × 3 grid, each cell normalised on its own, so a dark arm
        over some does not shift the others), and scored by its best cells, VISIBLE_SHARE of
        them. `patch_bgr`: an upper-half window as `cut_window` cuts it (BGR, with the
        search margin). Evidence that a card is there, not a name: a card's whole face
        matches by `match`."""
        if self._cells is None:
            cells = _cells(self.templates)
            energy = np.linalg.norm(cells, axis=-1)
            # (cell, template, values): one batched product per read.
            self._cells = np.ascontiguousarray(
                (cells / np.maximum(energy, 1e-6)[..., None]).transpose(1, 0, 2)
            )
            # A flat cell of a template (one colour) correlates with noise: left out.
            self._cell_valid = energy > 0.3 * energy.mean(axis=1, keepdims=True)
        assert self._cell_valid is not None
        lab = cv2.cvtColor(patch_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
        lab = cv2.GaussianBlur(lab, (3, 3), 0.7)
        lab *= CHANNEL_WEIGHTS / np.maximum(lab.reshape(-1, 3).std(axis=0), 6.0)
        m = SEARCH_PX
        crops = np.stack(
            [
                lab[dy : dy + PATCH_H, dx : dx + PATCH_W]
                for dy in range(2 * m + 1)
                for dx in range(2 * m + 1)
            ]
        )
        cells = _cells(crops)
        cells /= np.maximum(np.linalg.norm(cells, axis=-1), 1e-6)[..., None]
        ncc = (self._cells @ cells.transpose(1, 2, 0)).transpose(2, 1, 0)  # shift, tpl, cell
        ncc = np.where(self._cell_valid[None], ncc, -np.inf)
        ranked = -np.sort(-ncc, axis=-1)
        best = np.empty(len(self.ids), np.float32)
        for k, n in enumerate(self._cell_valid.sum(axis=1)):
            q = max(1, round(VISIBLE_SHARE * int(n)))
            best[k] = float(ranked[:, k, :q].mean(axis=1).max())
        return best

    def similar_pairs(self, threshold: float = 0.75) -> list[tuple[str, str, float]]:
        """Pairs of cards whose upper halves are too alike to be told apart reliably."""
        flat = self.templates.reshape(len(self.ids), -1)
        norm = flat / np.maximum(1e-6, np.linalg.norm(flat, axis=1, keepdims=True))
        sim = norm @ norm.T
        out = []
        for i in range(len(self.ids)):
            for j in range(i + 1, len(self.ids)):
                if sim[i, j] >= threshold:
                    out.append((self.ids[i], self.ids[j], float(sim[i, j])))
        return out
