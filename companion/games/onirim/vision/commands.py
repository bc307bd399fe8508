"""`companion render onirim`, `companion teach onirim` and `companion read onirim`.

Merged into the game's `commands.VERBS` (see VISION_VERBS), so OpenCV loads only with them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.cli_args import (
    CommandParser,
    data_file,
    print_readings,
    print_taught,
    read_parser,
    render_folder,
    teach_parser,
    write_photo,
)
from companion.errors import UserError

if TYPE_CHECKING:
    from companion.games.onirim.vision.reading import TableReading

GAME = "onirim"
STYLES = ("random", "house")


def render_main(argv: list[str]) -> int:
    from companion.games.onirim.vision.layout import load_layout
    from companion.games.onirim.vision.render import (
        deck_faces,
        deck_style,
        render_table,
        table_look,
        teach_photo,
    )
    from companion.vision.image_file import write_jpeg

    p = CommandParser(
        prog=f"companion render {GAME}",
        description="Write photographs of solo Onirim tables with their answer keys "
        "(DIR/NNNN.jpg + NNNN.json in the shape of `companion read onirim --json`) and the "
        "deck's teach photos (DIR/teach/<card>.jpg). One deck is drawn per seed.",
    )
    p.add_argument("--seed", type=int, default=0, help="same seed, same deck and tables")
    p.add_argument("--out", required=True, help="folder to write into (created)")
    p.add_argument("--count", type=int, default=1, help="how many table photographs")
    p.add_argument(
        "--style",
        choices=STYLES,
        default="random",
        help="random: every design choice of the deck drawn from the seed; house: one fixed design",
    )
    a = p.parse_args(argv)
    out = render_folder(a, least=0)
    (out / "teach").mkdir(exist_ok=True)
    import numpy as np

    layout = load_layout()
    faces = deck_faces(deck_style(a.seed, a.style), layout)
    rng = np.random.default_rng([a.seed, 99])
    for cid, face in faces.items():
        write_jpeg(out / "teach" / f"{cid}.jpg", teach_photo(face, rng), quality=92)
    for i in range(a.count):
        photo = render_table(a.seed, i, faces, layout, look=table_look(a.seed, a.style))
        write_photo(out, i, photo.image, photo.truth.to_json)
    print(
        f"wrote {a.count} table photograph(s) with answer keys and {len(faces)} teach "
        f"photos to {out}"
    )
    return 0


def _library_path(arg: str | None) -> Path:
    from companion.games.onirim.vision.teach import default_library_path

    return data_file(arg, default_library_path)


def teach_main(argv: list[str]) -> int:
    from companion.games.onirim.vision.teach import photos_in, required_ids, teach_photos

    p = teach_parser(
        GAME,
        "Teach your own Onirim deck: DIR holds one photo per card type, named "
        "<card>.jpg or .png (red-sun.jpg, door-blue.jpg, nightmare.jpg, mirror-sun.jpg, "
        "mirror-sun-explored.jpg, ...), each card face up and upright on the table.",
    )
    a = p.parse_args(argv)
    folder = Path(a.dir)
    if not folder.is_dir():
        raise UserError(f"{folder} is not a folder of teach photos")
    photos = photos_in(folder)
    missing = [cid for cid in required_ids() if cid not in photos]
    if missing:
        raise UserError(
            f"{folder}: no photo for {', '.join(missing)} (one <card>.jpg or .png per card type)"
        )
    taught = teach_photos(photos)
    path = _library_path(a.library)
    taught.library.save(path)
    return print_taught(taught, taught.library.ids, path, len(photos), a.json, "card types")


def read_main(argv: list[str]) -> int:
    from companion.games.onirim.vision.read import TableReader
    from companion.games.onirim.vision.teach import load_library
    from companion.vision.image_file import check_image_format

    p = read_parser(
        GAME,
        "Read a solo Onirim table from photographs: the labyrinth, the Doors, the "
        "Mirrors with the cards under them and the discard pile's top card.",
        library=True,
    )
    a = p.parse_args(argv)
    for img in a.images:  # every input checked before the (slow) library loads
        check_image_format(img)
    reader = TableReader(load_library(_library_path(a.library)))
    return print_readings(a.images, lambda image: reader.read(image).asked(), describe, a.json)


def describe(reading: TableReading) -> str:
    """A reading in words: the labyrinth, the Doors, the Mirrors and the discard pile's top
    card, then a line per warning."""
    out = reading.to_json("")
    mirrors = ", ".join(
        f"{m['mirror']}{' (explored)' if m['explored'] else ''}"
        + (f" [{' '.join(str(c) for c in m['under'])}]" if m["under"] else "")
        for m in out["mirrors"]
    )
    lines = [
        f"labyrinth {' '.join(str(c) for c in out['labyrinth']) or '(empty)'}; "
        f"doors {' '.join(out['doors']) or 'none'}; mirrors {mirrors or 'none'}; "
        f"discard {out['discard_top']}"
    ]
    lines += [f"  warning: {w}" for w in out["warnings"]]
    return "\n".join(lines)


VISION_VERBS: dict[str, Callable[[list[str]], int]] = {
    "render": render_main,
    "teach": teach_main,
    "read": read_main,
}
