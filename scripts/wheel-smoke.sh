#!/usr/bin/env bash
# The wheel as users get it: install it into a fresh venv and run scripts/wheel-smoke.py there
# with no Rust toolchain on PATH and the checkout out of reach. Prints the wheel's size and the
# import time of `import webgrip` from the installed wheel.
#
#   scripts/wheel-smoke.sh          build the manylinux2014 x86_64 abi3 wheel and the sdist
#                                   (scripts/build-wheels), check the tag with auditwheel, test
#   scripts/wheel-smoke.sh WHEEL    test a wheel built elsewhere (the release workflow on macOS)
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

AUDITWHEEL_VERSION=6.8.2
EXPECTED_TAG=manylinux_2_17_x86_64  # = manylinux2014 x86_64

if [[ $# -eq 1 ]]; then
    wheel="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
else
    scripts/build-wheels x86_64-unknown-linux-gnu sdist
    wheels=(dist/webgrip-*-cp310-abi3-manylinux*_x86_64*.whl)
    [[ ${#wheels[@]} -eq 1 && -f "${wheels[0]}" ]] \
        || { echo "wheel-smoke: expected one manylinux x86_64 wheel in dist/" >&2; exit 1; }
    wheel="$repo/${wheels[0]}"
fi
echo "wheel-smoke: $(basename "$wheel"): $(wc -c <"$wheel" | tr -d ' ') bytes"
if [[ $# -eq 0 ]]; then
    # auditwheel only reads the wheel: the build-tools venv (scripts/build-wheels) holds it.
    tools=target/wheel-tools
    "$tools/bin/python" -m pip install -q --disable-pip-version-check \
        "auditwheel==$AUDITWHEEL_VERSION"
    audit="$("$tools/bin/auditwheel" show "$wheel")"
    echo "$audit"
    # auditwheel wraps its lines; join them before looking for the tag.
    if ! tr '\n' ' ' <<<"$audit" | tr -s ' ' \
        | grep -q "consistent with the following platform tag: \"$EXPECTED_TAG\""; then
        echo "wheel-smoke: auditwheel does not report $EXPECTED_TAG" >&2
        exit 1
    fi
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
# --only-binary: a wheel that did not fit would otherwise fall back to building from source.
"$work/venv/bin/python" -m pip install -q --disable-pip-version-check --only-binary :all: "$wheel"

# The user's shell: the venv, the system, and nothing of the Rust toolchain (~/.cargo/bin)
# or of this checkout (run from an empty folder, no PYTHONPATH).
clean_path="$work/venv/bin:/usr/bin:/bin"
if PATH="$clean_path" command -v cargo >/dev/null || PATH="$clean_path" command -v rustc >/dev/null; then
    echo "wheel-smoke: cargo/rustc is on the clean PATH ($clean_path)" >&2
    exit 1
fi
mkdir "$work/home"
run_clean() {
    (cd "$work/home" && env -i PATH="$clean_path" HOME="$work/home" LANG=C.UTF-8 "$@")
}
run_clean python "$repo/scripts/wheel-smoke.py"

# Import time of the installed package: the cumulative microseconds on `webgrip`'s own line.
import_us="$(run_clean python -X importtime -c 'import webgrip' 2>&1 \
    | awk -F'|' '$3 ~ /^ webgrip$/ {gsub(/ /, "", $2); print $2}')"
echo "wheel-smoke: import webgrip (installed wheel): ${import_us} us"
