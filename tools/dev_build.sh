#!/usr/bin/env bash
# Developer build: compiles tavli._core into build/dev (incremental, Ninja) and drops the extension
# into python/tavli/, so that `PYTHONPATH=python python -m pytest ...` runs the tree as it is,
# without a pip install. CI installs with pip instead (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TAVLI_DEV_BUILD:-build/dev}
python=${PYTHON:-python3}
# ccache, where installed, shares object files between worktrees (paths made relative to /work).
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(cd .. && pwd)}
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
  -DPython_EXECUTABLE="$(command -v "$python")" \
  -Dpybind11_DIR="$("$python" -c 'import pybind11; print(pybind11.get_cmake_dir())')" >/dev/null
cmake --build "$build" "$@"
rm -f python/tavli/_core*.so
cp "$build"/_core*.so python/tavli/
