"""`companion teach looking-glass DIR` keeps every usable photo and names the one it refuses;
`companion read looking-glass --reader staged` reads with the staged reader."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from companion.cli import main
from companion.games.looking_glass.rules.deck import load_deck
from companion.sim import effects
from companion.vision.cards.library import Library
from tests.vision.cards.card_styles import face, photo


def test_teach_keeps_the_usable_photos_and_says_which_to_take_again(tmp_path, capsys):
    rng = np.random.default_rng(51)
    ids = load_deck().normal_ids
    folder = tmp_path / "teach"
    folder.mkdir()
    borders = ("black", "coloured", "dark", "white", "cream")
    for k, cid in enumerate(ids):
        card = face(rng, borders[k % len(borders)], frame=True, radius_mm=0)
        cv2.imwrite(str(folder / f"{cid}.png"), photo(card, rng, table="plain", tilt_deg=5)[0])
    bare = ids[3]  # a photo with no card in it
    cv2.imwrite(str(folder / f"{bare}.png"), effects.table_texture(1280, 960, rng, "wood"))
    library = tmp_path / "cards.npz"
    assert main(["teach", "looking-glass", str(folder), "--library", str(library), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out["refused"]) == [bare]
    assert f"{bare}.png: no card found" in out["refused"][bare]
    assert sorted(out["cards"]) == sorted(c for c in ids if c != bare)
    assert library.is_file()
    # The reader was chosen by the trial on the taught faces, said, and kept in the library.
    assert out["reader"] in ("light-border", "staged")
    assert "of the taught glasses" in out["reader_reason"]
    kept = Library.load(library).notes["glass_trial"]
    assert f"{kept['right']} of {kept['cards']} cards" in out["reader_reason"]

    assert (
        main(
            [
                "read",
                "looking-glass",
                str(folder / f"{ids[0]}.png"),
                "--library",
                str(library),
                "--reader",
                "staged",
                "--json",
            ]
        )
        == 0
    )
    reading = json.loads(capsys.readouterr().out)
    assert reading["cards"] == []  # one card alone is no glass: no reflection


def test_teach_with_no_usable_photo_is_one_line_and_exit_2(tmp_path, capsys):
    rng = np.random.default_rng(52)
    folder = tmp_path / "teach"
    folder.mkdir()
    for cid in load_deck().normal_ids:
        cv2.imwrite(str(folder / f"{cid}.png"), effects.table_texture(640, 480, rng, "plain"))
    assert main(["teach", "looking-glass", str(folder), "--library", str(tmp_path / "x.npz")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no card could be taught" in err


def test_render_json_lists_every_file_with_its_truth(tmp_path, capsys):
    out_dir = tmp_path / "scenes"
    assert (
        main(
            [
                "render",
                "looking-glass",
                "--seed",
                "11",
                "--out",
                str(out_dir),
                "--count",
                "1",
                "--json",
            ]
        )
        == 0
    )
    summary = json.loads(capsys.readouterr().out)
    (table,) = summary["tables"]
    truth = json.loads(Path(table["truth"]).read_text())
    assert Path(table["image"]).is_file()
    assert table["layout"] == truth["layout"]
    assert [c["card"] for c in table["cards"]] == [c["card"] for c in truth["cards"]]
    assert len(table["cards"]) > 0
    assert sorted(summary["teach"]) == sorted(load_deck().ids)
    assert all(Path(p).is_file() for p in summary["teach"].values())
