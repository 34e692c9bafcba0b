#!/usr/bin/env bash
# Builds the Python wheel haema-rs (src-py/) with maturin, installs it in a fresh virtual
# environment and runs its tests there: pytest (HAEMA's behaviour, the Promptise provider,
# the examples, the same store through the real `haema` binary, `haema mcp --http` with the
# official MCP Python SDK as its client, the OpenAI Agents SDK and LangGraph integrations
# against those packages), mypy --strict of the package, the tests and the examples with the
# native module's stub, and stubtest of that stub against the built module.
#
#   tools/python-wheel.sh [HAEMA_BINARY]     all three steps (default binary target/debug/haema)
#   tools/python-wheel.sh prepare            the virtual environment: maturin, pytest, mypy, ...
#   tools/python-wheel.sh build              the wheel (needs prepare)
#   tools/python-wheel.sh test [HAEMA_BINARY] install the wheel, then mypy, stubtest, pytest
#
# .ci/run calls the steps apart: it prepares while the system packages install and builds the
# wheel in the background while the Rust tests run.
#
# The wheel is built with the dev profile (dependencies optimised as the workspace's profiles
# say) in a target folder of its own, target/wheel (HAEMA_WHEEL_TARGET_DIR), so that it never
# waits for the lock of the test build's target/; a release wheel for people is
# `maturin build --release -m src-py/Cargo.toml` (docs/python.md).
set -euo pipefail
cd "$(dirname "$0")/.."

venv="$PWD/target/py-venv"
wheels="$PWD/target/wheels"

prepare() {
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet "maturin>=1.9,<2" "pytest>=8.4" "mypy>=1.10" "numpy>=1.26" "pydantic>=2.7" \
        "mcp>=2.3,<3" "openai-agents>=0.24,<1" "langgraph>=1.2,<2"
}

build() {
    rm -rf "$wheels"
    CARGO_TARGET_DIR="${HAEMA_WHEEL_TARGET_DIR:-$PWD/target/wheel}" \
        "$venv/bin/maturin" build --profile dev --locked -m src-py/Cargo.toml -o "$wheels"
}

run_tests() {
    local haema wheel
    haema="$(realpath "${1:-target/debug/haema}")"
    wheel="$(ls "$wheels"/haema_rs-*.whl)"
    "$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheel"
    echo "installed $(basename "$wheel")"
    # The tests import the installed package (never src-py/python): run them from elsewhere.
    cd src-py
    # The package's own modules too (the integrations against openai-agents' and langgraph's
    # types): errors in an installed package would go unreported.
    "$venv/bin/python" -m mypy --strict --no-incremental tests examples python/haema_rs
    "$venv/bin/python" -m mypy.stubtest haema_rs._native
    HAEMA_BIN="$haema" "$venv/bin/python" -m pytest -p no:cacheprovider -q tests
}

case "${1:-}" in
    prepare) prepare ;;
    build) build ;;
    test) run_tests "${2:-}" ;;
    *) prepare && build && run_tests "${1:-}" ;;
esac
