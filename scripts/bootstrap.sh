#!/usr/bin/env bash
# Create .venv (if missing) and install the project with its dev extra.
# Usage: bash scripts/bootstrap.sh [extra,...]   e.g. "dev" (default) or "dev,train"
# constraints.txt pins torch to the CPU wheel on these machines; elsewhere it is harmless.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-dev}"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
fi
.venv/bin/python -m pip install -q -c constraints.txt -e ".[${extras}]"
