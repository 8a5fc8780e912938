#!/usr/bin/env bash
# Boot the emulated aquila board; see scripts/boot.sh --help.
set -u
exec "$(dirname "$0")/boot.sh" --board aquila "$@"
