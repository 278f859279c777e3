#!/usr/bin/env bash
# The API reference, generated from the docstrings with pdoc, into build/api (or the directory given):
# every public module, linked from its package's page (scripts/api_docs.py says why that needs help).
# CI checks that it builds, that every module is linked and that no docstring reference is broken
# (tests/test_library.py).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" python3 scripts/api_docs.py "${1:-build/api}"
