#!/usr/bin/env bash
# Runs a program as N processes, one per GPU, the way a job of many hosts runs (chapter 11):
#
#   tools/run_ranks.sh [--time-limit S] N PROGRAM [ARGS...]
#   tools/run_ranks.sh 2 build/bin/ch11_multi_gpu --n 2^26
#
# Process r gets "--rank r --ranks N --id-file F --job J" after ARGS, and LOCAL_RANK=r in its
# environment, from which it picks its GPU (OMPI_COMM_WORLD_LOCAL_RANK and SLURM_LOCALID,
# which a surrounding mpirun or srun may have left and which would come first, are removed).
# J is a random name, new for this job; F, named after it in a new directory, is where rank 0
# leaves NCCL's unique id for the others, with J on its first line: the others take no other
# job's file for this one's. Rank 0 writes to this terminal; the others to rank<r>.log in that
# directory, shown when they fail or outlast the time limit. Across hosts a launcher (mpirun,
# srun) starts the processes instead, with F on a disk they all see (chapter 11's page).
#
# The job fails fast. As soon as a rank fails, the others are stopped: they would wait for it
# in NCCL forever. A rank that finds no GPU (77) while others run leaves them the grace period
# to find none either. Stopping a rank sends TERM to its process group (the rank and whatever
# it started), then KILL after the grace period: RUN_RANKS_GRACE seconds, default 5. The whole
# job has a time limit, --time-limit S or RUN_RANKS_TIME_LIMIT seconds (default 300; 0: none),
# past which every rank still running is stopped.
#
# Exit code: 0 when every rank exits 0; 77 when every rank exits 77 (no GPU); 124 past the
# time limit; 1 when some ranks found no GPU and others ran; else the code of the first rank
# to fail (128 + the signal for one killed); 2 for a bad command line.
set -u
usage() {
  echo "usage: $0 [--time-limit S] N PROGRAM [ARGS...]   (N >= 1 processes; S seconds, 0: none)" >&2
  exit 2
}
time_limit=${RUN_RANKS_TIME_LIMIT:-300}
grace=${RUN_RANKS_GRACE:-5}
if [ "${1:-}" = "--time-limit" ]; then
  [ $# -ge 2 ] || usage
  time_limit=$2
  shift 2
fi
if [ $# -lt 2 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]] || ! [[ $time_limit =~ ^[0-9]+$ ]] ||
  ! [[ $grace =~ ^[0-9]+$ ]]; then
  usage
fi
ranks=$1
shift
dir=$(mktemp -d)
job="job-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
id_file="$dir/nccl_id.$job"

pids=()     # pids[r]: rank r's process, the leader of a process group of its own
codes=()    # codes[r]: rank r's exit code, once it has ended
running=()  # the ranks still running, as of the last look
failed=""   # the first rank to fail (not one stopped here)
stopping="" # set once this script stops ranks: their codes are no failure of theirs

# Collects the exit codes of the ranks that have ended since the last look; updates running
# and failed.
look() {
  local r code
  running=()
  for ((r = 0; r < ${#pids[@]}; r++)); do
    [ -z "${codes[$r]:-}" ] || continue
    if kill -0 "${pids[$r]}" 2>/dev/null; then
      running+=("$r")
      continue
    fi
    code=0
    wait "${pids[$r]}" || code=$?
    codes[r]=$code
    if [ "$code" -ne 0 ] && [ "$code" -ne 77 ] && [ -z "$failed$stopping" ]; then failed=$r; fi
  done
  return 0
}

# Stops the ranks still running, and whatever any rank started: TERM to each rank's process
# group, then KILL to what is left after the grace period; returns once every rank has ended.
stop_running() {
  local r sig until=$((SECONDS + grace))
  stopping=1
  for sig in TERM KILL; do
    for ((r = 0; r < ${#pids[@]}; r++)); do
      kill -"$sig" -- "-${pids[$r]}" 2>/dev/null || kill -"$sig" "${pids[$r]}" 2>/dev/null
    done
    while look && [ ${#running[@]} -gt 0 ] && { [ $sig = KILL ] || [ $SECONDS -lt $until ]; }; do
      sleep 0.1
    done
  done
}

# Prints rank $1's output, indented (not rank 0's: it went to this terminal).
show_log() { sed 's/^/  /' "$dir/rank$1.log" >&2; }

trap 'look; stop_running; rm -rf "$dir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

set -m  # each rank in a process group of its own, so that stopping it stops what it started
for ((r = 0; r < ranks; r++)); do
  command=(env -u OMPI_COMM_WORLD_LOCAL_RANK -u SLURM_LOCALID LOCAL_RANK="$r" "$@"
           --rank "$r" --ranks "$ranks" --id-file "$id_file" --job "$job")
  if [ "$r" -eq 0 ]; then
    "${command[@]}" </dev/null &
  else
    "${command[@]}" </dev/null >"$dir/rank$r.log" 2>&1 &
  fi
  pids+=($!)
done
set +m

no_gpu_since=""  # when a rank first exited 77 while others ran
while look && [ ${#running[@]} -gt 0 ]; do
  if [ -n "$failed" ]; then
    echo "run_ranks: rank $failed failed; stopping ranks ${running[*]}, which would wait for it" >&2
    stop_running
    break
  fi
  if [[ " ${codes[*]} " == *" 77 "* ]] && [ -z "$no_gpu_since" ]; then no_gpu_since=$SECONDS; fi
  if [ -n "$no_gpu_since" ] && [ $((SECONDS - no_gpu_since)) -ge "$grace" ]; then
    echo "run_ranks: a rank found no GPU (exit 77); stopping ranks ${running[*]}" >&2
    stop_running
    break
  fi
  if [ "$time_limit" -gt 0 ] && [ "$SECONDS" -ge "$time_limit" ]; then
    echo "run_ranks: time limit of $time_limit s reached (--time-limit, RUN_RANKS_TIME_LIMIT);" \
      "stopping ranks ${running[*]}, still running" >&2
    stopped=("${running[@]}")
    stop_running
    for r in "${stopped[@]}"; do
      [ "$r" -gt 0 ] && echo "rank $r's output:" >&2 && show_log "$r"
    done
    exit 124
  fi
  sleep 0.1
done

if [ -n "$failed" ]; then
  code=${codes[$failed]}
  how="exited $code"
  if [ "$code" -gt 128 ]; then how="was killed by SIG$(kill -l $((code - 128)))"; fi
  if [ "$failed" -eq 0 ]; then
    echo "rank 0 $how (its output is above)" >&2
  else
    echo "rank $failed $how:" >&2
    show_log "$failed"
  fi
  exit "$code"
fi
if [[ " ${codes[*]} " != *" 77 "* ]]; then exit 0; fi
if [[ " ${codes[*]} " =~ ^( 77)+\ $ ]]; then exit 77; fi
echo "run_ranks: some ranks found no GPU (exit 77) and others ran" >&2
exit 1
