#!/usr/bin/env bash
# Remove the companion service: the unit, the avahi file, the code and its venv.
# The data (/var/lib/companion: games, calibration, admin link), the config
# (/etc/companion) and the service user stay unless --purge, so a reinstall picks up
# where it left off. apt packages and the host name are left as they are: other
# software may use them.
#
#   sudo deploy/uninstall.sh [--purge] [--prefix DIR]
#   deploy/uninstall.sh --dry-run [--purge]     print the steps only (no root needed)
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
source "$here/common.sh"

PURGE=0
while [[ $# -gt 0 ]]; do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --purge) PURGE=1 ;;
        --prefix) PREFIX=${2:?--prefix needs a directory}; shift ;;
        -h | --help)
            say "usage: ${0##*/} [--dry-run] [--purge] [--prefix DIR]"
            say "Remove the companion service; --purge also deletes its data, config and user."
            exit 0
            ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done
check_prefix
need_root
[[ $DRY_RUN == 1 ]] && say "dry run: nothing is changed; these are the steps"

say "== stop and remove the systemd unit $UNIT_FILE"
if [[ -e $UNIT_FILE || $DRY_RUN == 1 ]]; then
    run systemctl disable --now "$SERVICE.service"
fi
run rm -f "$UNIT_FILE"
run systemctl daemon-reload
# Forget a failed state, if any; there is nothing to reset after a clean stop.
run systemctl reset-failed "$SERVICE.service" || true

say "== remove the mDNS advertisement $AVAHI_FILE"
run rm -f "$AVAHI_FILE"
if [[ $DRY_RUN == 1 ]] || systemctl is-active --quiet avahi-daemon.service; then
    run systemctl reload avahi-daemon.service
fi

say "== remove the code, venv and launcher in $PREFIX"
if [[ -e $PREFIX/$MARKER || ($DRY_RUN == 1 && ! -e $PREFIX) ]]; then
    run rm -rf "$PREFIX"
elif [[ -e $PREFIX ]]; then
    die "$PREFIX has no $MARKER: not an install made by install.sh; not deleting it"
else
    say "($PREFIX is not there)"
fi

if [[ $PURGE == 1 ]]; then
    say "== --purge: delete the data, the config and the service user"
    run rm -rf "$DATA_DIR" "$CONF_DIR"
    if id -u "$SERVICE_USER" >/dev/null 2>&1 || [[ $DRY_RUN == 1 ]]; then
        run userdel "$SERVICE_USER"
    fi
    say "companion is removed, with its data."
else
    say "companion is removed. Kept: $DATA_DIR (games, calibration, admin link),"
    say "$CONF_DIR and the user $SERVICE_USER. Run with --purge to delete them too."
fi
