# The learner's progress board: runs each exercise checker (list CHECKERS) and prints its
# PASS / FAIL / TODO lines, then one line per chapter. Run through `cmake --build build
# --target grade`. Fails (exit 1, so the build says so) unless every checker passes or skips
# for want of a GPU.
# CHECKERS may also be separated by "|", for a command line nested in another list.
string(REPLACE "|" ";" CHECKERS "${CHECKERS}")
set(all_pass TRUE)
set(board "")
foreach(checker IN LISTS CHECKERS)
  get_filename_component(name ${checker} NAME_WE)
  execute_process(COMMAND ${checker} OUTPUT_VARIABLE output ERROR_VARIABLE errors
                  RESULT_VARIABLE code)
  message("---- ${name}\n${output}${errors}")
  if(code EQUAL 0)
    set(status "all pass")
  elseif(code EQUAL 77)
    set(status "skipped: no CUDA device")
  else()
    string(REGEX MATCHALL "(^|\n)(TODO|FAIL)" open_lines "${output}")
    list(LENGTH open_lines open)
    if(open EQUAL 0)
      set(status "error (exit ${code})")
    else()
      set(status "${open} to do (exit ${code})")
    endif()
    set(all_pass FALSE)
  endif()
  string(APPEND board "  ${name}: ${status}\n")
endforeach()
message("==== exercise board ====\n${board}")
if(NOT all_pass)
  message(FATAL_ERROR "Some exercises are not done yet: see the TODO and FAIL lines above.")
endif()
