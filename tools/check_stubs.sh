#!/usr/bin/env bash
# Checks python/tavli/_core.pyi against the compiled module: every name, signature and class the
# module has must be in the stubs as it is (mypy.stubtest). Run with the module importable (an
# installed tavli, or PYTHONPATH=python after tools/dev_build.sh).
# --ignore-disjoint-bases: every pybind11 class is a PEP 800 disjoint base; the stubs' Python
# floor (3.10) has no typing.disjoint_base to say so.
# --ignore-unused-allowlist: newer mypy (2.4) no longer reports the pybind11 metaclass that the
# allowlist names, older ones do; the entry stays for them.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python -m mypy.stubtest tavli._core --ignore-disjoint-bases --ignore-unused-allowlist --allowlist tools/stubtest_allowlist.txt "$@"
