#!/usr/bin/env bash
# The component model's spec scripts (validation/, binary/, values/,
# resources/, linking/ of ../shared/spec/component-model/test), converted
# by convert.mjs into data/: decode and validate commands pass or fail,
# what needs instantiation is skipped (skip.txt lists the rest, with reasons).
# data-weft/: weft's own scripts (wast/, regressions), converted the same way.
set -u
BUILD=${1:-build}
cd "$(dirname "$0")"
exec "../../$BUILD/weft-component-test" -s skip.txt data/validation data/binary data/values data/resources data/linking \
    data-weft/validation
