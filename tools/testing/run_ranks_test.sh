#!/usr/bin/env bash
# tools/run_ranks.sh with a fake program, in one of two parts:
#
#   run_ranks_test.sh codes      every rank gets its own --rank and LOCAL_RANK, the same --ranks,
#                                --id-file and --job (new for each job) after the program's
#                                arguments, and the exit codes combine as documented
#   run_ranks_test.sh fail_fast  a rank killed on purpose, or failing while the others hang,
#                                ends the job at once with a non-zero code; past the time limit
#                                every rank is stopped (exit 124), one that ignores TERM too;
#                                and so are they when run_ranks.sh itself is stopped
set -u
tool="$(dirname "$0")/../run_ranks.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "run_ranks_test: $*"; exit 1; }

# The fake rank: records its arguments, environment and process ids, says hello on stderr,
# then sleeps SLEEP_<rank> seconds (a rank waiting in NCCL for one that is gone; with
# STUBBORN_<rank> set it ignores TERM) and exits with the code CODE_<rank>.
cat >"$dir/fake" <<'FAKE'
#!/usr/bin/env bash
rank=""; for ((i = 1; i <= $#; i++)); do [ "${!i}" = "--rank" ] && { j=$((i + 1)); rank=${!j}; }; done
echo "$*" >"$OUT_DIR/args.$rank"
echo "LOCAL_RANK=${LOCAL_RANK-unset} SLURM_LOCALID=${SLURM_LOCALID-unset}" \
  "OMPI_COMM_WORLD_LOCAL_RANK=${OMPI_COMM_WORLD_LOCAL_RANK-unset}" >"$OUT_DIR/env.$rank"
echo "rank $rank says hello" >&2
stubborn="STUBBORN_$rank"; [ -n "${!stubborn:-}" ] && trap '' TERM
sleep_var="SLEEP_$rank"
if [ -n "${!sleep_var:-}" ]; then
  sleep "${!sleep_var}" &
  echo $! >"$OUT_DIR/child.$rank"
  echo $$ >"$OUT_DIR/pid.$rank"
  wait
fi
code_var="CODE_$rank"
exit "${!code_var:-0}"
FAKE
chmod +x "$dir/fake"
export OUT_DIR=$dir

# Runs run_ranks.sh with the arguments given, into $dir/out and $dir/err; sets rc and took (s).
run() {
  local start=$SECONDS
  rc=0
  bash "$tool" "$@" >"$dir/out" 2>"$dir/err" || rc=$?
  took=$((SECONDS - start))
}
# Fails unless $dir/err holds the text $1.
says() { grep -qF -- "$1" "$dir/err" || fail "expected '$1' in: $(cat "$dir/err")"; }
# Whether process $1 runs (a zombie, dead but not yet reaped by init, does not).
runs() {
  local state
  if [ -d /proc/self ]; then
    state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
  else
    state=$(ps -o stat= -p "$1") || return 1
  fi
  [[ $state == [^Z]* ]]
}
# Fails unless every fake rank's sleep has ended within a second (run_ranks.sh stopped what the
# ranks started, the rank that was killed included).
no_sleeper_left() {
  local f tries
  for f in "$dir"/child.*; do
    [ -f "$f" ] || continue
    for ((tries = 0; tries < 10; tries++)); do
      runs "$(cat "$f")" || break
      sleep 0.1
    done
    if runs "$(cat "$f")"; then
      kill -KILL "$(cat "$f")"
      fail "$1: $f's sleep is still running"
    fi
    rm -f "$f" "$dir/pid.${f##*.}"
  done
}

codes() {
  SLURM_LOCALID=7 OMPI_COMM_WORLD_LOCAL_RANK=7 run 3 "$dir/fake" --n 5
  [ "$rc" -eq 0 ] || fail "three passing ranks gave $rc: $(cat "$dir/err")"
  local r job_0 file_0
  for r in 0 1 2; do
    [ -f "$dir/args.$r" ] || fail "rank $r did not run"
    read -r -a args <"$dir/args.$r"
    [[ ${args[*]:0:7} == "--n 5 --rank $r --ranks 3 --id-file" && ${args[8]} == --job &&
      ${#args[@]} -eq 10 ]] || fail "rank $r: ${args[*]}"
    [ "$r" -gt 0 ] || { file_0=${args[7]}; job_0=${args[9]}; }
    [ "${args[7]}" = "$file_0" ] || fail "ranks got different id files"
    [ "${args[9]}" = "$job_0" ] || fail "ranks got different jobs"
    # The launcher's local rank is this one's, whatever a surrounding launcher left.
    local want="LOCAL_RANK=$r SLURM_LOCALID=unset OMPI_COMM_WORLD_LOCAL_RANK=unset"
    [ "$(cat "$dir/env.$r")" = "$want" ] || fail "rank $r's environment: $(cat "$dir/env.$r")"
  done
  [[ $file_0 == *"$job_0"* ]] || fail "the id file $file_0 is not named after the job $job_0"
  run 1 "$dir/fake"
  read -r -a args <"$dir/args.0"
  [ "${args[7]}" != "$job_0" ] || fail "two jobs got the same name $job_0"

  CODE_1=3 run 3 "$dir/fake"
  [ "$rc" -eq 3 ] || fail "a rank exiting 3 gave $rc"
  says "rank 1 exited 3:"
  says "  rank 1 says hello"
  CODE_0=77 CODE_1=77 run 2 "$dir/fake"
  [ "$rc" -eq 77 ] || fail "every rank skipped (77) gave $rc"
  CODE_1=77 run 2 "$dir/fake"
  [ "$rc" -eq 1 ] || fail "some ranks skipped, others ran: gave $rc, expected 1"
  run 0 "$dir/fake"
  [ "$rc" -eq 2 ] || fail "N = 0 gave $rc, expected a usage error (2)"
  run --time-limit soon 2 "$dir/fake"
  [ "$rc" -eq 2 ] || fail "--time-limit soon gave $rc, expected a usage error (2)"
}

fail_fast() {
  # A rank killed from outside (the OOM killer, say) while the others wait for it.
  SLEEP_0=60 SLEEP_1=60 SLEEP_2=60 bash "$tool" --time-limit 50 3 "$dir/fake" \
    >"$dir/out" 2>"$dir/err" &
  local job=$! start=$SECONDS
  while [ ! -f "$dir/pid.1" ] && [ $((SECONDS - start)) -lt 20 ]; do sleep 0.1; done
  [ -f "$dir/pid.1" ] || fail "rank 1 did not start"
  kill -KILL "$(cat "$dir/pid.1")"
  rc=0
  wait "$job" || rc=$?
  took=$((SECONDS - start))
  [ "$rc" -eq 137 ] || fail "rank 1 killed: gave $rc, expected 137: $(cat "$dir/err")"
  [ "$took" -le 10 ] || fail "rank 1 killed: the job took $took s to end (limit 50)"
  says "rank 1 failed; stopping ranks 0 2"
  says "rank 1 was killed by SIGKILL:"
  no_sleeper_left "rank 1 killed"

  # A rank that fails early while the others would wait for it forever.
  CODE_1=3 SLEEP_0=60 SLEEP_2=60 run --time-limit 50 3 "$dir/fake"
  [[ $rc -eq 3 && $took -le 10 ]] || fail "rank 1 exiting 3: gave $rc after $took s"
  says "  rank 1 says hello"
  no_sleeper_left "rank 1 exiting 3"

  # ... while another ignores TERM: KILL after the grace period.
  CODE_0=3 SLEEP_1=60 STUBBORN_1=1 RUN_RANKS_GRACE=1 run --time-limit 50 2 "$dir/fake"
  [[ $rc -eq 3 && $took -le 10 ]] || fail "a stubborn rank: gave $rc after $took s"
  no_sleeper_left "a stubborn rank"

  # A rank that finds no GPU while another waits: the others are stopped after the grace.
  CODE_1=77 SLEEP_0=60 RUN_RANKS_GRACE=1 run --time-limit 50 2 "$dir/fake"
  [[ $rc -eq 1 && $took -le 10 ]] || fail "no GPU for rank 1 only: gave $rc after $took s"
  says "a rank found no GPU (exit 77); stopping ranks 0"
  no_sleeper_left "no GPU for rank 1 only"

  # Every rank hangs: the time limit stops them all (124), and names them.
  SLEEP_0=60 SLEEP_1=60 run --time-limit 2 2 "$dir/fake"
  [ "$rc" -eq 124 ] || fail "the time limit gave $rc, expected 124"
  [[ $took -ge 1 && $took -le 10 ]] || fail "a time limit of 2 s ended the job after $took s"
  says "time limit of 2 s reached"
  says "stopping ranks 0 1, still running"
  says "  rank 1 says hello"
  no_sleeper_left "the time limit"
  SLEEP_0=60 RUN_RANKS_TIME_LIMIT=1 run 1 "$dir/fake"
  [[ $rc -eq 124 && $took -le 10 ]] || fail "RUN_RANKS_TIME_LIMIT=1: gave $rc after $took s"
  no_sleeper_left "RUN_RANKS_TIME_LIMIT"

  # run_ranks.sh itself stopped (by a scheduler, say): it stops its ranks on the way out.
  SLEEP_0=60 SLEEP_1=60 bash "$tool" 2 "$dir/fake" >"$dir/out" 2>"$dir/err" &
  job=$!
  start=$SECONDS
  while [ ! -f "$dir/pid.1" ] && [ $((SECONDS - start)) -lt 20 ]; do sleep 0.1; done
  kill -TERM "$job"
  rc=0
  wait "$job" || rc=$?
  [ "$rc" -eq 143 ] || fail "run_ranks.sh stopped by TERM gave $rc, expected 143"
  no_sleeper_left "run_ranks.sh stopped"
}

case "${1:-}" in
  codes | fail_fast) "$1" ;;
  *) fail "usage: $0 codes|fail_fast" ;;
esac
echo "run_ranks_test $1: ok"
