# The two functions every chapter and exercise is added with. A chapter's or an exercise's own
# CMakeLists.txt is a single call to one of them.

set(TUTORIAL_BIN_DIR ${PROJECT_BINARY_DIR}/bin)
add_custom_target(chapters)
add_custom_target(exercise_checkers)

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

# tutorial_add_chapter(<NN_name> SOURCES <files> [LIBS <targets>] [CPU_ONLY] [EXPLAIN]
#                      [TEST_ARGS <args>...])
# Adds the executable chNN_name, links the common library, and registers CTest tests:
#   chapter.NN.run    runs it at a small awkward size (exit 77 = skipped on a machine with no GPU)
#   chapter.NN.usage  a bad size must be a usage error (exit 2 and the usage), GPU or not
#   chapter.NN.explain  (EXPLAIN: the chapter has --explain) its recorded kernels compute the
#                     right results (exit 0; 77 = skipped without a GPU)
function(tutorial_add_chapter name)
  cmake_parse_arguments(ARG "CPU_ONLY;EXPLAIN" "" "SOURCES;LIBS;TEST_ARGS" ${ARGN})
  string(SUBSTRING "${name}" 0 2 number)
  set(target ch${name})
  add_executable(${target} ${ARG_SOURCES})
  if(ARG_CPU_ONLY)
    target_link_libraries(${target} PRIVATE tutorial::host ${ARG_LIBS})
  else()
    target_link_libraries(${target} PRIVATE tutorial::cuda ${ARG_LIBS})
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
endfunction()

# tutorial_add_exercise(<NN_name> LEARNER_FILES <files> CHECKER <file> [LIBS <targets>]
#                       [CPU_ONLY])
# The learner edits LEARNER_FILES in exercises/NN_name; solutions/NN_name holds the completed
# version of exactly those files. The checker is built twice:
#   exNN_check   against the learner's files (what `grade` runs)
#   solNN_check  against the solutions (must pass: CTest test solution.NN)
# plus the test exercise.NN.todo (the untouched exercise must fail and say TODO) and
# exercise.NN.files (solutions/ holds exactly the learner's files, completed).
function(tutorial_add_exercise name)
  cmake_parse_arguments(ARG "CPU_ONLY" "CHECKER" "LEARNER_FILES;LIBS" ${ARGN})
  string(SUBSTRING "${name}" 0 2 number)
  set(exercise_dir ${PROJECT_SOURCE_DIR}/exercises/${name})
  set(solution_dir ${PROJECT_SOURCE_DIR}/solutions/${name})
  if(ARG_CPU_ONLY)
    set(common_lib tutorial::host)
  else()
    set(common_lib tutorial::cuda)
  endif()

  foreach(flavour IN ITEMS ex sol)
    if(flavour STREQUAL "ex")
      set(learner_dir ${exercise_dir})
    else()
      set(learner_dir ${solution_dir})
    endif()
    set(target ${flavour}${number}_check)
    list(TRANSFORM ARG_LEARNER_FILES PREPEND ${learner_dir}/ OUTPUT_VARIABLE learner_sources)
    add_executable(${target} ${exercise_dir}/${ARG_CHECKER} ${learner_sources})
    # The exercise directory holds the header the checker and the learner's files share.
    target_include_directories(${target} PRIVATE ${exercise_dir})
    target_link_libraries(${target} PRIVATE ${common_lib} ${ARG_LIBS})
    set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${TUTORIAL_BIN_DIR})
    add_dependencies(exercise_checkers ${target})
    tutorial_add_to_suite(${number} ${target})
  endforeach()
  set_property(GLOBAL APPEND PROPERTY TUTORIAL_EXERCISE_CHECKERS ex${number}_check)
  set_property(GLOBAL APPEND PROPERTY TUTORIAL_SOLUTION_CHECKERS sol${number}_check)

  add_test(NAME solution.${number} COMMAND sol${number}_check)
  set_tests_properties(solution.${number} PROPERTIES SKIP_RETURN_CODE 77 LABELS "gpu")
  # The repository's own state: the exercises as shipped (every one TODO) and solutions/ as
  # their completed copies. A learner's work changes that state on purpose, so these two tests
  # exist only where TUTORIAL_CHECK_EXERCISE_STATE is on (CI), never in a learner's ctest.
  if(TUTORIAL_CHECK_EXERCISE_STATE)
    add_test(NAME exercise.${number}.todo COMMAND ex${number}_check)
    set_tests_properties(exercise.${number}.todo PROPERTIES
      PASS_REGULAR_EXPRESSION "TODO" SKIP_RETURN_CODE 77 LABELS "gpu")
    add_test(NAME exercise.${number}.files
      COMMAND ${CMAKE_COMMAND} -DEXERCISE_DIR=${exercise_dir} -DSOLUTION_DIR=${solution_dir}
              "-DLEARNER_FILES=${ARG_LEARNER_FILES}"
              -P ${PROJECT_SOURCE_DIR}/tools/check_solution_files.cmake)
    set_tests_properties(exercise.${number}.files PROPERTIES LABELS "cpu")
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
