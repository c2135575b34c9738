#!/usr/bin/env bash
# The WASI 0.2 hosts' type tables (src/wasip2/wit_types.[ch]) are what
# tools/witgen.py makes from the WIT now: one test. Run `make wit` after
# changing the generator or the WIT.
set -u
cd "$(dirname "$0")/../.."
if ! command -v python3 >/dev/null; then echo "0 passed, 0 failed, 1 skipped (no python3)"; exit 0; fi
if [ ! -d ../shared/spec/wasi-wit/v0.2.12 ]; then
    echo "0 passed, 0 failed, 1 skipped (no ../shared/spec/wasi-wit/v0.2.12)"; exit 0
fi
if python3 tools/witgen.py --check; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; exit 1; fi
