"""The dashboard's text shows on a plain Debian/Raspberry Pi OS browser: no emoji, which its
default fonts lack (the window card showed as an empty box in Debian's chromium)."""

from __future__ import annotations

from companion.web.static_files import STATIC_DIR


def test_no_emoji_in_the_dashboard():
    found = []
    for path in sorted(STATIC_DIR.rglob("*")):
        if path.suffix not in (".js", ".html", ".css"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            bad = [ch for ch in line if ord(ch) >= 0x1F000]
            if bad:
                found.append(f"{path.name}:{n}: {''.join(bad)}")
    assert not found, found
