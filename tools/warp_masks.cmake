# The grader's check of warp masks: a shuffle, vote, match, warp reduce or __syncwarp() whose
# mask is a constant that leaves out lanes. Every lane that executes such a call must be in its
# mask; a lane that is not makes the call undefined behaviour, which the GPU need not show (a
# full-warp reduction with __shfl_down_sync(0xffff, ...) gives the right sum on the GPUs we know,
# and compute-sanitizer's synccheck is not documented to report it). In every exercise of this
# tutorial warp-level calls are made by whole warps, so a constant mask must name all 32 lanes;
# where a branch lets only some lanes in, the mask is taken from the branch's own condition
# (__ballot_sync(0xffffffff, condition) before it), which this check accepts.
#
# What it decides, from the source alone: the mask of each such call that is a literal
# (0xffff, 65535u, ~0u, -1) or a name defined in the same file as one (constexpr unsigned
# kMask = 0xffff; #define MASK 0xffff). What it cannot see, and leaves to the checker's runs and
# compute-sanitizer: a mask computed at run time, and a full mask in a branch that only some
# lanes enter (lanes named that never arrive).
#
# As a script: cmake -DFILES="a.cu|b.cu" -P tools/warp_masks.cmake prints every finding and
# exits 1 when there is one. tools/grade.cmake includes it and calls warp_mask_finding().

set(warp_mask_calls
    "__shfl_sync|__shfl_up_sync|__shfl_down_sync|__shfl_xor_sync|__ballot_sync|__any_sync"
    "|__all_sync|__uni_sync|__match_any_sync|__match_all_sync|__reduce_add_sync"
    "|__reduce_min_sync|__reduce_max_sync|__reduce_and_sync|__reduce_or_sync"
    "|__reduce_xor_sync|__syncwarp")
string(JOIN "" warp_mask_calls ${warp_mask_calls})

# Sets ${out_var} to the 32-bit value of ${expr} when it is a literal mask (with an optional
# ~ or - in front and any u/l suffix), else to "".
function(warp_mask_value expr out_var)
  string(STRIP "${expr}" expr)
  string(REGEX REPLACE "^\\((.*)\\)$" "\\1" expr "${expr}")
  string(REGEX REPLACE "(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]+$" "\\1" expr "${expr}")
  set(value "")
  string(LENGTH "${expr}" length)
  if(expr MATCHES "^[~-]?(0[xX][0-9a-fA-F]+|[0-9]+)$" AND length LESS 12)  # 32 bits at most
    math(EXPR value "(${expr}) & 0xFFFFFFFF")
  endif()
  set(${out_var} "${value}" PARENT_SCOPE)
endfunction()

# "16-31" or "0, 5-7": the lanes 0-31 whose bit is clear in ${mask}.
function(warp_mask_lanes_left_out mask out_var)
  set(ranges "")
  set(first -1)
  foreach(lane RANGE 32)
    set(out FALSE)
    if(lane LESS 32)
      math(EXPR bit "(${mask} >> ${lane}) & 1")
      if(bit EQUAL 0)
        set(out TRUE)
      endif()
    endif()
    if(out AND first EQUAL -1)
      set(first ${lane})
    elseif(NOT out AND NOT first EQUAL -1)
      math(EXPR last "${lane} - 1")
      if(last EQUAL first)
        list(APPEND ranges "${first}")
      else()
        list(APPEND ranges "${first}-${last}")
      endif()
      set(first -1)
    endif()
  endforeach()
  list(JOIN ranges ", " ranges)
  set(${out_var} "${ranges}" PARENT_SCOPE)
endfunction()

# Sets ${out_var} to one line per constant mask in ${path} that leaves out lanes
# ("file.cu:20: ..."), or to "" when there is none.
function(warp_mask_findings path out_var)
  file(READ "${path}" text)
  get_filename_component(name "${path}" NAME)
  # Comments go, their line breaks stay (so that line numbers stay right).
  string(REGEX REPLACE "//[^\n]*" "" text "${text}")
  while(text MATCHES "/\\*")
    string(FIND "${text}" "/*" begin)
    string(SUBSTRING "${text}" ${begin} -1 rest)
    string(FIND "${rest}" "*/" length)
    if(length EQUAL -1)
      string(LENGTH "${rest}" length)
    else()
      math(EXPR length "${length} + 2")
    endif()
    string(SUBSTRING "${rest}" 0 ${length} comment)
    string(REGEX REPLACE "[^\n]" "" breaks "${comment}")
    string(SUBSTRING "${text}" 0 ${begin} before)
    math(EXPR after "${begin} + ${length}")
    string(SUBSTRING "${text}" ${after} -1 rest)
    set(text "${before}${breaks}${rest}")
  endwhile()

  set(findings "")
  set(offset 0)
  set(rest "${text}")
  while(rest MATCHES "(${warp_mask_calls})[ \t\r\n]*\\(([^,()]*)[,)]")
    set(call "${CMAKE_MATCH_1}")
    set(arg "${CMAKE_MATCH_2}")
    set(match "${CMAKE_MATCH_0}")
    string(FIND "${rest}" "${match}" at)
    math(EXPR at_in_text "${offset} + ${at}")
    string(LENGTH "${match}" match_length)
    math(EXPR skip "${at} + ${match_length}")
    string(SUBSTRING "${rest}" ${skip} -1 rest)
    math(EXPR offset "${offset} + ${skip}")

    string(STRIP "${arg}" arg)
    if(arg STREQUAL "")
      continue()  # __syncwarp(): all 32 lanes
    endif()
    warp_mask_value("${arg}" value)
    set(shown "${arg}")
    if(value STREQUAL "" AND arg MATCHES "^[A-Za-z_][A-Za-z_0-9]*$")
      # A name: its definition in this file, if it is a constant.
      if(text MATCHES "#define[ \t]+${arg}[ \t]+([^\n]+)")
        warp_mask_value("${CMAKE_MATCH_1}" value)
      elseif(text MATCHES "[ \t]${arg}[ \t]*(=[ \t]*([^;,{}()\n]+)|{([^;,{}()\n]+)})[;,]")
        warp_mask_value("${CMAKE_MATCH_2}${CMAKE_MATCH_3}" value)
      endif()
      if(NOT value STREQUAL "")
        math(EXPR hex "${value}" OUTPUT_FORMAT HEXADECIMAL)
        set(shown "${arg} = ${hex}")
      endif()
    endif()
    if(value STREQUAL "" OR value EQUAL 4294967295)
      continue()  # not a constant (decided at run time), or all 32 lanes
    endif()
    string(SUBSTRING "${text}" 0 ${at_in_text} before)
    string(REGEX MATCHALL "\n" breaks "${before}")
    list(LENGTH breaks line)
    math(EXPR line "${line} + 1")
    warp_mask_lanes_left_out(${value} left_out)
    if(left_out MATCHES "^[0-9]+$")
      set(left_out "lane ${left_out}")
    else()
      set(left_out "lanes ${left_out}")
    endif()
    list(APPEND findings
         "${name}:${line}: ${call}(${shown}, ...) leaves ${left_out} out of its mask, but \
every lane that executes it must be in the mask (undefined behaviour otherwise, which the GPU \
need not show). Whole warps make this call here: name all 32 lanes (0xffffffff), or, where a \
branch lets only some lanes in, take the mask from its condition with \
__ballot_sync(0xffffffff, condition) before the branch")
  endwhile()
  list(JOIN findings "\n" findings)
  set(${out_var} "${findings}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE AND DEFINED FILES)
  cmake_policy(VERSION 3.24)
  string(REPLACE "|" ";" FILES "${FILES}")
  set(count 0)
  foreach(path IN LISTS FILES)
    warp_mask_findings("${path}" findings)
    if(NOT findings STREQUAL "")
      message("${findings}")
      string(REGEX MATCHALL "\n" lines "${findings}\n")
      list(LENGTH lines found)
      math(EXPR count "${count} + ${found}")
    endif()
  endforeach()
  list(LENGTH FILES files)
  message("${count} constant masks that leave out lanes, in ${files} files")
  if(count GREATER 0)
    message(FATAL_ERROR "warp masks: see the lines above")
  endif()
endif()
