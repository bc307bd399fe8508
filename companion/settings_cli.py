"""`companion settings`: the settings in force, and the reference of every setting.

The reference is made from the settings model itself (types, defaults, bounds and each
field's docstring), so it cannot drift from the code: docs/settings.md is its output, and a
test fails when the two differ.
"""

from __future__ import annotations

import ast
import inspect
import json
import textwrap
from itertools import pairwise
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from companion.cli_args import CommandParser
from companion.config import Settings, load_settings


def _field_docs(model: type[BaseModel]) -> dict[str, str]:
    """Attribute docstrings ("a string right under the field") of a model and its bases."""
    docs: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        if not (isinstance(cls, type) and issubclass(cls, BaseModel)) or cls is BaseModel:
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
        except (OSError, TypeError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for prev, node in pairwise(body):
            if (
                isinstance(prev, ast.AnnAssign)
                and isinstance(prev.target, ast.Name)
                and isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            ):
                docs[prev.target.id] = " ".join(node.value.value.split())
    return docs


def _bounds(meta: list[Any]) -> str:
    words = {"ge": "≥", "gt": ">", "le": "≤", "lt": "<"}
    out = []
    for m in meta:
        for attr, sign in words.items():
            value = getattr(m, attr, None)
            if value is not None:
                out.append(f"{sign} {value}")
    return ", ".join(out)


def _type_name(annotation: Any) -> str:
    if getattr(annotation, "__args__", None):  # a generic: say its arguments too
        text = str(annotation)
    else:
        text = getattr(annotation, "__name__", None) or str(annotation)
    return text.replace("typing.", "").replace("pathlib.", "").replace("NoneType", "None")


def reference_rows(
    model: type[BaseModel], defaults: dict[str, Any], prefix: str = ""
) -> list[tuple[str, ...]]:
    """(dotted key, type, default, bounds, what it is) for every setting; `defaults` are the
    model's values when nothing is set (a section's defaults may differ from its class's)."""
    rows: list[tuple[str, ...]] = []
    docs = _field_docs(model)
    for name, field in model.model_fields.items():
        key = f"{prefix}{name}"
        ann = field.annotation
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            rows.append((key, "section", "", "", docs.get(name) or field.description or ""))
            rows.extend(reference_rows(ann, defaults.get(name) or {}, key + "."))
            continue
        default = "(see above)" if key == "data_dir" else json.dumps(defaults.get(name))
        doc = docs.get(name) or field.description or ""
        rows.append((key, _type_name(ann), default, _bounds(field.metadata), doc))
    return rows


def reference_markdown() -> str:
    lines = [
        "# Settings",
        "",
        "Made by `companion settings --reference` from the settings model; do not edit by",
        "hand. Settings come, each overriding the one before, from the defaults, a TOML file",
        '(`--config FILE`, sections as below, e.g. `[camera]` then `source = "opencv:0"`),',
        "the environment (`COMPANION_CAMERA__SOURCE=opencv:0`: a double underscore between",
        "section and key) and command-line flags. A misspelt key is an error, not a silent",
        "default. `data_dir` defaults to `$COMPANION_DATA_DIR`, else `$STATE_DIRECTORY`",
        "(systemd), else `~/.local/share/companion`.",
        "",
        "| setting | type | default | bounds | what it is |",
        "|---|---|---|---|---|",
    ]
    defaults = Settings(data_dir=Path(".")).model_dump(mode="json")
    for key, kind, default, bounds, doc in reference_rows(Settings, defaults):
        if kind == "section":
            lines.append(f"| **`[{key}]`** | | | | {doc} |")
            continue
        cells = [f"`{key}`", kind, f"`{default}`", bounds, doc]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    parser = CommandParser(
        prog="companion settings",
        description="Print the settings in force (defaults, config file, environment), or "
        "the reference of every setting.",
    )
    parser.add_argument("--config", type=Path, help="a TOML settings file")
    parser.add_argument(
        "--reference",
        action="store_true",
        help="print every setting with its default and meaning (Markdown)",
    )
    args = parser.parse_args(argv)
    if args.reference:
        print(reference_markdown(), end="")
        return 0
    settings = load_settings(args.config)
    print(json.dumps(settings.model_dump(mode="json"), indent=2))
    return 0
