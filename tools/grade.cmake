# The grader: builds and runs each exercise's checker on its own and prints the learner's board,
# one row per exercise. Run through the targets of tools/CMakeLists.txt (`grade`, `grade-NN`,
# `grade-N.M`), which pass:
#   EXERCISES   entries "id:target:kind:file" separated by "|" (kind gpu or cpu; file is what the
#               learner edits, named in a BUILD row)
#   BUILD_DIR   the build tree (each checker is built there first: what is graded is what is
#               on disk now, never a stale binary); BIN_DIR where the checkers land
#   SOURCE_DIR  stripped from compiler messages, so that they name files as the pages do
#   SANITIZER   compute-sanitizer, or empty: then no RACE / MEMORY rows, and SYNC rows only from
#               the check of warp masks
#   TIMEOUT     seconds a checker may run (default 60); under a sanitizer ten times that
#   EXPECT      pass (default: exit 0 when every row is PASS, or SKIP: started, and its
#               checker cannot run here), todo (every row TODO: the exercises as shipped,
#               with or without a GPU), or no-pass (no row PASS, and none BUILD: the
#               known-wrong answers of tests/wrong_answers, which must compile so that the
#               checker, not the compiler, is what catches them)
# Rows: PASS, FAIL, TODO, BUILD (did not compile: the first error), TIMEOUT (a hang: past
# TIMEOUT, or a checker's own TIMEOUT row for a hang its kernel stopped itself), RACE /
# SYNC / MEMORY (compute-sanitizer's racecheck / synccheck / memcheck reported an error at a
# small size), SKIP (started, but the checker cannot run here: it exited 77, no CUDA device or
# one too old for the exercise). Where the checker cannot run, the graded file decides between
# TODO and SKIP: a file that still throws tutorial::Todo (a line that starts with the throw, as
# shipped) is not started, and its row says TODO, with the reason the checker gave for not
# running.
# SYNC also comes, with or without a GPU, from the check of
# warp masks (tools/warp_masks.cmake) on the graded file, whose path the checker's build leaves
# in BIN_DIR/<target>.graded (cmake/Tutorial.cmake): a shuffle or vote whose constant mask
# leaves out lanes that execute it is undefined behaviour that a run need not show.
include(${CMAKE_CURRENT_LIST_DIR}/warp_masks.cmake)
string(REPLACE "|" ";" EXERCISES "${EXERCISES}")
if(NOT TIMEOUT)
  set(TIMEOUT 60)
endif()
math(EXPR sanitizer_timeout "${TIMEOUT} * 10")
if(NOT EXPECT)
  set(EXPECT pass)
endif()

set(hang_hint "a hang: does every thread of the block reach each __syncthreads() (none inside \
an if that only some threads enter, such as if (tid < stride))? Does every loop end?")

# Sets ${out_var} to the first line of ${text} matching ${regex}, with SOURCE_DIR removed.
function(first_line_matching text regex out_var)
  string(REGEX MATCH "[^\n]*(${regex})[^\n]*" line "${text}")
  if(SOURCE_DIR)
    string(REPLACE "${SOURCE_DIR}/" "" line "${line}")
  endif()
  string(STRIP "${line}" line)
  set(${out_var} "${line}" PARENT_SCOPE)
endfunction()

# Sets ${out_var} to the path of the file the checker ${target} grades (from the
# BIN_DIR/<target>.graded its build leaves, cmake/Tutorial.cmake), or to "" when there is none.
function(graded_file target out_var)
  set(graded "")
  if(EXISTS ${BIN_DIR}/${target}.graded)
    file(STRINGS ${BIN_DIR}/${target}.graded graded LIMIT_COUNT 1)
    if(NOT EXISTS "${graded}")
      set(graded "")
    endif()
  endif()
  set(${out_var} "${graded}" PARENT_SCOPE)
endfunction()

# Sets ${out_var} to TRUE when ${path} still throws tutorial::Todo as shipped, a line of its own
# that starts with the throw: the learner has not started. A throw commented out (// throw) or
# put behind a condition (if (false) throw) does not count.
function(still_todo path out_var)
  set(throws "")
  if(NOT path STREQUAL "")
    file(STRINGS "${path}" throws REGEX "^[ \t]*throw tutorial::Todo\\(")
  endif()
  if(throws STREQUAL "")
    set(${out_var} FALSE PARENT_SCOPE)
  else()
    set(${out_var} TRUE PARENT_SCOPE)
  endif()
endfunction()

# The sanitizer's verdict on ${exe} at a small size: sets status and detail when it reports.
function(sanitize exe out_status out_detail)
  foreach(tool_status IN ITEMS memcheck:MEMORY racecheck:RACE synccheck:SYNC)
    string(REPLACE ":" ";" tool_status "${tool_status}")
    list(GET tool_status 0 tool)
    list(GET tool_status 1 status)
    execute_process(COMMAND ${SANITIZER} --tool ${tool} --error-exitcode 86 ${exe} --small
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code
                    TIMEOUT ${sanitizer_timeout})
    if(code MATCHES "timeout")
      set(${out_status} TIMEOUT PARENT_SCOPE)
      set(${out_detail} "under ${tool}: ${hang_hint}" PARENT_SCOPE)
      return()
    endif()
    if(code EQUAL 86 OR "${out}${err}" MATCHES "ERROR SUMMARY: [1-9]")
      # The first line of the report after the banner, e.g. "Error: Race reported between
      # Write access at block_sum(long long)+0x1c0 in shuffle_block_sum.cu:20 ...".
      string(REGEX REPLACE "[^\n]*COMPUTE-SANITIZER[^\n]*\n" "" report "${out}${err}")
      first_line_matching("${report}" "========= +[A-Za-z]" line)
      string(REGEX REPLACE "^=+ +" "" line "${line}")
      set(${out_status} ${status} PARENT_SCOPE)
      set(${out_detail} "${tool}: ${line}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

set(board "")
set(counts "")
set(not_run 0)  # checkers that exited 77: no GPU here, or one they cannot use
set(all_expected TRUE)
foreach(entry IN LISTS EXERCISES)
  string(REPLACE ":" ";" fields "${entry}")
  list(GET fields 0 id)
  list(GET fields 1 target)
  list(GET fields 2 kind)
  list(GET fields 3 file)
  set(status "")
  set(detail "")
  set(notes "")

  execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${target}
                  OUTPUT_VARIABLE build_log ERROR_VARIABLE build_log RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    set(status BUILD)
    first_line_matching("${build_log}" "error:|error :|undefined reference|No rule to make" detail)
    set(detail "${file} does not build: ${detail}")
  else()
    execute_process(COMMAND ${BIN_DIR}/${target} OUTPUT_VARIABLE out ERROR_VARIABLE err
                    RESULT_VARIABLE code TIMEOUT ${TIMEOUT})
    string(REGEX MATCH "(PASS|FAIL|TODO|TIMEOUT)  [^\n]*" row "${out}")
    if(code MATCHES "timeout")
      set(status TIMEOUT)
      set(detail "${file}: no answer in ${TIMEOUT} s: ${hang_hint}")
    elseif(code EQUAL 77)
      # The checker cannot run here. Its reason is its line on stderr after the program's name
      # ("no CUDA device found; ...", or what the GPU lacks).
      set(why "no CUDA device")
      string(FIND "${err}" "${BIN_DIR}/${target}: " at)
      if(at GREATER -1)
        string(LENGTH "${BIN_DIR}/${target}: " skip)
        math(EXPR at "${at} + ${skip}")
        string(SUBSTRING "${err}" ${at} -1 why)
        string(REGEX MATCH "^[^\n]*" why "${why}")
      endif()
      graded_file(${target} graded)
      still_todo("${graded}" not_started)
      if(not_started)
        string(REPLACE "${SOURCE_DIR}/" "" shown "${graded}")
        set(status TODO)
        set(detail "not started: ${shown} still throws tutorial::Todo (not run here: ${why})")
      else()
        set(status SKIP)
        set(detail "started, not run here: ${why}")
      endif()
      math(EXPR not_run "${not_run} + 1")
    elseif(row)
      string(REGEX MATCH "^[A-Z]+" status "${row}")
      string(REGEX REPLACE "^[A-Z]+  [^ ]+  " "" detail "${row}")
      string(FIND "${out}" "${row}" at)
      string(SUBSTRING "${out}" 0 ${at} notes)  # what the checker printed before its row
    else()
      set(status FAIL)
      string(STRIP "${err}" err)
      if(code MATCHES "^[0-9]+$")
        set(code "exit ${code}")
      endif()
      set(detail "${file}: the checker crashed (${code}) ${err}")
    endif()
    if(kind STREQUAL "gpu" AND SANITIZER AND status MATCHES "^(PASS|FAIL)$")
      set(plain "${status}: ${detail}")
      sanitize(${BIN_DIR}/${target} status detail)
      if(NOT status MATCHES "^(PASS|FAIL)$")
        string(APPEND notes "      (without the sanitizer: ${plain})\n")
      endif()
    endif()
    # The graded file's warp masks, decided from its source: no GPU needed.
    if(status MATCHES "^(PASS|FAIL|SKIP)$")
      graded_file(${target} graded)
      if(NOT graded STREQUAL "")
        warp_mask_findings("${graded}" findings)
        if(NOT findings STREQUAL "")
          string(REGEX REPLACE "\n.*" "" first "${findings}")
          string(APPEND notes "      (without the check of warp masks: ${status}: ${detail})\n")
          set(status SYNC)
          set(detail "warp mask: ${first}")
        endif()
      endif()
    endif()
  endif()

  # The row, and what the checker printed before it (e.g. a performance exercise's timings).
  string(SUBSTRING "${status}        " 0 8 padded)
  string(APPEND board "  ${padded}${id}  ${detail}\n${notes}")
  list(APPEND counts ${status})
  if(EXPECT STREQUAL "pass" AND NOT status MATCHES "^(PASS|SKIP)$")
    set(all_expected FALSE)
  elseif(EXPECT STREQUAL "todo" AND NOT status STREQUAL "TODO")
    set(all_expected FALSE)
  elseif(EXPECT STREQUAL "no-pass" AND status MATCHES "^(PASS|BUILD)$")
    set(all_expected FALSE)
  endif()
endforeach()

list(LENGTH counts total)
set(summary "")
foreach(status IN ITEMS PASS FAIL TODO BUILD TIMEOUT RACE SYNC MEMORY SKIP)
  set(same ${counts})
  list(FILTER same INCLUDE REGEX "^${status}$")
  list(LENGTH same count)
  if(count GREATER 0)
    string(APPEND summary " ${count} ${status}")
  endif()
endforeach()
if(not_run GREATER 0)
  string(APPEND summary "\n${not_run} of them not run here (no GPU, or none their checkers can \
use): TODO there means the file still throws tutorial::Todo, SKIP that it is started and waits \
for a GPU to grade it (docs/setup.md, \"Without a GPU\")")
endif()
message("==== exercise board (${EXPECT}) ====\n${board}${total} graded:${summary}")
if(NOT all_expected)
  if(EXPECT STREQUAL "pass")
    message(FATAL_ERROR "Not every exercise passes yet: see the rows above.")
  else()
    message(FATAL_ERROR "Some rows are not what EXPECT=${EXPECT} requires.")
  endif()
endif()
