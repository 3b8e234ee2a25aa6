# The two functions every chapter and exercise is added with. A chapter's or an exercise's own
# CMakeLists.txt is a single call to one of them.

set(TUTORIAL_BIN_DIR ${PROJECT_BINARY_DIR}/bin)
add_custom_target(chapters)
add_custom_target(exercise_checkers)

# The GPU suite's runs as CTest tests, for tools/gpu_suite.sh (which runs them as `ctest -L`):
#   suite, suite_NN        every chapter at many sizes, one test per line of its suite_args.txt
#   sanitize, sanitize_NN  compute-sanitizer's four tools on every GPU program at a small size
#   grade, grade_NN        the grader's boards (tools/CMakeLists.txt)
# They need a GPU and some take minutes, so only a build with TUTORIAL_GPU_SUITE on has them (the
# gpu-suite preset; the suite configures its builds so): CI's and a learner's ctest never run
# them.
option(TUTORIAL_GPU_SUITE "Register the GPU suite's runs as CTest tests (tools/gpu_suite.sh)" OFF)
if(TUTORIAL_GPU_SUITE)
  find_program(TUTORIAL_COMPUTE_SANITIZER compute-sanitizer
               HINTS ${CUDAToolkit_BIN_DIR} ${CUDAToolkit_BIN_DIR}/../compute-sanitizer)
  if(NOT TUTORIAL_COMPUTE_SANITIZER)
    message(WARNING "compute-sanitizer not found: the GPU suite's sanitize tests are not "
                    "registered")
  endif()
endif()

# profile_chapters runs Nsight Compute on every chapter with a profile.txt (tools/profile.py,
# docs/profiling.md); profile_NN on chapter NN alone. Tables and JSON go to build/profile.
if(Python3_Interpreter_FOUND)
  set(TUTORIAL_PROFILE_COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/profile.py
      --bin ${TUTORIAL_BIN_DIR} --out ${PROJECT_BINARY_DIR}/profile)
  add_custom_target(profile_chapters
    COMMAND ${TUTORIAL_PROFILE_COMMAND}
    USES_TERMINAL
    VERBATIM
    COMMENT "Profiling every chapter with Nsight Compute")
endif()

# profile_NN: chapter NN under Nsight Compute, when it has a profile.txt.
function(tutorial_add_profile number target)
  if(NOT TARGET profile_chapters OR NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/profile.txt)
    return()
  endif()
  add_custom_target(profile_${number}
    COMMAND ${TUTORIAL_PROFILE_COMMAND} --only ${number}
    DEPENDS ${target}
    USES_TERMINAL
    VERBATIM
    COMMENT "Profiling chapter ${number} with Nsight Compute")
  add_dependencies(profile_chapters ${target})
endfunction()

# suite_NN builds chapter NN with its exercise and solution (tools/gpu_suite.sh --only NN).
function(tutorial_add_to_suite number target)
  if(NOT TARGET suite_${number})
    add_custom_target(suite_${number})
  endif()
  add_dependencies(suite_${number} ${target})
endfunction()

# The sizes of a chapter without a suite_args.txt: n = 1, primes, sizes around the warp, the
# block and the tile, and at least 2^28 elements.
set(TUTORIAL_SUITE_DEFAULT_ARGS
  "--n 1000" "--n 1" "--n 2" "--n 3" "--n 31" "--n 32" "--n 33" "--n 255" "--n 256"
  "--n 257" "--n 1023" "--n 1024" "--n 1025" "--n 4097" "--n 65537" "--n 1000003"
  "--n 16777216" "--n 16777217" "--n 268435456 --reps 5" "--n 268435459 --reps 5"
  "--n 2147483659 --reps 2")  # past 2^31: 32-bit indices would wrap

# tutorial_add_suite_sizes(<number> <target>): the GPU suite's runs of chapter program <target>
# (label suite, suite_<number>), one test suite.<target>.<line> per line of the chapter's
# suite_args.txt (comments and blank lines left out), or of TUTORIAL_SUITE_DEFAULT_ARGS; a line
# without --reps gets --reps 2. The first line is the small size the sanitizers use, returned in
# TUTORIAL_SUITE_FIRST_ARGS.
function(tutorial_add_suite_sizes number target)
  set(file ${CMAKE_CURRENT_SOURCE_DIR}/suite_args.txt)
  if(EXISTS ${file})
    file(STRINGS ${file} lines)
    list(FILTER lines EXCLUDE REGEX "^[ \t]*(#|$)")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
  else()
    set(lines ${TUTORIAL_SUITE_DEFAULT_ARGS})
  endif()
  set(count 0)
  foreach(line IN LISTS lines)
    math(EXPR count "${count} + 1")
    set(index ${count})
    if(count LESS 10)
      set(index 0${count})
    endif()
    separate_arguments(args UNIX_COMMAND "${line}")
    if(index STREQUAL "01")
      set(TUTORIAL_SUITE_FIRST_ARGS ${args} PARENT_SCOPE)
    endif()
    if(NOT "--reps" IN_LIST args)
      list(APPEND args --reps 2)
    endif()
    add_test(NAME suite.${target}.${index} COMMAND ${target} ${args})
    # A run that hangs (a spin-wait that never ends) fails at the time limit instead of taking
    # the whole device call with it.
    set_tests_properties(suite.${target}.${index} PROPERTIES
      LABELS "suite;suite_${number}" TIMEOUT 500)
  endforeach()
endfunction()

# Under initcheck on two H100s (2026-11-25) chapter 11's timing gate was never opened: a launch
# seems to wait for its kernel there, so a kernel that waits for the host or for another GPU's
# kernel (the handshakes) waits for work never enqueued. Every program runs under initcheck on
# one GPU: the first one the suite may use (CUDA_VISIBLE_DEVICES when the test runs, else 0).
set(TUTORIAL_FIRST_GPU_ONLY
    sh -c [[v=${CUDA_VISIBLE_DEVICES:-0} && export CUDA_VISIBLE_DEVICES=${v%%,*} && exec "$@"]]
    first_gpu_only)

# tutorial_add_sanitizer_runs(<number> <target> ARGS <args>... [EXPLAIN] [TUNE] [ALONE])
# The GPU suite's compute-sanitizer runs of GPU program <target> (label sanitize,
# sanitize_<number>): memcheck, racecheck, synccheck and initcheck, each a test
# sanitize.<target>.<tool> that runs it with <args> (a small size). --error-exitcode turns any
# reported hazard or error into exit 99. EXPLAIN: also sanitize.<target>.<tool>-explain, the
# recorded kernels of --explain (the chapter's kernels with recording on); TUNE: also
# sanitize.<target>.<tool>-tune, the kernels that only --tune launches, at the same size.
# ALONE: no other test runs beside these (RUN_SERIAL).
function(tutorial_add_sanitizer_runs number target)
  cmake_parse_arguments(ARG "EXPLAIN;TUNE;ALONE" "" "ARGS" ${ARGN})
  if(NOT TUTORIAL_COMPUTE_SANITIZER)
    return()
  endif()
  # NCCL's set-up asks for the attributes of each of its kernels and skips those built for
  # other GPUs ("no kernel image"): errors NCCL expects and handles, which memcheck would
  # report. The program's own calls go through CUDA_CHECK, which ends it on any error, so
  # leaving API errors out hides nothing of ours; memory errors in kernels are still reported.
  get_target_property(libs ${target} LINK_LIBRARIES)
  set(api "")
  if("NCCL::nccl" IN_LIST libs)
    set(api --report-api-errors no)
  endif()
  set(program $<TARGET_FILE:${target}>)
  foreach(tool IN ITEMS memcheck racecheck synccheck initcheck)
    set(sanitizer ${TUTORIAL_COMPUTE_SANITIZER} --tool ${tool} --error-exitcode 99 ${api})
    if(tool STREQUAL "initcheck")
      list(PREPEND sanitizer ${TUTORIAL_FIRST_GPU_ONLY})
    endif()
    set(name sanitize.${target}.${tool})
    add_test(NAME ${name} COMMAND ${sanitizer} ${program} ${ARG_ARGS})
    set(tests ${name})
    if(ARG_EXPLAIN)
      add_test(NAME ${name}-explain COMMAND ${sanitizer} ${program} --explain)
      list(APPEND tests ${name}-explain)
    endif()
    if(ARG_TUNE)
      add_test(NAME ${name}-tune COMMAND ${sanitizer} ${program} ${ARG_ARGS} --tune)
      list(APPEND tests ${name}-tune)
    endif()
    set_tests_properties(${tests} PROPERTIES LABELS "sanitize;sanitize_${number}" TIMEOUT 600)
    if(ARG_ALONE)
      set_tests_properties(${tests} PROPERTIES RUN_SERIAL ON)
    endif()
  endforeach()
endfunction()

# tutorial_add_chapter(<NN_name> SOURCES <files> [LIBS <targets>] [CPU_ONLY] [EXPLAIN] [TUNE]
#                      [TEST_ARGS <args>...])
# Adds the executable chNN_name, links the common library, and registers CTest tests:
#   chapter.NN.run    runs it at a small awkward size (exit 77 = skipped on a machine with no GPU)
#   chapter.NN.usage  a bad size must be a usage error (exit 2 and the usage), GPU or not
#   chapter.NN.explain  (EXPLAIN: the chapter has --explain) its recorded kernels compute the
#                     right results (exit 0; 77 = skipped without a GPU)
# TUNE: the chapter has --tune (the GPU suite runs it under compute-sanitizer too). With
# TUTORIAL_GPU_SUITE, also the GPU suite's runs: its sizes and, unless CPU_ONLY (nothing for a
# GPU tool to see), its sanitizer runs at the first size with --reps 1.
function(tutorial_add_chapter name)
  cmake_parse_arguments(ARG "CPU_ONLY;EXPLAIN;TUNE" "" "SOURCES;LIBS;TEST_ARGS" ${ARGN})
  string(SUBSTRING "${name}" 0 2 number)
  set(target ch${name})
  add_executable(${target} ${ARG_SOURCES})
  if(ARG_CPU_ONLY)
    target_link_libraries(${target} PRIVATE tutorial::host tutorial::chapters ${ARG_LIBS})
  else()
    target_link_libraries(${target} PRIVATE tutorial::cuda tutorial::chapters ${ARG_LIBS})
  endif()
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${TUTORIAL_BIN_DIR})
  add_dependencies(chapters ${target})
  tutorial_add_to_suite(${number} ${target})
  set_property(GLOBAL APPEND PROPERTY TUTORIAL_CHAPTER_TARGETS ${target})
  tutorial_add_profile(${number} ${target})

  if(NOT ARG_TEST_ARGS)
    set(ARG_TEST_ARGS --n 100003)
  endif()
  add_test(NAME chapter.${number}.run COMMAND ${target} ${ARG_TEST_ARGS} --reps 2)
  set_tests_properties(chapter.${number}.run PROPERTIES SKIP_RETURN_CODE 77 LABELS "gpu")
  add_test(NAME chapter.${number}.usage
    COMMAND ${CMAKE_COMMAND} "-DCOMMAND=$<TARGET_FILE:${target}>;--n;0" -DEXPECT_CODE=2
            "-DEXPECT_REGEX=error: .*usage:" -P ${PROJECT_SOURCE_DIR}/tools/expect_exit.cmake)
  set_tests_properties(chapter.${number}.usage PROPERTIES LABELS "cpu")
  if(ARG_EXPLAIN)
    add_test(NAME chapter.${number}.explain COMMAND ${target} --explain)
    set_tests_properties(chapter.${number}.explain PROPERTIES SKIP_RETURN_CODE 77 LABELS "gpu")
  endif()

  if(TUTORIAL_GPU_SUITE)
    tutorial_add_suite_sizes(${number} ${target})
    if(NOT ARG_CPU_ONLY)
      set(options "")
      if(ARG_EXPLAIN)
        list(APPEND options EXPLAIN)
      endif()
      if(ARG_TUNE)
        list(APPEND options TUNE)
      endif()
      tutorial_add_sanitizer_runs(${number} ${target} ${options}
                                  ARGS ${TUTORIAL_SUITE_FIRST_ARGS} --reps 1)
    endif()
  endif()
endfunction()

# tutorial_add_exercise(<id> <file> [CPU_ONLY] [SANITIZE_ALONE] [LIBS <targets>])
# Exercise <id> (e.g. 4.1) of the exercises/NN_name directory that calls it: the learner edits
# <file> there, solutions/NN_name/<file> is its completed version, and check_<file> (.cpp for
# CPU_ONLY, else .cu) grades it. One exercise, one program, so that an exercise that does not
# build or crashes or hangs takes no other exercise with it. Targets:
#   ex<id>_check   the checker built with the learner's file (what the grader builds and runs)
#   sol<id>_check  the same checker with the solution (CTest solution.<id>: must pass)
# The grade targets (tools/CMakeLists.txt) list the exercises registered here; with
# TUTORIAL_CHECK_EXERCISE_STATE (CI) also the tests of the repository's own state:
#   exercise.<id>.todo   the learner's file as shipped says TODO
#   exercise.<id>.files  solutions/NN_name/<file> completes it (exercises/CMakeLists.txt
#                        checks that solutions/ holds nothing else)
# With TUTORIAL_GPU_SUITE, a GPU exercise's solution checker gets the GPU suite's sanitizer
# runs with --small; SANITIZE_ALONE runs them with no other test beside them.
function(tutorial_add_exercise id file)
  cmake_parse_arguments(ARG "CPU_ONLY;SANITIZE_ALONE" "" "LIBS" ${ARGN})
  get_filename_component(name ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  string(SUBSTRING "${name}" 0 2 number)
  get_filename_component(stem ${file} NAME_WE)
  if(ARG_CPU_ONLY)
    set(kind cpu)
    set(checker ${CMAKE_CURRENT_SOURCE_DIR}/check_${stem}.cpp)
  else()
    set(kind gpu)
    set(checker ${CMAKE_CURRENT_SOURCE_DIR}/check_${stem}.cu)
  endif()
  set(solution_dir ${PROJECT_SOURCE_DIR}/solutions/${name})
  tutorial_add_checker(ex${id}_check ${checker} ${CMAKE_CURRENT_SOURCE_DIR}/${file} ${kind}
                       "${ARG_LIBS}")
  tutorial_add_checker(sol${id}_check ${checker} ${solution_dir}/${file} ${kind} "${ARG_LIBS}")
  tutorial_add_to_suite(${number} ex${id}_check)
  tutorial_add_to_suite(${number} sol${id}_check)
  add_dependencies(exercise_checkers ex${id}_check sol${id}_check)
  # What the grade targets and tests/wrong_answers need to know about the exercise.
  set_property(GLOBAL APPEND PROPERTY TUTORIAL_EXERCISES "${id}:ex${id}_check:${kind}:${file}")
  set_property(GLOBAL APPEND PROPERTY TUTORIAL_SOLUTIONS "${id}:sol${id}_check:${kind}:${file}")
  set_property(GLOBAL PROPERTY TUTORIAL_EXERCISE_${id}
               "${checker};${solution_dir}/${file};${kind};${ARG_LIBS}")

  add_test(NAME solution.${id} COMMAND sol${id}_check)
  set_tests_properties(solution.${id} PROPERTIES SKIP_RETURN_CODE 77 LABELS "gpu")
  # The repository's own state: the exercises as shipped (every one TODO) and solutions/ as
  # their completed copies. A learner's work changes that state on purpose, so these tests
  # exist only where TUTORIAL_CHECK_EXERCISE_STATE is on (CI), never in a learner's ctest.
  if(TUTORIAL_CHECK_EXERCISE_STATE)
    add_test(NAME exercise.${id}.todo COMMAND ex${id}_check)
    set_tests_properties(exercise.${id}.todo PROPERTIES
      PASS_REGULAR_EXPRESSION "^TODO  ${id}" SKIP_RETURN_CODE 77 LABELS "gpu")
    add_test(NAME exercise.${id}.files
      COMMAND ${CMAKE_COMMAND} -DEXERCISE_DIR=${CMAKE_CURRENT_SOURCE_DIR}
              -DSOLUTION_DIR=${solution_dir} -DLEARNER_FILE=${file}
              -P ${PROJECT_SOURCE_DIR}/tools/check_solution_files.cmake)
    set_tests_properties(exercise.${id}.files PROPERTIES LABELS "cpu")
  endif()
  if(TUTORIAL_GPU_SUITE AND NOT ARG_CPU_ONLY)
    set(alone "")
    if(ARG_SANITIZE_ALONE)
      set(alone ALONE)
    endif()
    tutorial_add_sanitizer_runs(${number} sol${id}_check ${alone} ARGS --small)
  endif()
endfunction()

# tutorial_add_checker(<target> <checker> <learner_file> <gpu|cpu> <libs> [EXCLUDE_FROM_ALL])
# One checker program: the checker's source, the file it grades, the exercise directory's
# header (exercise.hpp/.cuh) on the include path, and -lineinfo so that compute-sanitizer's
# reports name the learner's lines. The checker's source is compiled once per exercise (an
# object library) and linked into every program that grades a file of that exercise: the
# learner's, the solution, the known-wrong answers. Only a checker that names
# TUTORIAL_LEARNER_FILE (the graded file's path, for checks that read or include it, such as
# exercise 1.1's ban on wide types) is compiled again for each file it grades.
function(tutorial_add_checker target checker learner_file kind libs)
  cmake_parse_arguments(ARG "EXCLUDE_FROM_ALL" "" "" ${ARGN})
  get_filename_component(exercise_dir ${checker} DIRECTORY)
  file(READ ${checker} checker_text)
  string(FIND "${checker_text}" "TUTORIAL_LEARNER_FILE" reads_learner_file)
  if(reads_learner_file EQUAL -1)
    get_filename_component(dir_name ${exercise_dir} NAME)
    get_filename_component(stem ${checker} NAME_WE)
    set(objects checker_objects.${dir_name}.${stem})
    if(NOT TARGET ${objects})
      add_library(${objects} OBJECT ${checker})
      tutorial_checker_settings(${objects} ${exercise_dir} ${kind} "${libs}")
    endif()
    set(sources ${learner_file} $<TARGET_OBJECTS:${objects}>)
  else()
    set(sources ${checker} ${learner_file})
  endif()
  if(ARG_EXCLUDE_FROM_ALL)
    add_executable(${target} EXCLUDE_FROM_ALL ${sources})
  else()
    add_executable(${target} ${sources})
  endif()
  tutorial_checker_settings(${target} ${exercise_dir} ${kind} "${libs}")
  # Where the graded file is, for the checkers that read it, and for the grader's check of its
  # warp masks (tools/grade.cmake reads <target>.graded beside the program).
  target_compile_definitions(${target} PRIVATE TUTORIAL_LEARNER_FILE="${learner_file}")
  file(CONFIGURE OUTPUT ${TUTORIAL_BIN_DIR}/${target}.graded CONTENT "${learner_file}\n")
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${TUTORIAL_BIN_DIR})
endfunction()

# What the checker's objects and the checker program are compiled and linked with.
function(tutorial_checker_settings target exercise_dir kind libs)
  target_include_directories(${target} PRIVATE ${exercise_dir})
  if(kind STREQUAL "cpu")
    target_link_libraries(${target} PRIVATE tutorial::host tutorial::grading ${libs})
  else()
    target_link_libraries(${target} PRIVATE tutorial::cuda tutorial::grading ${libs})
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
  endif()
endfunction()

# tutorial_add_numbered_subdirectories(): adds every NN_name directory below the current one
# that has a CMakeLists.txt, in order (the chapters, the exercises).
function(tutorial_add_numbered_subdirectories)
  file(GLOB dirs LIST_DIRECTORIES true ${CMAKE_CURRENT_SOURCE_DIR}/[0-9][0-9]_*)
  list(SORT dirs)
  foreach(dir IN LISTS dirs)
    if(EXISTS ${dir}/CMakeLists.txt)
      add_subdirectory(${dir})
    endif()
  endforeach()
endfunction()
