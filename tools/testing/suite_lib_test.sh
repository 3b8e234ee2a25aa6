#!/usr/bin/env bash
# The GPU suite must log a failing program's own exit code (it once logged "exit 0" for all).
set -u
source "$(dirname "$0")/../suite_lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "suite_lib_test: $*"; exit 1; }

rc=0; run_recorded "$dir/log" "$dir/failures" bash -c 'echo out; exit 3' >/dev/null || rc=$?
[ "$rc" -eq 3 ] || fail "returned $rc, expected 3"
grep -qx 'FAIL: bash -c echo out; exit 3 (exit 3)' "$dir/failures" || fail "failure line: $(cat "$dir/failures")"
grep -qx 'out' "$dir/log" || fail "output not logged"

rm -f "$dir/failures"
run_recorded "$dir/log" "$dir/failures" true || fail "a passing command failed"
[ ! -e "$dir/failures" ] || fail "a passing command was recorded as a failure"
echo "suite_lib_test: ok"
