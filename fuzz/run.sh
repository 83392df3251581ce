#!/usr/bin/env bash
# Build and run the fuzz targets (see fuzz/README.md).
#   fuzz/run.sh build                     instrumented build of every Rust target
#   fuzz/run.sh seeds                     seed corpora from tests/fixtures and ../shared/corpus
#   fuzz/run.sh run TARGET SECONDS [ARGS] one Rust target (ARGS go to libFuzzer)
#   fuzz/run.sh py TARGET SECONDS [ARGS]  one Python target (atheris)
#   fuzz/run.sh ci                        all of the above, a fixed short run of each target
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
triple="$(rustc -vV | sed -n 's/^host: //p')"
bin_dir="$here/target/$triple/fuzz"
rust_targets=(html charset lexer_diff tree_diff url_policy ip_table pdf)
py_targets=(robots filename duckduckgo providers)

build() {
    # Stable rustc's own flags for libFuzzer's coverage feedback (what cargo-fuzz passes, less
    # the nightly-only sanitizer); an explicit --target keeps them off build scripts and
    # proc-macros, which must not link against libFuzzer.
    RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks" \
        cargo build --manifest-path "$here/Cargo.toml" --locked --profile fuzz --target "$triple" \
        --bins
}

seeds() {
    python3 "$here/seeds.py"
}

# libFuzzer's closing lines give the executions; the summary line is what CI logs keep.
summarise() {
    local target="$1" log="$2"
    local runs crashes
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p; s/^Done \([0-9]*\) runs in.*/\1/p' \
        "$log" | tail -1)"
    # crash-, timeout-, oom- and leak- inputs count; slow-unit- ones (over 10 s) do not.
    crashes="$(grep -c 'Test unit written to .*/\(crash\|timeout\|oom\|leak\)-' "$log" || true)"
    slowest="$(sed -n 's/^stat::slowest_unit_time_sec: *//p' "$log" | tail -1)"
    echo "fuzz: $target: ${runs:-?} executions, ${crashes} crash(es), slowest input ${slowest:-?} s"
}

run_one() {
    local kind="$1" target="$2" seconds="$3"
    shift 3
    local corpus="${corpus_root:-$here/corpus}/$target" artifacts="$here/artifacts/$target"
    mkdir -p "$corpus" "$artifacts"
    local log
    log="$(mktemp)"
    local args=(-max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=262144
        -artifact_prefix="$artifacts/" -print_final_stats=1 "$@" "$corpus")
    [ -d "$here/seeds/$target" ] && args+=("$here/seeds/$target")
    local status=0
    if [ "$kind" = rust ]; then
        "$bin_dir/$target" "${args[@]}" >"$log" 2>&1 || status=$?
    else
        python3 "$here/python/targets.py" "$target" "${args[@]}" >"$log" 2>&1 || status=$?
    fi
    # A failing run shows its end (the crash report, the input's path); a clean one its figures.
    if [ "$status" -ne 0 ]; then
        grep -v '^#[0-9]' "$log" | tail -n 40 || true
    fi
    summarise "$target" "$log"
    rm -f "$log"
    return "$status"
}

cmd="${1:-}"
case "$cmd" in
    build) build ;;
    seeds) seeds ;;
    run) shift; run_one rust "$@" ;;
    py) shift; run_one py "$@" ;;
    ci)
        # A fixed seed, a fixed number of inputs and a fresh corpus (the seeds only). The
        # coverage fed back still depends on per-process hash seeds in the code under test, so
        # two machines can explore differently (docs/reliability.md). The time limit only
        # guards a slow machine (it can cut a run short, never add inputs). Long runs explore;
        # this one checks that every target builds and holds on its seeds and their neighbours.
        build
        seeds
        corpus_root="$(mktemp -d)"
        trap 'rm -rf "$corpus_root"' EXIT
        export PYTHONHASHSEED=0
        declare -A runs=([html]=1000 [charset]=5000 [lexer_diff]=1000 [url_policy]=500000
            [ip_table]=1000000 [pdf]=1500 [robots]=300000 [filename]=100000 [duckduckgo]=5000
            [providers]=500000)
        failed=0
        for t in "${rust_targets[@]}"; do
            # A target without an entry in `runs` is for long runs only.
            if [ -z "${runs[$t]:-}" ]; then
                echo "fuzz: $t: long runs only, not in the short run"
                continue
            fi
            run_one rust "$t" 120 -seed=1 -runs="${runs[$t]}" || failed=1
        done
        for t in "${py_targets[@]}"; do
            run_one py "$t" 120 -seed=1 -runs="${runs[$t]}" || failed=1
        done
        exit "$failed"
        ;;
    *) sed -n '2,7p' "$0"; exit 2 ;;
esac
