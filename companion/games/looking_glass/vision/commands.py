"""The camera-side CLI verbs of the Looking Glass: `render`, `teach` and `read`.

Merged into the game's `commands.VERBS` (`VERBS.update(VISION_VERBS)`), so the engine's
commands and these live in separate files owned by separate people.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.cli_args import (
    data_file,
    game_parser,
    print_readings,
    print_taught,
    read_parser,
    render_folder,
    teach_parser,
)
from companion.errors import UserError

if TYPE_CHECKING:
    from companion.games.looking_glass.vision.read import Reading

GAME = "looking-glass"
READERS = ("auto", "light-border", "staged")
"""`read --reader` and the benchmarks': auto (the default, `choose.reader_choice`) or either."""


def _library_path(arg: str | None) -> Path:
    from companion.games.looking_glass.vision.library import default_library_path

    return data_file(arg, default_library_path)


def render_main(argv: list[str]) -> int:
    p = game_parser(
        "render",
        GAME,
        "Write photographs of dealt tables with ground truth "
        "(DIR/NNNN.jpg + .json) and teach photos (DIR/teach/<card-id>.png).",
    )
    p.add_argument("--seed", type=int, required=True, help="seed: art, tables and camera")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--count", type=int, default=10, help="number of table photos (default 10)")
    p.add_argument(
        "--json",
        action="store_true",
        help="print a JSON summary: every file written, with its truth",
    )
    a = p.parse_args(argv)
    out = render_folder(a, least=0)
    from companion.games.looking_glass.vision.render import render_set

    paths = render_set(a.seed, a.count, out)
    if a.json:
        print(json.dumps(_render_summary(a.seed, out, paths)))
    else:
        print(f"wrote {len(paths)} table photos and the teach photos to {out}")
    return 0


def _render_summary(seed: int, out: Path, paths: list[str]) -> dict:
    """What `render --json` prints: each table photo with its truth file and what the truth
    says (layout, cards, piles), and each teach photo by card id."""
    tables = []
    for path in paths:
        truth_path = Path(path).with_suffix(".json")
        truth = json.loads(truth_path.read_text())
        tables.append(
            {
                "image": path,
                "truth": str(truth_path),
                "layout": truth.get("layout"),
                "cards": [
                    {k: c[k] for k in ("card", "position", "covered", "center")}
                    for c in truth["cards"]
                ],
                "piles": truth.get("truth", {}).get("piles", []),
            }
        )
    teach = {t.stem: str(t) for t in sorted((out / "teach").glob("*.png"))}
    return {"game": GAME, "seed": seed, "out": str(out), "tables": tables, "teach": teach}


def teach_main(argv: list[str]) -> int:
    p = teach_parser(
        GAME,
        "Teach your own copy of the deck: DIR holds one photo per card id, "
        "named <card-id>.png or .jpg, each card face up and upright.",
    )
    a = p.parse_args(argv)
    from companion.games.looking_glass.rules.deck import load_deck
    from companion.games.looking_glass.vision.teach import photos_in, teach_photos

    deck = load_deck()
    photos = photos_in(Path(a.dir), deck.ids)
    missing = [cid for cid in deck.normal_ids if cid not in photos]
    if missing:
        raise UserError(
            f"{a.dir}: no photo for {', '.join(missing)} (one <card-id>.png or .jpg per card)"
        )
    from companion.games.looking_glass.vision.choose import reader_choice

    taught = teach_photos(photos)  # TeachError (exit 2) only if no photo could be used
    lib = taught.library
    path = _library_path(a.library)
    # The reader is chosen now, by a trial on the taught faces, and kept in the library.
    choice = reader_choice(lib)
    lib.save(path)
    facts = {
        "card_mm": [63.0, lib.shape.height_mm],
        "border_mm": lib.shape.border_mm,
        "reader": choice.kind,
        "reader_reason": choice.reason,
    }
    code = print_taught(taught, lib.ids, path, len(photos), a.json, extra=facts)
    if not a.json:
        print(f"read by the {choice.kind} reader: {choice.reason}")
    return code


def read_main(argv: list[str]) -> int:
    p = read_parser(
        GAME,
        "Read the Looking Glass from photographs: every card whose upper half "
        "can be seen, its centre, whether it is covered, and the layout card.",
        library=True,
    )
    p.add_argument(
        "--reader",
        choices=READERS,
        default=READERS[0],
        help="auto (default): the reader teach chose (the light-border one if it read the "
        "taught cards laid out as glasses, else the staged one); light-border: cards found "
        "as holes in their light border; staged: cards found and named by the taught art's "
        "local features, any border, then the mirror fit (slower)",
    )
    a = p.parse_args(argv)
    from companion.games.looking_glass.vision.choose import make_reader
    from companion.games.looking_glass.vision.library import Library
    from companion.vision.image_file import check_image_format

    for img in a.images:  # check every input before the (slow) library loads
        check_image_format(img)
    lib = Library.load(_library_path(a.library))
    reader = make_reader(lib, a.reader)
    return print_readings(a.images, reader.read, describe, a.json)


def describe(reading: Reading) -> str:
    """A reading in words: the cards found and named and the layout, then a line per card."""
    out = reading.to_json("")
    named = sum(1 for c in out["cards"] if c["card"])
    lines = [f"{len(out['cards'])} cards ({named} identified), layout {out['layout'] or 'unknown'}"]
    lines += [
        f"  {c['position']:>9} {c['card'] or '?':<18} "
        f"{'covered' if c['covered'] else 'free':<8} {c['confidence']:.2f}"
        for c in out["cards"]
    ]
    return "\n".join(lines)


VISION_VERBS: dict[str, Callable[[list[str]], int]] = {
    "render": render_main,
    "teach": teach_main,
    "read": read_main,
}
