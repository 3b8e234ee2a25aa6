#!/usr/bin/env bash
# The GPU suite: everything CI cannot check without a GPU, in one command.
#   1. runs the README's test command (build for the GPU in this machine, CTest) and its run
#      command (every chapter at its default size, the side-by-side table);
#   2. runs every chapter at many sizes: n = 1, primes, sizes around the block and tile, and
#      at least 2^28 elements (each chapter's suite_args.txt, or the default list in
#      cmake/Tutorial.cmake);
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
#   8. builds everything again for compute capability 7.5 and for 8.0 (75-virtual, 80-virtual:
#      PTX alone, which the driver compiles for this GPU; TUTORIAL_SUITE_ARCHS="75" picks
#      others) and runs every chapter, solution and shipped exercise there: each verifies, or
#      skips what that build cannot run with a reason;
#   then prints the summary last.
# Steps 2-4 are CTest tests of a build with TUTORIAL_GPU_SUITE on (cmake/Tutorial.cmake and
# tools/CMakeLists.txt register them, labelled suite, grade and sanitize); each step is one
# ctest -L call, and tools/suite_results.py writes its summary lines from CTest's results.
# Without --only the suite uses build/, the README's build, with TUTORIAL_GPU_SUITE turned on
# after the README's commands (that compiles nothing again) and off again at the end.
# With --only, step 1 builds just those chapters in build-suite/ (preset gpu-suite, which turns
# it on) and runs their tests, and steps 2-4 run those chapters' labels (suite_NN, grade_NN,
# sanitize_NN).
# With --steps, only the named steps run after the build (the whole suite does not fit in one
# 10-minute call of the device tool: on an H100, 2026-11-26, the README's build and commands
# took about 200 s, sizes 510 s, checkers 510 s, sanitizers 80 s, profile and explain 240 s,
# archs 300 s; calls in a row on a warm machine keep build/ and compile nothing again. On a
# fresh machine, sizes for every chapter and its build do not fit one call: split it with
# --only, e.g. "01 02 03 04 05" (150 s with its build), "06 07 08", "09 10 11" (240 s)):
#   readme (the README's commands; without it, a plain build), sizes, checkers, sanitizers,
#   flush, compare28, profile, explain, archs.
# Logs go to build-suite/out; where $OUT is set (the device tool), they are also packed into
# $OUT/suite_logs.tar.gz with the comparison's JSON and chart. Exit 0 only when all passed.
#
#   tools/gpu_suite.sh [--only "02 03"] [--steps "readme sizes"]
set -u
# NVLink SHARP (multicast) stays off: on a shared machine a program using it can take the host's
# GPUs out of service for others (chapter 11's NCCL runs).
export NCCL_NVLS_ENABLE=0
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
out=$root/build-suite/out
only=""
steps="readme sizes checkers sanitizers flush compare28 profile explain archs"
while [ $# -gt 0 ]; do
  case $1 in
    --only) only=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    *) echo "usage: tools/gpu_suite.sh [--only \"02 03\"] [--steps \"$steps\"]" >&2; exit 2 ;;
  esac
done
read -ra chapters <<<"$only"
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

record() {
  printf '%s\n' "$*" >>"$out/summary.txt"
  copy_summary
}
copy_summary() {  # comes back even if the run is cut short
  [ -n "${OUT:-}" ] && cp "$out/summary.txt" "$OUT/summary.txt"
}
step() { echo "[$(date +%T)] == $* =="; }
chosen() {  # is chapter $1 (NN) among --only?
  [ -z "$only" ] || [[ " $only " == *" $1 "* ]]
}
label() {  # the ctest -L expression of label $1, or of $1_NN for each chapter of --only
  if [ -z "$only" ]; then echo "^$1\$"; else echo "^$1_($(IFS='|'; echo "${chapters[*]}"))\$"; fi
}
count_tests() {  # how many tests of $build ARGS (-L ...) select
  ctest --test-dir "$build" -N "$@" | sed -n 's/^Total Tests: //p'
}
# ctest_step STEP KIND ARGS...: runs the tests that ARGS select (-L ...) in $build with CTest.
# Their list (with commands) goes to STEP_tests.json, their results with every test's output to
# STEP.xml (JUnit), CTest's own lines to STEP_ctest.log; then tools/suite_results.py KIND
# writes the summary lines and the logs (with --title $title where title is set).
ctest_step() {
  local name=$1 kind=$2
  shift 2
  ctest --test-dir "$build" -N --show-only=json-v1 "$@" >"$out/${name}_tests.json" \
    2>"$out/${name}_ctest.log"
  ctest --test-dir "$build" --output-on-failure --output-junit "$out/$name.xml" \
    --test-output-size-passed 1048576 --test-output-size-failed 1048576 "$@" \
    >>"$out/${name}_ctest.log" 2>&1
  python3 tools/suite_results.py "$kind" --tests "$out/${name}_tests.json" \
    --junit "$out/$name.xml" --logs "$out" --summary "$out/summary.txt" \
    ${title:+--title "$title"} || failed=1
  copy_summary
}

step build
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv | tee "$out/gpu.txt"
failed=0
if [ "$steps" = archs ]; then
  build=$root/build  # the archs step alone makes its own builds only
elif [ -z "$only" ]; then
  build=$root/build
  if want readme; then
    # A build/ that a suite run cut short left with the suite's tests gets a learner's setting
    # back first. Then the README's two commands, verbatim, as a learner with this GPU would
    # type them.
    if [ -e "$build/CMakeCache.txt" ]; then
      cmake --preset default -DTUTORIAL_GPU_SUITE=OFF >"$out/configure.log" 2>&1
    fi
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
  fi
  # The suite's tests in the same build (after the README's commands this compiles nothing
  # again), and out again at the end, so that build/ stays what the README's commands make.
  trap 'cmake --preset default -DTUTORIAL_GPU_SUITE=OFF >/dev/null 2>&1; pack' EXIT
  if ! { cmake --preset default -DTUTORIAL_GPU_SUITE=ON && cmake --build --preset default; } \
      >"$out/build.log" 2>&1; then
    tail -40 "$out/build.log"; echo "BUILD FAILED"; exit 1
  fi
else
  build=$root/build-suite
  targets=()
  for number in "${chapters[@]}"; do targets+=(--target "suite_$number"); done
  if ! { cmake --preset gpu-suite >"$out/configure.log" 2>&1 &&
         cmake --build --preset gpu-suite -j "$(nproc)" "${targets[@]}" >"$out/build.log" 2>&1; }; then
    tail -40 "$out/configure.log" "$out/build.log"
    echo "BUILD FAILED"; exit 1
  fi
  # The chapters' own tests (chapter.NN.*, solution.N.M ...), not the suite's: steps 2-4 run those.
  filter="\\.($(IFS='|'; echo "${chapters[*]}"))(\\.|$)"
  if ctest --test-dir "$build" -j 8 --output-on-failure -R "$filter" -LE 'suite|sanitize|grade' \
      >"$out/ctest.log" 2>&1; then
    record "$(printf '%-26s %s' ctest "$(grep -E 'tests passed' "$out/ctest.log")")"
  else
    failed=1; tail -30 "$out/ctest.log"
    record "$(printf '%-26s FAILED: %s' ctest "$(grep -E 'tests passed|tests failed' "$out/ctest.log")")"
  fi
  python3 tools/compare.py --bin "$build/bin" --out "$out" --only "${chapters[@]}" \
    >"$out/compare.log" 2>&1 || failed=1
fi
bin=$build/bin

if want sizes; then
  step "chapters at many sizes"
  # One run at a time, as a learner runs them: each times itself, and the largest fill much of
  # the GPU's memory.
  ctest_step sizes sizes -L "$(label suite)" -j 1
fi

if want checkers; then
  step "exercises: the grader's boards"
  # Three boards of tools/grade.cmake (each exercise built, run with a timeout, and under
  # compute-sanitizer at a small size): the solutions must all PASS, the shipped exercises must
  # all say TODO, and no known-wrong answer of tests/wrong_answers may PASS. Every checker they
  # grade is built in parallel first (grade_checkers, grade_NN_checkers).
  targets=(--target grade_checkers)
  if [ -n "$only" ]; then
    targets=()
    for number in "${chapters[@]}"; do targets+=(--target "grade_${number}_checkers"); done
  fi
  cmake --build "$build" -j "$(nproc)" "${targets[@]}" >"$out/checkers_build.log" 2>&1
  # One board at a time: the grader builds in the tree.
  ctest_step boards boards -L "$(label grade)" -j 1
fi

if want sanitizers; then
  step compute-sanitizer
  # The runs are independent and mostly CPU-bound: half as many at a time as there are cores
  # (exercise 11's checkers alone: exercises/11_multi_gpu/CMakeLists.txt says why).
  jobs=$(( $(nproc) / 2 > 1 ? $(nproc) / 2 : 1 ))
  # Sanitizer runs in the build, but none for the chosen chapters: they have no GPU program
  # (chapter 01). None in the build at all fails below: CMake did not find compute-sanitizer.
  if [ "$(count_tests -L '^sanitize$')" -gt 0 ] &&
     [ "$(count_tests -L "$(label sanitize)")" -eq 0 ]; then
    record "$(printf '%-26s %s' sanitizers "none: no GPU program in chapters $only")"
  else
    ctest_step sanitizers sanitizers -L "$(label sanitize)" -j "$jobs"
  fi
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
[ -n "$only" ] && only_args=(--only "${chapters[@]}")
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
  if chosen 04; then
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

if want archs; then
  step "every chapter and solution built for compute capability 7.5 and 8.0"
  # The README promises GPUs from compute capability 7.5. A build for 75-virtual or 80-virtual
  # holds PTX alone, which the driver compiles for this GPU when a program starts, so its
  # device code is what such a GPU would run (compiled with __CUDA_ARCH__ 750 or 800). Each
  # chapter (chapter.NN.run and .explain), each solution (solution.N.M, graded by its
  # checker) and each exercise as shipped (exercise.N.M.todo, its checker's TODO) must pass,
  # or skip what that build cannot run: a step with a note in the report, a checker with exit
  # 77 and its reason; never a wrong result. One run at a time: the solutions of the timed
  # exercises time themselves.
  saved_build=$build
  for arch in ${TUTORIAL_SUITE_ARCHS:-75 80}; do
    build=$root/build-arch$arch
    title=$arch-virtual
    if { cmake --preset default -B "$build" -DCMAKE_CUDA_ARCHITECTURES="$title" \
           -DTUTORIAL_CHECK_EXERCISE_STATE=ON && cmake --build "$build" -j "$(nproc)"; } \
        >"$out/arch${arch}_build.log" 2>&1; then
      ctest_step "arch$arch" archs -R '^(chapter|solution|exercise)\.' -L '^gpu$' -j 1
    else
      failed=1; tail -20 "$out/arch${arch}_build.log"
      record "$(printf '%-26s FAILED to build (arch%s_build.log)' "build $title" "$arch")"
    fi
  done
  unset title
  build=$saved_build
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
for table in "$out"/archs_*.md; do  # the programs that skipped something or failed
  [ -e "$table" ] && { echo "-- $(basename "$table" .md) --"; grep -v '| verified |  |$' "$table"; }
done
if [ $failed -eq 0 ]; then echo "GPU SUITE: PASS"; else echo "GPU SUITE: FAIL (see $out)"; fi
exit $failed
