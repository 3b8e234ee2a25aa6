# Runs COMMAND (a list) and fails unless it exits with EXPECT_CODE and its output matches
# EXPECT_REGEX: CTest's PASS_REGULAR_EXPRESSION alone would ignore the exit code.
execute_process(COMMAND ${COMMAND} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
message("${out}${err}")
if(NOT code STREQUAL EXPECT_CODE)
  message(FATAL_ERROR "exit code ${code}, expected ${EXPECT_CODE}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match '${EXPECT_REGEX}'")
endif()
