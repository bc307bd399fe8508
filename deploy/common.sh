# shellcheck shell=bash disable=SC2034
# Sourced by install.sh and uninstall.sh: the paths both agree on, and the one place where a
# step is either run or, with --dry-run, only printed. Keeping them here means uninstall
# removes exactly what install wrote. (SC2034 is off: the sourcing scripts use these.)

SERVICE=companion
SERVICE_USER=companion
PREFIX=/opt/companion
DATA_DIR=/var/lib/companion # the unit's StateDirectory=companion
CONF_DIR=/etc/companion     # the unit's ConfigurationDirectory=companion
UNIT_FILE=/etc/systemd/system/$SERVICE.service
AVAHI_FILE=/etc/avahi/services/$SERVICE.service
# install.sh leaves this file in PREFIX; uninstall.sh deletes PREFIX only when it is there,
# so a mistyped --prefix can never remove somebody else's directory.
MARKER=.companion-install
DRY_RUN=0

say() { printf '%s\n' "$*"; }

die() {
    printf '%s: error: %s\n' "${0##*/}" "$*" >&2
    exit 2
}

# Print a command as a shell would re-read it: plain words bare, others in single quotes.
show() {
    local out="+" word q="'"
    for word in "$@"; do
        if [[ $word =~ ^[A-Za-z0-9_./=:,@%+-]+$ ]]; then
            out+=" $word"
        else
            out+=" '${word//$q/$q\\$q$q}'"
        fi
    done
    say "$out"
}

# Run a command that changes the system, or only show it with --dry-run.
run() {
    show "$@"
    if [[ $DRY_RUN == 0 ]]; then
        "$@"
    fi
}

# Write stdin to DEST with MODE (root-owned), atomically; --dry-run shows the content.
write_file() {
    local dest=$1 mode=$2 tmp
    if [[ $DRY_RUN == 1 ]]; then
        say "+ write $dest (mode $mode):"
        sed 's/^/    | /'
        return
    fi
    tmp=$(mktemp "$dest.XXXXXX")
    cat >"$tmp"
    chmod "$mode" "$tmp"
    mv -f "$tmp" "$dest"
    say "+ wrote $dest"
}

need_root() {
    if [[ $DRY_RUN == 0 && $(id -u) != 0 ]]; then
        die "run as root (with sudo), or add --dry-run to see the steps"
    fi
}

check_prefix() {
    while [[ $PREFIX == */ ]]; do
        PREFIX=${PREFIX%/}
    done
    if [[ $PREFIX != /?* ]]; then
        die "--prefix must be an absolute path other than /"
    fi
}
