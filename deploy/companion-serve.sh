#!/usr/bin/env bash
# Started by companion.service (installed as PREFIX/bin/companion-serve). It exists because
# systemd cannot add an argument only when a file exists: the config file is optional, and
# passed with --config only when present. Extra arguments (the unit's --port) pass through.
set -euo pipefail

prefix=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
# systemd sets these from StateDirectory= and ConfigurationDirectory=.
data_dir=${STATE_DIRECTORY:-/var/lib/companion}
config_file=${CONFIGURATION_DIRECTORY:-/etc/companion}/config.toml

args=(serve --host 0.0.0.0 --data-dir "$data_dir")
if [[ -f $config_file ]]; then
    args+=(--config "$config_file")
fi
exec "$prefix/venv/bin/companion" "${args[@]}" "$@"
