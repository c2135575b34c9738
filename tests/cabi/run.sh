#!/usr/bin/env bash
# The canonical ABI against the spec's reference (definitions.py): a
# fixed-seed run of tests/component/cabi_diff.py, 500 random cases per
# direction (lift, lower) per string encoding and 500 function types
# (flatten_functype), each case one test. The long runs (100,000 per
# direction and encoding) are in docs/components.md.
set -u
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
spec=${CM_SPEC_DIR:-../shared/spec/component-model}
if [ ! -f "$spec/design/mvp/canonical-abi/definitions.py" ]; then
    echo "cabi: $spec/design/mvp/canonical-abi/definitions.py not found"
    echo "0 passed, 1 failed"
    exit 1
fi
exec python3 tests/component/cabi_diff.py "$BUILD" -n "${CABI_DIFF_N:-500}" -s 1
