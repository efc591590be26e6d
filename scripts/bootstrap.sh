#!/usr/bin/env bash
# Create .venv (if missing) and install the project with the extras the tests need.
# Usage: bash scripts/bootstrap.sh [extra,...]
#   default "dev,train,rllib,openspiel,onnx,torchrl" (what the tests need; the last three are
#   the framework bridges of docs/ecosystem.md, about 350 MB together)
# constraints.txt pins torch to the CPU wheel on these machines; elsewhere it is harmless.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-dev,train,rllib,openspiel,onnx,torchrl}"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
fi
# PYTHONWARNINGS hides setuptools' generic editable-install notice in the build subprocess.
PYTHONWARNINGS=ignore .venv/bin/python -m pip install -q -c constraints.txt -e ".[${extras}]"
