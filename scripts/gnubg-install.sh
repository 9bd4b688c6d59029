#!/usr/bin/env bash
# Installs GNU Backgammon's Python module (PyPI `gnubg`, a manylinux wheel with its networks and
# bear-off databases) into .venv-gnubg/, the sparring partner of scripts/gnubg-engine.py.
# Does nothing when it is already there; quiet on success. Prints the venv's python on stdout
# when asked with --print-python.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-gnubg
version=1.1.0a16
if ! "$venv/bin/python" -c 'import gnubg' 2>/dev/null; then
  # The wheel is built for CPython 3.10-3.14; the system python3 must be one of them.
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "gnubg==$version"
  "$venv/bin/python" -c 'import gnubg' || { echo "gnubg-install: the gnubg module does not import" >&2; exit 1; }
fi
if [[ ${1:-} == --print-python ]]; then
  echo "$PWD/$venv/bin/python"
fi
