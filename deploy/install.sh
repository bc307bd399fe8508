#!/usr/bin/env bash
# Install the companion as a service on Raspberry Pi OS (Bookworm or later), or upgrade it:
# running this again from a newer checkout is the upgrade, and every step is safe to repeat.
#
#   sudo deploy/install.sh              install or upgrade, start, print the dashboard address
#   deploy/install.sh --dry-run         print every step without doing anything (no root needed)
#   deploy/install.sh --help            all options
#
# What it does, in order: apt packages (the camera stack comes from apt: python3-picamera2),
# a service user in group video, a copy of this checkout in PREFIX/src, a venv made with
# --system-site-packages (so the apt picamera2 and its numpy are the ones imported), the
# Python dependencies under deploy/constraints-pi.txt (which keeps pip from replacing that
# numpy), a check that picamera2, numpy and OpenCV import together, the systemd unit, the
# avahi service file, and the host name companion so phones find http://companion.local.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
source "$here/common.sh"
SRC_ROOT=$(cd "$here/.." && pwd)

PORT=8000
CAMERA=picamera2
HOSTNAME_WANTED=""
KEEP_HOSTNAME=0
RENDER_TO=""
APT_PACKAGES=(python3-picamera2 python3-venv avahi-daemon rsync)

usage() {
    cat <<EOF
usage: ${0##*/} [--dry-run] [--prefix DIR] [--port N] [--camera SOURCE]
                [--hostname NAME | --keep-hostname] [--render-to DIR]

Install or upgrade the companion service on Raspberry Pi OS (Bookworm or later).

  --dry-run          print the steps without running them (no root needed)
  --prefix DIR       where the code and venv go (default $PREFIX)
  --port N           dashboard port (default $PORT); also advertised over mDNS
  --camera SOURCE    camera for a new $CONF_DIR/config.toml (default $CAMERA;
                     a USB webcam is opencv:0); an existing config is never changed
  --hostname NAME    set the host name, so the dashboard is http://NAME.local
                     (default: set "companion" if the host is still "raspberrypi")
  --keep-hostname    never change the host name
  --render-to DIR    only write the rendered unit, avahi file and launcher into DIR
                     (for review and tests) and exit
EOF
}

while [[ $# -gt 0 ]]; do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --prefix) PREFIX=${2:?--prefix needs a directory}; shift ;;
        --port) PORT=${2:?--port needs a number}; shift ;;
        --camera) CAMERA=${2:?--camera needs a source}; shift ;;
        --hostname) HOSTNAME_WANTED=${2:?--hostname needs a name}; shift ;;
        --keep-hostname) KEEP_HOSTNAME=1 ;;
        --render-to) RENDER_TO=${2:?--render-to needs a directory}; shift ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done

check_prefix
if [[ ! $PREFIX =~ ^[A-Za-z0-9._/-]+$ ]]; then
    die "--prefix may hold only letters, digits and . _ / -"
fi
if [[ ! $PORT =~ ^[0-9]+$ ]] || ((PORT < 1 || PORT > 65535)); then
    die "--port must be a number from 1 to 65535"
fi
if [[ ! $CAMERA =~ ^[A-Za-z0-9:/._-]+$ ]]; then
    die "--camera must look like picamera2, opencv:0 or opencv:/dev/video0"
fi
if [[ -n $HOSTNAME_WANTED && ! $HOSTNAME_WANTED =~ ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$ ]]; then
    die "--hostname must be one DNS label: lower-case letters, digits and inner hyphens"
fi

# The installed files, with the install's paths filled in.
render() {
    sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@USER@|$SERVICE_USER|g" -e "s|@PORT@|$PORT|g" "$1"
}

if [[ -n $RENDER_TO ]]; then
    mkdir -p "$RENDER_TO"
    render "$here/companion.service" >"$RENDER_TO/companion.service"
    render "$here/companion-avahi.service" >"$RENDER_TO/companion-avahi.service"
    install -m 0755 "$here/companion-serve.sh" "$RENDER_TO/companion-serve"
    say "rendered into $RENDER_TO for prefix $PREFIX and port $PORT"
    exit 0
fi

need_root
[[ $DRY_RUN == 1 ]] && say "dry run: nothing is changed; these are the steps"

step() { say "== $*"; }

step "check the system"
# shellcheck disable=SC1091
os_id=$(. /etc/os-release && echo "${ID:-unknown}")
# shellcheck disable=SC1091
os_version=$(. /etc/os-release && echo "${VERSION_ID:-0}")
if [[ $os_id != debian && $os_id != raspbian ]] || ((${os_version%%.*} < 12)); then
    [[ $DRY_RUN == 1 ]] || die "needs Raspberry Pi OS Bookworm (Debian 12) or later; this is $os_id $os_version"
    say "(this is $os_id $os_version; a real install would stop here)"
fi
arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
if [[ $arch != arm64 ]]; then
    say "note: architecture $arch; the 64-bit Raspberry Pi OS (arm64) is the tested one:"
    say "      OpenCV and friends come as ready-made aarch64 wheels there"
fi

step "apt packages: the camera stack and its numpy come from apt"
run apt-get update
run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

step "service user $SERVICE_USER, in group video for the camera"
if id -u "$SERVICE_USER" >/dev/null 2>&1; then
    say "(user $SERVICE_USER exists)"
else
    run useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "companion service" "$SERVICE_USER"
fi
run usermod --append --groups video "$SERVICE_USER"

step "copy the code to $PREFIX/src (the package finds models/ beside its source)"
run install -d -m 0755 "$PREFIX" "$PREFIX/bin"
if [[ $SRC_ROOT -ef $PREFIX/src ]]; then
    say "(running from $PREFIX/src itself: nothing to copy)"
else
    # root-owned and world-readable: the service user reads the code and cannot change it.
    # (Excluded paths are also kept on the receiving side, so the editable install's
    # egg-info survives an upgrade.)
    run rsync -a --delete --no-owner --no-group --chmod=Dgo+rx,Fgo+r,go-w \
        --exclude=.git/ --exclude=.venv/ --exclude=__pycache__/ --exclude='*.egg-info/' \
        --exclude=/benchmarks/results/ "$SRC_ROOT/" "$PREFIX/src/"
fi
printf 'installed from %s\n' "$SRC_ROOT" | write_file "$PREFIX/$MARKER" 0644

step "virtual environment $PREFIX/venv with --system-site-packages"
# A venv made by another Python (an OS upgrade) or without the system site is made anew;
# everything in it comes back from the pip step below.
venv_python=$PREFIX/venv/bin/python
remake=1
if [[ -x $venv_python ]] && grep -qx 'include-system-site-packages = true' "$PREFIX/venv/pyvenv.cfg" &&
    [[ $("$venv_python" -c 'import sys; print(sys.version_info[:2])') == \
        $(/usr/bin/python3 -c 'import sys; print(sys.version_info[:2])') ]]; then
    remake=0
    say "(venv exists and fits /usr/bin/python3)"
fi
if [[ $remake == 1 ]]; then
    run rm -rf "$PREFIX/venv"
    run /usr/bin/python3 -m venv --system-site-packages "$PREFIX/venv"
fi

step "pin pip to the apt numpy, then install the companion (editable, from $PREFIX/src)"
if system_numpy=$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null); then
    :
elif [[ $DRY_RUN == 1 ]]; then
    system_numpy="<version of the apt python3-numpy>"
else
    die "the apt numpy does not import (/usr/bin/python3 -c 'import numpy'); is python3-picamera2 installed?"
fi
printf '# written by install.sh: keep the apt numpy (see deploy/constraints-pi.txt)\nnumpy==%s\n' \
    "$system_numpy" | write_file "$PREFIX/constraints-system.txt" 0644
# --only-binary: a numpy or OpenCV without a wheel must fail now, not compile for hours.
run "$PREFIX/venv/bin/pip" install --disable-pip-version-check \
    --only-binary=numpy,opencv-python-headless \
    -c "$PREFIX/src/deploy/constraints-pi.txt" -c "$PREFIX/constraints-system.txt" \
    -e "$PREFIX/src"

# The service user cannot write bytecode next to the code: compile it once here.
run "$venv_python" -m compileall -q "$PREFIX/src/companion"

step "check that picamera2, the apt numpy and OpenCV's ArucoDetector import together"
run "$venv_python" -c "import numpy, cv2, picamera2; \
assert numpy.__version__ == \"$system_numpy\", \"pip replaced the apt numpy\"; \
cv2.aruco.ArucoDetector; print(\"ok: apt numpy\", numpy.__version__, \"OpenCV\", cv2.__version__)"

step "launcher, config and systemd unit"
run install -m 0755 "$here/companion-serve.sh" "$PREFIX/bin/companion-serve"
run install -d -m 0755 "$CONF_DIR"
if [[ -e $CONF_DIR/config.toml ]]; then
    say "(keeping $CONF_DIR/config.toml)"
else
    printf '%s\n' \
        "# companion settings; see companion/config.py for every key. Written once by" \
        "# install.sh and never overwritten. Host, port and data dir come from the unit." \
        "[camera]" "source = \"$CAMERA\"" | write_file "$CONF_DIR/config.toml" 0644
fi
render "$here/companion.service" | write_file "$UNIT_FILE" 0644
run systemctl daemon-reload
run systemctl enable "$SERVICE.service"
# restart, not start: on an upgrade the running service must pick up the new code.
run systemctl restart "$SERVICE.service"

step "mDNS: advertise the dashboard, answer as NAME.local"
run install -d -m 0755 "$(dirname "$AVAHI_FILE")"
render "$here/companion-avahi.service" | write_file "$AVAHI_FILE" 0644
current_host=$(hostname)
new_host=$HOSTNAME_WANTED
if [[ -z $new_host && $KEEP_HOSTNAME == 0 && $current_host == raspberrypi ]]; then
    new_host=companion
fi
if [[ $KEEP_HOSTNAME == 1 || -z $new_host || $new_host == "$current_host" ]]; then
    new_host=$current_host
    say "(host name stays $current_host)"
else
    run hostnamectl set-hostname "$new_host"
    # Debian resolves its own name through the 127.0.1.1 line: keep it in step.
    if grep -q '^127\.0\.1\.1[[:space:]]' /etc/hosts; then
        run sed -i -E "s/^(127\.0\.1\.1[[:space:]]+).*/\1$new_host/" /etc/hosts
    else
        run sh -c "printf '127.0.1.1\\t%s\\n' $new_host >>/etc/hosts"
    fi
fi
run systemctl enable avahi-daemon.service
# avahi watches its services folder, but a restart also republishes a new host name.
run systemctl restart avahi-daemon.service

link=$DATA_DIR/admin-link.txt
if [[ $DRY_RUN == 0 ]]; then
    for _ in $(seq 30); do
        [[ -s $link ]] && break
        sleep 1
    done
    if ! systemctl is-active --quiet "$SERVICE.service"; then
        say "warning: $SERVICE is not running; see: journalctl -u $SERVICE -n 50"
    fi
fi

cat <<EOF

companion is installed ($PREFIX) and runs as the service $SERVICE.
  dashboard:   http://$new_host.local:$PORT/   (or http://<the Pi's address>:$PORT/)
  admin link:  on the LAN, changing anything needs a token; the first start writes the
               admin link with it. Read it with:
                   sudo cat $link
  status/logs: systemctl status $SERVICE   journalctl -u $SERVICE -f
  settings:    $CONF_DIR/config.toml (then: sudo systemctl restart $SERVICE)
  upgrade:     run deploy/install.sh again from a newer checkout
  remove:      sudo $PREFIX/src/deploy/uninstall.sh   (--purge also deletes $DATA_DIR)
EOF
