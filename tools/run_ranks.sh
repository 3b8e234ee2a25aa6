#!/usr/bin/env bash
# Runs a program as N processes, one per GPU, the way a job of many hosts runs (chapter 11):
#
#   tools/run_ranks.sh N PROGRAM [ARGS...]
#   tools/run_ranks.sh 2 build/bin/ch11_multi_gpu --n 2^26
#
# Process r gets "--rank r --ranks N --id-file F" after ARGS; F is a new file name in a new
# directory, where rank 0 leaves NCCL's unique id for the others. Rank 0 writes to this
# terminal; the others to rank<r>.log in that directory, shown only when they fail. Across hosts
# a launcher (mpirun, srun) starts the processes instead, with F on a disk they all see.
#
# Exit code: 0 when every rank exits 0; 77 when every rank exits 77 (no GPU); else the first
# other code, in rank order.
set -u
if [ $# -lt 2 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 N PROGRAM [ARGS...]   (N >= 1 processes)" >&2
  exit 2
fi
ranks=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
id_file="$dir/nccl_id"

pids=()
for ((r = 0; r < ranks; r++)); do
  if [ "$r" -eq 0 ]; then
    "$@" --rank "$r" --ranks "$ranks" --id-file "$id_file" &
  else
    "$@" --rank "$r" --ranks "$ranks" --id-file "$id_file" >"$dir/rank$r.log" 2>&1 &
  fi
  pids+=($!)
done

codes=()
for ((r = 0; r < ranks; r++)); do
  code=0
  wait "${pids[$r]}" || code=$?
  codes+=("$code")
done

all_skipped=1
result=0
for ((r = 0; r < ranks; r++)); do
  code=${codes[$r]}
  [ "$code" -eq 77 ] || all_skipped=0
  if [ "$code" -ne 0 ] && [ "$code" -ne 77 ] && [ "$result" -eq 0 ]; then result=$code; fi
  if [ "$code" -ne 0 ] && [ "$r" -gt 0 ]; then
    echo "rank $r exited $code:" >&2
    sed 's/^/  /' "$dir/rank$r.log" >&2
  fi
done
if [ "$all_skipped" -eq 1 ]; then exit 77; fi
if [ "$result" -eq 0 ] && [[ " ${codes[*]} " == *" 77 "* ]]; then
  echo "run_ranks: some ranks found no GPU (exit 77) and others ran" >&2
  exit 1
fi
exit "$result"
