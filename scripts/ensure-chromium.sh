#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through Playwright (Playwright's own browser
# download does not work offline). Install it when we can; otherwise say how, and fail.
set -euo pipefail
CHROMIUM="${COMPANION_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$CHROMIUM" ] && exit 0
fi
echo "error: the browser tests need Chromium at $CHROMIUM." >&2
echo "Install it with: sudo apt-get install chromium   (or set COMPANION_CHROMIUM to its path)" >&2
exit 1
