"""WebKit, Safari's engine, for the browser tests: Debian's WebKitGTK driven over WebDriver.

Playwright's own WebKit cannot be downloaded here, but Debian ships WebKitGTK's MiniBrowser
and its WebDriver. They need an X display, so a private Xvfb is started for the session.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

WEBDRIVER = Path(os.environ.get("COMPANION_WEBKIT_DRIVER", "/usr/bin/WebKitWebDriver"))
MINIBROWSER = Path(
    os.environ.get(
        "COMPANION_WEBKIT_BROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
    )
)
XVFB = Path("/usr/bin/Xvfb")


def missing() -> list[str]:
    return [str(p) for p in (WEBDRIVER, MINIBROWSER, XVFB) if not p.is_file()]


@contextmanager
def virtual_display() -> Iterator[str]:
    """An Xvfb of its own: it picks a free display number and tells us through a pipe."""
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        [
            str(XVFB),
            "-displayfd",
            str(write_fd),
            "-screen",
            "0",
            "1280x1024x24",
            "-nolisten",
            "tcp",
        ],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    try:
        with os.fdopen(read_fd) as pipe:
            number = pipe.readline().strip()
        if not number:
            raise AssertionError("Xvfb did not start")
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(10)


@contextmanager
def webkit_driver(width: int = 390, height: int = 844) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    with virtual_display() as display:
        options = Options()
        options.binary_location = str(MINIBROWSER)
        options.add_argument("--automation")
        service = Service(executable_path=str(WEBDRIVER), env={**os.environ, "DISPLAY": display})
        driver = webdriver.WebKitGTK(options=options, service=service)
        try:
            driver.set_window_size(width, height)
            yield driver
        finally:
            driver.quit()


def wait_for(driver: Any, expression: str, timeout: float = 15.0) -> object:
    """Poll a JavaScript expression until it is truthy; the message names it when it is not."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script(f"return ({expression});")
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not true after {timeout} s: {expression} (last: {value!r})")
        time.sleep(0.2)
