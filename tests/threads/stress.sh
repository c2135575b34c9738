#!/usr/bin/env bash
# Stress target: every thread scenario N times (default 200), each run under
# a timeout, so a lost wake-up shows as a failure, never as a hang.
#   tests/threads/stress.sh [N] [BUILD]     (BUILD defaults to build)
# CI runs a short count; the acceptance bar is 200/200 for every scenario.
# The modes default to os and pool, where runs can differ (SCHED picks
# others; a deterministic run repeated only repeats itself).
set -u
export SCHED=${SCHED:-os pool}
N=${1:-200}
BUILD=${2:-${BUILD:-build}}
cd "$(dirname "$0")/../.."
t0=$(date +%s)
bash tests/threads/run.sh "$BUILD" "$N"
rc=$?
echo "stress: $N rounds in $(( $(date +%s) - t0 )) s"
exit $rc
