#!/usr/bin/env bash
# Builds the Python wheel haema-rs (src-py/) with maturin, installs it in a fresh virtual
# environment and runs its tests there: pytest (HAEMA's behaviour, the Promptise provider,
# the examples, the same store through the real `haema` binary), mypy --strict of the tests
# and examples against the installed package and its stubs, and stubtest of the native
# module's stub against the built module.
#
#   tools/python-wheel.sh [HAEMA_BINARY]     (default target/debug/haema)
#
# The wheel is built with the dev profile, whose dependencies are optimised (see the
# workspace's profiles) and shared with the rest of the test build; a release wheel for
# people is `maturin build --release -m src-py/Cargo.toml` (README: "From HAEMA").
set -euo pipefail
cd "$(dirname "$0")/.."

haema="$(realpath "${1:-target/debug/haema}")"
venv="$PWD/target/py-venv"
wheels="$PWD/target/wheels"

rm -rf "$venv" "$wheels"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "maturin>=1.9,<2" "pytest>=8" "mypy>=1.10" "numpy>=1.26" "pydantic>=2.7"

"$venv/bin/maturin" build --profile dev --locked -m src-py/Cargo.toml -o "$wheels"
wheel="$(ls "$wheels"/haema_rs-*.whl)"
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheel"
echo "installed $(basename "$wheel")"

# The tests import the installed package (never src-py/python): run them from elsewhere.
cd src-py
"$venv/bin/python" -m mypy --strict --no-incremental tests examples
"$venv/bin/python" -m mypy.stubtest haema_rs._native
HAEMA_BIN="$haema" "$venv/bin/python" -m pytest -p no:cacheprovider -q tests
