#!/usr/bin/env bash
# The Python environment the `evodb import` tests make their fixtures in: OpenEvolve and
# ShinkaEvolve from PyPI, pinned in requirements.txt, in target/import-venv. Idempotent (a stamp
# holds the requirements it was made from); prints the venv's python.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/target/import-venv"
requirements="$root/tests/import/requirements.txt"
if ! cmp -s "$requirements" "$venv/.requirements" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements" >&2
  cp "$requirements" "$venv/.requirements"
fi
echo "$venv/bin/python"
