#!/usr/bin/env bash
# A short run of every fuzz target (fuzz/, cargo-fuzz with libFuzzer), for the test command.
#
#   tools/fuzz-short.sh            build, then HAEMA_FUZZ_SECONDS per target (default 20)
#   tools/fuzz-short.sh build      only build the targets (.ci/run does it in the background)
#   tools/fuzz-short.sh run        only run them (after build)
#
# The targets are built without optimisation and without AddressSanitizer (`cargo fuzz build
# --dev -s none`; coverage guidance and debug assertions stay): that build takes a fraction of
# the time of `-O`, which matters more for a run of seconds than the fuzzer's speed, and the
# sanitizer has little to find in safe Rust (the C of SQLite is built by cc, never
# instrumented by it). HAEMA_FUZZ_JOBS targets run at once (default 2,
# one per core). For a long hunt, `cargo +nightly fuzz run -O <target>` in fuzz/.
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
jobs="${HAEMA_FUZZ_JOBS:-2}"
export CARGO_TARGET_DIR="${HAEMA_FUZZ_TARGET_DIR:-$PWD/target/fuzz}"
# .ci/run lints its build with clippy-driver as the rustc wrapper; nightly builds plainly.
unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS
# The reason the build was skipped, for `run` in a later call.
skipped="$CARGO_TARGET_DIR/skipped"
skip() {
    mkdir -p "$CARGO_TARGET_DIR"
    echo "$*" >"$skipped"
    echo "fuzz step skipped: $*"
    exit 0
}

build() {
    rm -f "$skipped"
    rustup toolchain list | grep -q '^nightly' ||
        rustup toolchain install nightly --profile minimal || skip "the nightly toolchain cannot be installed"
    command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked || skip "cargo-fuzz cannot be installed"
    local started
    started=$(date +%s)
    (cd fuzz && cargo +nightly fuzz build --dev -s none) || skip "the fuzz targets do not build with this nightly"
    echo "fuzz targets built in $(($(date +%s) - started)) s"
}

run_one() {
    local target="$1" work="$2"
    mkdir -p "$work/$target"
    cp -r "corpus/$target/." "$work/$target/" 2>/dev/null || true
    if cargo +nightly fuzz run --dev -s none "$target" "$work/$target" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 >"$work/$target.log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$target.log" | grep -o '[0-9]*$')
        echo "fuzz $target: ${seconds} s, ${runs:-?} inputs, no crash"
    else
        echo "fuzz $target: CRASHED (input saved under fuzz/artifacts/$target/)"
        tail -40 "$work/$target.log"
        return 1
    fi
}

run() {
    if [[ -f "$skipped" ]]; then
        echo "fuzz step skipped: $(cat "$skipped")"
        exit 0
    fi
    cd fuzz
    local target
    # Global, not local: the EXIT trap runs after this function has returned.
    fuzz_work=$(mktemp -d)
    trap 'rm -rf "$fuzz_work"' EXIT
    local work="$fuzz_work"
    for target in $(cargo +nightly fuzz list); do
        while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
        (run_one "$target" "$work" || touch "$work/failed") &
    done
    wait
    [[ ! -e "$work/failed" ]]
}

case "${1:-}" in
    build) build ;;
    run) run ;;
    *) build && run ;;
esac
