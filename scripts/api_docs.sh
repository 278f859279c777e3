#!/usr/bin/env bash
# The API reference, generated from the docstrings with pdoc, into build/api (or the directory given).
# CI checks that it builds and that no docstring reference is broken (tests/test_library.py).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/api}"
PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" python3 -m pdoc --docformat restructuredtext \
  -o "$out" muster '!muster.server.migrations'
echo "API reference: $out/index.html"
