"""Looking Glass teach photos: is each card cut where it lies, on any table?

Per photo of a randomised deck (`render.world_teach_shot`, which knows where the card lies):
accepted or refused (and why), and how far the corners of the card as the library keeps it
lie from the card's (mm, the worst corner). A cut
more than `BAD_CUT_MM` off took something else for the card (the table for its border, the
art's frame for its edge): the library's face of it is wrong, at the table and in the reader
choice. The house and held-out families' photos (`looking_glass_world.family_photos`, the
world benchmark's own) have no truth cut: for them the photos accepted are counted, and each
taught face is matched with the card's printed face (`face_match`; below `FACE_MATCH_BAD` it
was cut from something else), with a digest of what the library keeps of each card, so that
two commits' `--rows` show whether the house libraries stayed bit-identical.

Development seeds (below 1,000,000; the random family's seeds as in
`looking_glass_reader_choice.py`):

    .venv/bin/python benchmarks/looking_glass_teach.py --decks 20 --seed-base 1230

A fresh measurement (`--fresh`: seeds drawn for this run, above the development ones, or the
`--seed-base` given there):

    .venv/bin/python benchmarks/looking_glass_teach.py --decks 10 --fresh --family heldout
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.looking_glass_world import (  # noqa: E402
    DEV_SEED_LIMIT,
    FAMILIES,
    family_deck,
    family_photos,
    fresh_seed_base,
)
from companion.games.looking_glass.vision.render import world_teach_shot  # noqa: E402
from companion.games.looking_glass.vision.teach import (  # noqa: E402
    TeachError,
    find_card,
    library_from_found,
)
from companion.vision.cards.library import CARD_W_MM  # noqa: E402
from companion.vision.cards.quads import sides_outward  # noqa: E402

BAD_CUT_MM = 3.0
"""A cut whose worst corner lies further than this from the card's or its sleeve's."""


def _cut_deck(images: dict[str, np.ndarray], found: dict[str, Any]) -> dict[str, Any]:
    """`teach.cut_deck`'s cards; before it existed (to measure an earlier teach), the cut
    `library_from_found` made then: every outer from its interior by the median border."""
    try:
        from companion.games.looking_glass.vision.teach import cut_deck
    except ImportError:
        from companion.games.looking_glass.vision.read import inset

        fracs = [f.border_frac for f in found.values() if not np.isnan(f.border_frac)]
        frac = float(np.median(fracs)) if fracs else 4.0 / CARD_W_MM
        for f in found.values():
            iw = float(np.linalg.norm(f.interior[1] - f.interior[0]))
            f.outer = inset(f.interior, -frac * iw / (1 - 2 * frac))
        return found
    return cut_deck(images, found)[0]


def side_offsets(cut: np.ndarray, card: np.ndarray) -> list[float]:
    """How far each side of the card (or sleeve) `card` lies outward from the same side of
    `cut` (both 4×2, TL, TR, BR, BL; sides as `quads.sides_outward`), the mean of its two
    corners, in `cut`'s px: positive where the cut lies inside the card's edge, negative where
    it lies out on the table. Which way a bad cut is off (all sides in, all out, one side)
    names its cause."""
    out = []
    for i, (a, _, n) in enumerate(sides_outward(cut)):
        out.append(float(np.mean((card[[i, (i + 1) % 4]] - a) @ n)))
    return out


def world_photos(
    seed: int, jpeg: int | None = None
) -> tuple[dict[str, Any], dict[str, np.ndarray], dict[str, np.ndarray]]:
    """One randomised deck's teach photos as the world benchmark renders them: its art, each
    card's photo (re-encoded at JPEG quality `jpeg`, as the development set stores them) and
    each card's corners in it (the card's, and its sleeve's where it has one)."""
    art = family_deck("random", seed)
    rng = np.random.default_rng([seed, 5])  # the world benchmark's teach photos
    images, truth = {}, {}
    for cid, a in art.items():
        photo, card = world_teach_shot(a, rng)
        if jpeg is not None:
            ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
            photo = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else photo
        images[cid], truth[cid] = photo, card
    return art, images, truth


def find_each(images: dict[str, np.ndarray]) -> tuple[dict[str, Any], dict[str, str]]:
    """Each teach photo through `find_card` alone, as teach sees it before the deck decides:
    the cards found, and the photos refused with teach's one-line reason."""
    found: dict[str, Any] = {}
    refused: dict[str, str] = {}
    for cid, img in images.items():
        try:
            found[cid] = find_card(img)
        except TeachError as exc:
            refused[cid] = str(exc)
    return found, refused


def cut_off_mm(quad: np.ndarray, card: np.ndarray) -> tuple[float, np.ndarray]:
    """The worst corner of `quad` from the card or its sleeve, whichever is nearer (mm), and
    that one's corners: a sleeved card may be cut at the card's edge or at the sleeve's (its
    rim shows at the table too)."""
    mm = CARD_W_MM / float(np.linalg.norm(card[0][1] - card[0][0]))
    offs = [float(np.linalg.norm(quad - c, axis=1).max()) for c in card]
    k = int(np.argmin(offs))
    return offs[k] * mm, card[k]


def deck_rows(seed: int, sides: bool = False) -> list[dict[str, Any]]:
    """Every teach photo of one randomised deck: refused (why), or how far its card as the
    library keeps it (`teach.cut_deck`, after the deck decided the photos it alone could not,
    `FoundCard.art_hole`) lies from the card; with `sides`, also each side's signed offset
    (`side_offsets`, mm, from the card or sleeve the cut lies nearer) and how the finders saw
    the photo (an outline, the border it measured)."""
    art, images, truth = world_photos(seed)
    found, refused = find_each(images)
    undecided = {cid for cid, f in found.items() if getattr(f, "art_hole", None) is not None}
    cards = _cut_deck({c: images[c] for c in found}, found) if found else {}
    style = next(iter(art.values())).style
    rows = []
    for cid, card in truth.items():
        row: dict[str, Any] = {"seed": seed, "card": cid, "border": style.border}
        if cid in refused:
            rows.append({**row, "refused": refused[cid]})
            continue
        off, nearest = cut_off_mm(cards[cid].outer, card)
        row |= {"cut_off_mm": round(off, 2), "bad": off > BAD_CUT_MM}
        if sides:
            mm = CARD_W_MM / float(np.linalg.norm(card[0][1] - card[0][0]))
            f = found[cid]
            row |= {
                "sides_mm": [round(x * mm, 2) for x in side_offsets(cards[cid].outer, nearest)],
                "outlined": bool(getattr(f, "outlined", False)),
                "border_frac": None if np.isnan(f.border_frac) else round(f.border_frac, 4),
            }
        rows.append({**row, "decided_by_deck": cid in undecided})
    return rows


FACE_MATCH_BAD = 0.8
"""A taught face whose correlation with its card's printed face (`face_match`) is below this
was cut from something else (the art magnified, a piece of the table). House development
deck 538887 at 8fb0bca: its 8 faces cut at the card 0.97-0.98, its 4 tight scans taught as
their art 0.32-0.36. A truth for the house decks only: held-out decks' faces match their
printed ones below 0.8 in 36 of 112 accepted photos at both 8fb0bca and the next commit (fresh
4377570011), cut alike by both (their faces are not printed as the photos show them)."""


def face_match(taught: np.ndarray, printed: np.ndarray) -> float:
    """Normalised correlation of a library's face with the card's printed face (BGR, the
    printed one resized to the taught one's size): how near the cut is to the card, for
    photos with no truth cut."""
    h, w = taught.shape[:2]
    a = taught.astype(np.float32).ravel()
    b = cv2.resize(printed[..., :3], (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    b = b.ravel()
    a, b = a - a.mean(), b - b.mean()
    return float(a @ b / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-6))


def deck_accepted(family: str, seed: int) -> list[dict[str, Any]]:
    """Every teach photo of one deck of a family without a truth cut: accepted, or refused
    (why); an accepted one's face as the library keeps it, matched with the printed face
    (`face_match`), and a digest of everything the library keeps of it (template, patch,
    face, the deck's shape), so two commits' libraries can be compared bit for bit."""
    art = family_deck(family, seed)
    images = family_photos(family, seed, art)
    found, refused = find_each(images)
    rows: dict[str, dict[str, Any]] = {}
    for cid in images:
        rows[cid] = {"seed": seed, "card": cid, "family": family}
        if cid in refused:
            rows[cid]["refused"] = refused[cid]
    if found:
        lib, _ = library_from_found({c: images[c] for c in found}, found)
        for k, cid in enumerate(lib.ids):
            digest = hashlib.sha1(repr(lib.shape).encode())
            for part in (lib.templates, lib.patches, lib.faces):
                digest.update(np.ascontiguousarray(part[k]).tobytes())
            rows[cid] |= {
                "face_match": round(face_match(lib.faces[k], art[cid].face), 3),
                "library": digest.hexdigest()[:16],
            }
    return list(rows.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decks", type=int, default=20)
    ap.add_argument("--seed-base", type=int, default=None, help="development: below 999,000")
    ap.add_argument("--fresh", action="store_true", help="fresh seeds (drawn unless given)")
    ap.add_argument("--family", choices=FAMILIES, default="random")
    ap.add_argument("--rows", default=None, help="also write every photo's row here (JSON lines)")
    ap.add_argument(
        "--sides",
        action="store_true",
        help="random family: each row also gives its cut's side offsets (mm) and how it was found",
    )
    a = ap.parse_args(argv)
    if a.fresh:
        base = fresh_seed_base() if a.seed_base is None else a.seed_base
        if base < DEV_SEED_LIMIT:
            print("error: fresh seeds lie above 1,000,000", file=sys.stderr)
            return 2
    else:
        base = 1230 if a.seed_base is None else a.seed_base
        if not 0 <= base < DEV_SEED_LIMIT - a.decks:
            print("error: --seed-base must be a development seed (below 999,000)", file=sys.stderr)
            return 2
    print(
        f".venv/bin/python benchmarks/looking_glass_teach.py --decks {a.decks} --seed-base {base}"
        f"{' --fresh' if a.fresh else ''} --family {a.family}",
        flush=True,
    )
    cv2.setNumThreads(1)
    rows = []
    for seed in range(base, base + a.decks):
        deck = deck_rows(seed, a.sides) if a.family == "random" else deck_accepted(a.family, seed)
        for row in deck:
            rows.append(row)
            if "refused" in row or row.get("bad") or row.get("face_match", 1.0) < FACE_MATCH_BAD:
                print(json.dumps(row), flush=True)
    accepted = [r for r in rows if "refused" not in r]
    if a.family == "random":
        bad = [r for r in accepted if r["bad"]]
        decided = [r for r in accepted if r["decided_by_deck"]]
        worst = max((r["cut_off_mm"] for r in accepted), default=0.0)
        print(
            f"{len(accepted)} of {len(rows)} photos accepted; {len(bad)} of them cut more than "
            f"{BAD_CUT_MM:g} mm off the card ({sum(r['bad'] for r in decided)} of the "
            f"{len(decided)} the deck decided); worst cut {worst:g} mm"
        )
    else:
        unlike = [r for r in accepted if r["face_match"] < FACE_MATCH_BAD]
        print(
            f"{len(accepted)} of {len(rows)} photos accepted (no truth cut for {a.family}); "
            f"{len(unlike)} of them taught a face matching the printed one below "
            f"{FACE_MATCH_BAD:g}; lowest match "
            f"{min((r['face_match'] for r in accepted), default=1.0):g}"
        )
    if a.rows:
        Path(a.rows).write_text("".join(json.dumps(r) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
