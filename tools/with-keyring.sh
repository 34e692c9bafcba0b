#!/usr/bin/env bash
# Runs a command with a real, unlocked Secret Service: a private D-Bus session
# (dbus-run-session) with gnome-keyring-daemon's secrets component, on a throw-away
# keyring folder. The command sees HAEMA_TEST_KEYRING=1.
#
#   tools/with-keyring.sh cargo test -p haema-core --features keyring --test keyring_secret_service
#
# Needs Debian's dbus and gnome-keyring packages.
set -euo pipefail
if [[ "${1:-}" != "--inside" ]]; then
  exec dbus-run-session -- "$0" --inside "$@"
fi
shift
home=$(mktemp -d)
trap 'kill "${GNOME_KEYRING_PID:-}" 2>/dev/null || true; rm -rf "$home"' EXIT
# The daemon keeps its keyring in a folder of its own; the command gets the caller's
# XDG_DATA_HOME back.
had_data=${XDG_DATA_HOME+x}
data=${XDG_DATA_HOME-}
export XDG_DATA_HOME="$home/data" XDG_RUNTIME_DIR="$home/run"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
# The login keyring is made and unlocked with this password on the first start.
eval "$(printf 'haema-test\n' | gnome-keyring-daemon --unlock --components=secrets)"
eval "$(gnome-keyring-daemon --start --components=secrets)"
export GNOME_KEYRING_CONTROL GNOME_KEYRING_PID HAEMA_TEST_KEYRING=1
if [[ -n "$had_data" ]]; then export XDG_DATA_HOME="$data"; else unset XDG_DATA_HOME; fi
"$@"
