#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through Playwright (Playwright's own browser
# download does not work offline) and Debian's WebKitGTK, Safari's engine, through its
# WebDriver under a private Xvfb. Install what is missing when we can; otherwise say how, and fail.
set -euo pipefail
CHROMIUM="${COMPANION_CHROMIUM:-/usr/bin/chromium}"
WEBDRIVER="${COMPANION_WEBKIT_DRIVER:-/usr/bin/WebKitWebDriver}"
need=()
[ -x "$CHROMIUM" ] || need+=(chromium)
[ -x "$WEBDRIVER" ] || need+=(webkit2gtk-driver)
[ -x /usr/bin/Xvfb ] || need+=(xvfb)
if [ "${#need[@]}" = "0" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's ${need[*]} for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  [ -x "$CHROMIUM" ] && [ -x "$WEBDRIVER" ] && [ -x /usr/bin/Xvfb ] && exit 0
fi
echo "error: the browser tests need ${need[*]} (Chromium at $CHROMIUM, WebKitWebDriver at $WEBDRIVER, Xvfb)." >&2
echo "Install them with: sudo apt-get install ${need[*]}" >&2
exit 1
