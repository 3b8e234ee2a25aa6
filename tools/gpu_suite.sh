#!/usr/bin/env bash
# The GPU suite: everything CI cannot check without a GPU, in one command.
#   1. runs the README's test command (build for the GPU in this machine, CTest) and its run
#      command (every chapter at its default size, the side-by-side table);
#   2. runs every chapter at many sizes: n = 1, primes, sizes around the block and tile, and
#      at least 2^28 elements (each chapter's suite_args.txt, or the default list below);
#   3. grades the solutions (all PASS), the shipped exercises (all TODO) and the known-wrong
#      answers (none PASS) with the grader (tools/grade.cmake);
#   4. runs compute-sanitizer memcheck, racecheck, synccheck and initcheck on every GPU
#      program at a small size (the first line of its suite_args.txt), with --explain and
#      --tune too where the program has them;
#   5. times the read kernel after each kind of L2 flush (tools/flush_study.cu), runs the
#      side-by-side comparison again at n = 2^28;
#   6. profiles every chapter with Nsight Compute (tools/profile.py), runs chapter 04's unsafe
#      warp demonstration, and redraws the side-by-side chart and roofline with the profile;
#   7. checks --explain (chapters 03, 04, 06, 07) against Nsight Compute's shared-memory
#      counters (tools/explain_check.py) and draws its pictures (tools/draw_banks.py);
#   then prints the summary last.
# With --only, step 1 builds just those chapters (preset gpu-suite) and runs their tests.
# With --steps, only the named steps run after the build (the whole suite does not fit in one
# 10-minute call of the device tool on a cold machine; two calls with halves of it do):
#   readme (the README's commands; without it, a plain build), sizes, checkers, sanitizers,
#   flush, compare28, profile, explain.
# Logs go to build-suite/out; where $OUT is set (the device tool), they are also packed into
# $OUT/suite_logs.tar.gz with the comparison's JSON and chart. Exit 0 only when all passed.
#
#   tools/gpu_suite.sh [--only "02 03"] [--steps "readme sizes"]
set -u
# NVLink SHARP (multicast) stays off: on a shared machine a program using it can take the host's
# GPUs out of service for others (chapter 11's NCCL runs).
export NCCL_NVLS_ENABLE=0
cd "$(dirname "$0")/.."
root=$(pwd)
source tools/suite_lib.sh
out=$root/build-suite/out
only=""
steps="readme sizes checkers sanitizers flush compare28 profile explain"
while [ $# -gt 0 ]; do
  case $1 in
    --only) only=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    *) echo "usage: tools/gpu_suite.sh [--only \"02 03\"] [--steps \"$steps\"]" >&2; exit 2 ;;
  esac
done
want() { [[ " $steps " == *" $1 "* ]]; }
rm -rf "$out"; mkdir -p "$out"
: >"$out/summary.txt"
# Pack the logs for the device tool even if the run is cut short.
pack() {
  [ -n "${OUT:-}" ] || return 0
  cp "$out"/comparison.json "$out"/comparison.png "$out"/roofline.png "$out"/flush_study.md \
    "$out"/profile/profile.json "$OUT"/ 2>/dev/null
  tar czf "$OUT/suite_logs.tar.gz" -C "$out" .
}
trap pack EXIT
trap 'exit 124' TERM INT

default_args=(
  "--n 1000" "--n 1" "--n 2" "--n 3" "--n 31" "--n 32" "--n 33" "--n 255" "--n 256"
  "--n 257" "--n 1023" "--n 1024" "--n 1025" "--n 4097" "--n 65537" "--n 1000003"
  "--n 16777216" "--n 16777217" "--n 268435456 --reps 5" "--n 268435459 --reps 5"
  "--n 2147483659 --reps 2"  # past 2^31: 32-bit indices would wrap
)

record() {
  printf '%s\n' "$*" >>"$out/summary.txt"
  [ -n "${OUT:-}" ] && cp "$out/summary.txt" "$OUT/summary.txt"  # comes back even if cut short
}
step() { echo "[$(date +%T)] == $* =="; }
program_number() {  # the chapter of program $1 (chNN_x, solN.M_check, exN.M_check), no zeros
  sed -E 's/^(ch|sol|ex)0*([0-9]+).*/\2/' <<<"$1"
}
selected() {  # is program $1 among --only?
  [ -z "$only" ] && return 0
  local number
  number=$(program_number "$1")
  [[ " $only " == *" $(printf '%02d' "$number") "* ]]
}
cpu_only() {  # is program $1 built CPU_ONLY (chapter 01, exercises such as 10.1)?
  local number id
  number=$(program_number "$1")
  if [[ $1 == ch* ]]; then
    grep -qw CPU_ONLY "$root"/chapters/"$(printf '%02d' "$number")"_*/CMakeLists.txt
  else
    id=$(sed -E 's/^(sol|ex)([0-9.]+)_check$/\2/' <<<"$1")
    grep -qE "tutorial_add_exercise\(${id//./\\.} .*CPU_ONLY" "$root"/exercises/*/CMakeLists.txt
  fi
}
args_file() { ls "$root"/chapters/"${1#ch}"/suite_args.txt 2>/dev/null; }
read_args() {  # the argument lines of chapter $1
  local file
  file=$(args_file "$1")
  if [ -n "$file" ]; then grep -v '^\s*#' "$file" | grep -v '^\s*$'; else printf '%s\n' "${default_args[@]}"; fi
}

step build
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv | tee "$out/gpu.txt"
failed=0
if [ -z "$only" ] && ! want readme; then
  build=$root/build
  if ! (cmake --preset default && cmake --build --preset default) >"$out/build.log" 2>&1; then
    tail -40 "$out/build.log"; echo "BUILD FAILED"; exit 1
  fi
elif [ -z "$only" ]; then
  # The README's two commands, verbatim, as a learner with this GPU would type them.
  build=$root/build
  if (cmake --preset default && cmake --build --preset default && ctest --preset default) \
      >"$out/readme_test.log" 2>&1; then
    record "$(printf '%-26s %s' "README test command" "$(grep -E 'tests passed' "$out/readme_test.log")")"
  else
    failed=1; tail -40 "$out/readme_test.log"
    record "$(printf '%-26s FAILED: %s' "README test command" "$(grep -E 'tests passed|tests failed' "$out/readme_test.log")")"
  fi
  [ -d "$build/bin" ] || { echo "BUILD FAILED"; exit 1; }
  step "README run command"
  if cmake --build --preset default --target run_chapters >"$out/compare.log" 2>&1; then
    record "$(printf '%-26s %s' "README run command" "every chapter verified")"
  else
    failed=1; record "$(printf '%-26s FAILED (see compare.log)' "README run command")"
  fi
  cp "$build"/comparison/comparison.* "$build"/comparison/roofline.png "$out"/ 2>/dev/null
else
  build=$root/build-suite
  targets=()
  for number in $only; do targets+=(--target "suite_$number"); done
  if ! { cmake --preset gpu-suite >"$out/configure.log" 2>&1 &&
         cmake --build --preset gpu-suite -j "$(nproc)" "${targets[@]}" >"$out/build.log" 2>&1; }; then
    tail -40 "$out/configure.log" "$out/build.log"
    echo "BUILD FAILED"; exit 1
  fi
  filter="\\.($(tr ' ' '|' <<<"$only"))(\\.|$)"
  if ctest --test-dir "$build" -j 8 --output-on-failure -R "$filter" >"$out/ctest.log" 2>&1; then
    record "$(printf '%-26s %s' ctest "$(grep -E 'tests passed' "$out/ctest.log")")"
  else
    failed=1; tail -30 "$out/ctest.log"
    record "$(printf '%-26s FAILED: %s' ctest "$(grep -E 'tests passed|tests failed' "$out/ctest.log")")"
  fi
  python3 tools/compare.py --bin "$build/bin" --out "$out" --only $only >"$out/compare.log" 2>&1 || failed=1
fi
bin=$build/bin

want sizes && step "chapters at many sizes"
want sizes && for exe in "$bin"/ch[0-9][0-9]_*; do
  name=$(basename "$exe"); selected "$name" || continue
  total=0; passed=0
  while IFS= read -r args; do
    [[ "$args" == *--reps* ]] || args="$args --reps 2"
    total=$((total + 1))
    echo "[$(date +%T)] $name $args"
    # A run that hangs (a spin-wait that never ends) fails with exit 124 instead of taking the
    # whole call with it.
    # shellcheck disable=SC2086
    if run_recorded "$out/$name.log" "$out/failures.txt" timeout 500 "$exe" $args; then
      passed=$((passed + 1))
    else failed=1; fi
  done < <(read_args "$name")
  echo "$name: $passed/$total"
  printf -v line '%-26s sizes %3d/%-3d' "$name" "$passed" "$total"; record "$line"
done

want checkers && step "exercises: the grader's boards"
# Three boards of tools/grade.cmake (each exercise built, run with a timeout, and under
# compute-sanitizer at a small size): the solutions must all PASS, the shipped exercises must
# all say TODO, and no known-wrong answer of tests/wrong_answers may PASS.
boards=(grade-solutions grade-shipped grade-wrong)
want checkers && targets_help=$(cmake --build "$build" --target help 2>/dev/null)
if want checkers && [ -n "$only" ]; then  # the boards of those chapters alone
  boards=()
  for number in $only; do
    for board in solutions shipped wrong; do
      # (the help's lines: "... grade-wrong-11" from Make, "grade-wrong-11: phony" from Ninja)
      grep -qE "(^|[ .])grade-$board-$number( |:|$)" <<<"$targets_help" &&
        boards+=("grade-$board-$number")
    done
  done
  # Every chapter from 01 has exercises: a board not found is a broken parse, not a pass.
  if [ ${#boards[@]} -eq 0 ]; then
    echo "no grade boards found for chapters $only in the build's target list" >&2
    record "$(printf '%-26s %s' "grade boards" "FAILED (none found for $only)")"; failed=1
  fi
fi
if want checkers; then  # every checker the boards grade, built in parallel first (the grader
  # builds each one again before it runs it, which is then a check that nothing is stale)
  # (the help's lines: "... sol9.1_check" from Make, "sol9.1_check: phony" from Ninja)
  checkers=$(sed -nE 's/^(\.\.\. )?((ex|sol|wrong)[0-9][^ :]*_check)(:.*)?$/\2/p' <<<"$targets_help")
  if [ -n "$only" ]; then
    checkers=$(grep -E "^(ex|sol|wrong)($(tr ' ' '|' <<<"$only" | sed -E 's/(^|\|)0/\1/g'))\." <<<"$checkers")
  fi
  # shellcheck disable=SC2046
  cmake --build "$build" -j "$(nproc)" $(printf -- '--target %s ' $checkers) >"$out/checkers_build.log" 2>&1
fi
want checkers && for board in "${boards[@]}"; do
  log="$out/$board.log"
  if cmake --build "$build" --target "$board" >"$log" 2>&1; then verdict="as required"
  else verdict="FAILED"; failed=1; fi
  tally=$(grep -E '^[0-9]+ graded:' "$log" | tail -n 1)
  echo "$board: $verdict ($tally)"
  sed -n '/==== exercise board/,$p' "$log"
  printf -v line '%-26s %s (%s)' "$board" "$verdict" "$tally"; record "$line"
done

if want sanitizers; then
step compute-sanitizer
# One background job per program and tool (they are independent and mostly CPU-bound), at most
# $jobs at a time; each leaves its exit code in a file. --error-exitcode turns any reported
# hazard or error into exit 99.
jobs=$(( $(nproc) / 2 > 1 ? $(nproc) / 2 : 1 ))
tools=(memcheck racecheck synccheck initcheck)
sanitized=()
# Exercise 11's checkers run several ranks' kernels on several streams of one GPU. Under
# initcheck, in the pool of parallel jobs, sol11.2 (and once sol11.4) ended with an illegal
# address while initcheck reported 0 errors, in 3 of 3 suite runs (H100 and H200, 2026-11-25
# and 26); alone, and next to 6 other sanitizer jobs, they passed in 9 of 9 runs. They run
# after the pool, one at a time, so that a failure there is theirs.
alone='^sol11\.'
ordered=()
for exe in "$bin"/ch[0-9][0-9]_* "$bin"/sol[0-9]*_check; do
  [[ $(basename "$exe") =~ $alone ]] || ordered+=("$exe")
done
for exe in "$bin"/sol[0-9]*_check; do
  [[ $(basename "$exe") =~ $alone ]] && ordered+=("$exe")
done
for exe in "${ordered[@]}"; do
  name=$(basename "$exe"); selected "$name" || continue
  cpu_only "$name" && continue  # nothing for a GPU tool to see
  sanitized+=("$name")
  args=""
  [[ $name == ch* ]] && args="$(read_args "$name" | head -n 1) --reps 1"
  [[ $name == sol* ]] && args="--small"
  # The recorded kernels of --explain too (they are the chapter's kernels with recording on),
  # and the kernels that only --tune launches (chapter 09), at the same small size.
  explain=""
  "$exe" --help 2>/dev/null | grep -q -- --explain && explain=yes
  tune=""
  "$exe" --help 2>/dev/null | grep -q -- --tune && tune=yes
  # NCCL's set-up asks for the attributes of each of its kernels and skips those built for other
  # GPUs ("no kernel image"): errors NCCL expects and handles, which memcheck would report. The
  # program's own calls go through CUDA_CHECK, which ends it on any error, so leaving API errors
  # out hides nothing of ours; memory errors in kernels are still reported.
  api=()
  ldd "$exe" 2>/dev/null | grep -q libnccl && api=(--report-api-errors no)
  limit=$jobs
  if [[ $name =~ $alone ]]; then limit=1; fi  # alone: wait for the pool to drain first
  for tool in "${tools[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$limit" ]; do sleep 0.2; done
    log="$out/sanitizer_${name}_$tool.log"
    # Under initcheck on two H100s (2026-11-25) chapter 11's timing gate was never opened: a
    # launch seems to wait for its kernel there, so a kernel that waits for the host or for
    # another GPU's kernel (the handshakes) waits for work never enqueued. Every program runs
    # under initcheck on one GPU.
    one_gpu=()
    if [ "$tool" = initcheck ]; then
      visible=${CUDA_VISIBLE_DEVICES:-0}
      one_gpu=(env "CUDA_VISIBLE_DEVICES=${visible%%,*}")  # the first GPU this suite may use
    fi
    # shellcheck disable=SC2086
    ( timeout 600 "${one_gpu[@]}" compute-sanitizer --tool "$tool" --error-exitcode 99 "${api[@]}" "$exe" $args >"$log" 2>&1
      rc=$?
      if [ "$rc" -eq 0 ] && [ -n "$explain" ]; then
        timeout 600 "${one_gpu[@]}" compute-sanitizer --tool "$tool" --error-exitcode 99 "${api[@]}" "$exe" --explain >>"$log" 2>&1
        rc=$?
      fi
      if [ "$rc" -eq 0 ] && [ -n "$tune" ]; then
        # shellcheck disable=SC2086
        timeout 600 "${one_gpu[@]}" compute-sanitizer --tool "$tool" --error-exitcode 99 "${api[@]}" "$exe" $args --tune >>"$log" 2>&1
        rc=$?
      fi
      echo $rc >"$log.rc" ) &
  done
done
wait
for name in "${sanitized[@]}"; do
  clean=0; report=""
  for tool in "${tools[@]}"; do
    log="$out/sanitizer_${name}_$tool.log"; rc=$(cat "$log.rc"); rm -f "$log.rc"
    if [ "$rc" -eq 0 ]; then clean=$((clean + 1)); report+=" $tool:ok"; rm -f "$log"
    else failed=1; report+=" $tool:FAIL($rc)"; fi
  done
  echo "$name:$report"
  printf -v line '%-26s sanitizers %d/4 clean:%s' "$name" "$clean" "$report"; record "$line"
done
fi

if want flush && [ -x "$bin/flush_study" ]; then
  step "flush study (docs/measuring.md)"
  if "$bin/flush_study" >"$out/flush_study.md" 2>&1; then
    record "$(printf '%-26s %s' flush_study "table in flush_study.md")"
  else
    failed=1; record "$(printf '%-26s FAILED' flush_study)"
  fi
fi

only_args=()
[ -n "$only" ] && only_args=(--only $only)
if want compare28; then
  step "side by side at 2^28"
  python3 tools/compare.py --bin "$bin" --out "$out/n2p28" --n 2^28 --reps 10 "${only_args[@]}" \
    >"$out/compare_2p28.log" 2>&1 || failed=1
fi

if want profile; then
  step "profile (Nsight Compute) and chapter 04's unsafe-warp demonstration"
  if python3 tools/profile.py --bin "$bin" --out "$out/profile" "${only_args[@]}" \
      >"$out/profile.log" 2>&1; then
    record "$(printf '%-26s %s' profile "$(grep -c '^== ' "$out/profile.log") runs profiled (profile.log)")"
  else
    failed=1; tail -20 "$out/profile.log"
    record "$(printf '%-26s FAILED (see profile.log)' profile)"
  fi
  if selected ch04_divergence_free; then
    TUTORIAL_UNSAFE_WARP_DEMO=1 "$bin"/ch04_divergence_free >"$out/ch04_unsafe_demo.log" 2>&1
    record "$(printf '%-26s %s' ch04_unsafe_demo "exit $? (ch04_unsafe_demo.log)")"
  fi
  # The chart and roofline again, now with the bytes the profile saw moved.
  python3 tools/compare.py --bin "$bin" --out "$out" --profile "$out/profile/profile.json" \
    "${only_args[@]}" >"$out/compare_profiled.log" 2>&1 || failed=1
fi

if want explain; then
  step "--explain against Nsight Compute, and its pictures"
  if python3 tools/explain_check.py --bin "$bin" --out "$out/explain" "${only_args[@]}" \
      >"$out/explain_check.log" 2>&1; then
    record "$(printf '%-26s %s' explain_check "$(grep -c '| yes |' "$out/explain_check.log") kernels agree exactly, $(grep -c 'compiled differently' "$out/explain_check.log") compiled differently (explain_check.md)")"
  else
    failed=1; tail -20 "$out/explain_check.log"
    record "$(printf '%-26s FAILED (see explain_check.log)' explain_check)"
  fi
  for json in "$out"/explain/*_explain.json; do
    [ -e "$json" ] || continue
    python3 tools/draw_banks.py "$json" --out "$out/explain/svg" >>"$out/explain_check.log" 2>&1 || failed=1
  done
  rm -f "$out"/explain/*.ncu-rep
fi

echo
echo "== GPU suite summary: $(head -2 "$out/gpu.txt" | tail -1), $(date -u +%Y-%m-%d) =="
cat "$out/summary.txt"
if [ -s "$out/compare.log" ]; then
  echo "-- default sizes --"; sed -n '/== side by side/,$p' "$out/compare.log"
fi
if [ -s "$out/flush_study.md" ]; then echo "-- flush study --"; cat "$out/flush_study.md"; fi
if [ -s "$out/compare_2p28.log" ]; then
  echo "-- n = 2^28 --"; sed -n '/== side by side/,/^table/p' "$out/compare_2p28.log"
fi
if [ $failed -eq 0 ]; then echo "GPU SUITE: PASS"; else echo "GPU SUITE: FAIL (see $out)"; fi
exit $failed
