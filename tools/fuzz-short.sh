#!/usr/bin/env bash
# A short run of every fuzz target (fuzz/, cargo-fuzz with libFuzzer), for the test command.
#
#   tools/fuzz-short.sh            # HAEMA_FUZZ_SECONDS per target (default 20)
#
# Installs the nightly toolchain and cargo-fuzz when they are missing. When either cannot be
# had, or the targets do not build with this nightly, it says "fuzz step skipped: <why>" and
# exits 0: the corpora still run on stable (src-tui/tests/fuzz_corpora.rs). A target that
# crashes fails the step; its input is saved under fuzz/artifacts/<target>/ (add it to the
# target's corpus once fixed). Each run starts from a copy of the corpus, so the repository
# is not changed.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds="${HAEMA_FUZZ_SECONDS:-20}"
skip() {
    echo "fuzz step skipped: $*"
    exit 0
}
rustup toolchain list | grep -q '^nightly' ||
    rustup toolchain install nightly --profile minimal || skip "the nightly toolchain cannot be installed"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked || skip "cargo-fuzz cannot be installed"
export CARGO_TARGET_DIR="${HAEMA_FUZZ_TARGET_DIR:-$PWD/target/fuzz}"
cd fuzz
started=$(date +%s)
cargo +nightly fuzz build -O || skip "the fuzz targets do not build with this nightly"
echo "fuzz targets built in $(($(date +%s) - started)) s"
status=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for target in $(cargo +nightly fuzz list); do
    mkdir -p "$work/$target"
    cp -r "corpus/$target/." "$work/$target/" 2>/dev/null || true
    if cargo +nightly fuzz run -O "$target" "$work/$target" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 >"$work/$target.log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$target.log" | grep -o '[0-9]*$')
        echo "fuzz $target: ${seconds} s, ${runs:-?} inputs, no crash"
    else
        echo "fuzz $target: CRASHED (input saved under fuzz/artifacts/$target/)"
        tail -40 "$work/$target.log"
        status=1
    fi
done
exit $status
