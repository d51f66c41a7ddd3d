#!/usr/bin/env bash
# Builds tavli._core with AddressSanitizer + UndefinedBehaviorSanitizer and the core invariant
# checks, and runs the test suite against it (everything by default; pass pytest arguments to run
# less, e.g. `tools/sanitize.sh tests/test_bad_input.py -x`).
#
# The extension is loaded into an uninstrumented Python, so the ASan runtime is preloaded; leak
# detection is off (CPython itself keeps memory until exit), everything else aborts on the first
# error.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/sanitize
python=${PYTHON:-python3}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTAVLI_SANITIZE=ON \
  -DPython_EXECUTABLE="$(command -v "$python")" \
  -Dpybind11_DIR="$("$python" -c 'import pybind11; print(pybind11.get_cmake_dir())')" >/dev/null
cmake --build "$build"
pkg=$(mktemp -d)
trap 'rm -rf "$pkg"' EXIT
cp -r python/tavli "$pkg/"
rm -f "$pkg"/tavli/_core*.so
cp "$build"/_core*.so "$pkg/tavli/"
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export PYTHONPATH="$pkg"
"$python" -m pytest -q -p no:cacheprovider "${@:-tests}"
