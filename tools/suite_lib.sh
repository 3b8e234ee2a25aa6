# Functions of tools/gpu_suite.sh that are tested on their own (tools/testing/suite_lib_test.sh).

# run_recorded LOG FAILURES COMMAND...: runs COMMAND with its output appended to LOG. On a
# failure, appends "FAIL: COMMAND (exit N)" to FAILURES and prints it. Returns COMMAND's code:
# the code is read before any other command runs, so the line names the program's own code.
run_recorded() {
  local log=$1 failures=$2
  shift 2
  local rc=0
  "$@" >>"$log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then echo "FAIL: $* (exit $rc)" | tee -a "$failures"; fi
  return "$rc"
}
