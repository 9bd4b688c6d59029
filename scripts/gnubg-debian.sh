#!/usr/bin/env bash
# Prints the path of Debian's GNU Backgammon (package `gnubg`, tty mode `gnubg -t`), installing
# it with apt-get first when it is missing (as root, or with sudo).
set -euo pipefail
for candidate in gnubg /usr/games/gnubg; do
  if command -v "$candidate" >/dev/null 2>&1; then
    command -v "$candidate"
    exit 0
  fi
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing Debian's gnubg with apt-get..." >&2
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gnubg >&2 ||
  { $sudo apt-get update >&2 && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gnubg >&2; }
command -v gnubg 2>/dev/null || command -v /usr/games/gnubg
