# solutions/NN holds exactly the completed versions of the files the learner edits in
# exercises/NN: the same names, nothing more, each different from the learner's copy, no
# TODO marker left in a solution, and a TODO marker in every learner file.
# Arguments: EXERCISE_DIR, SOLUTION_DIR, LEARNER_FILES (a list).
file(GLOB solution_files RELATIVE ${SOLUTION_DIR} ${SOLUTION_DIR}/*)
list(SORT solution_files)
set(expected ${LEARNER_FILES})
list(SORT expected)
if(NOT solution_files STREQUAL expected)
  message(FATAL_ERROR "${SOLUTION_DIR} holds [${solution_files}], expected exactly the "
                      "learner's files [${expected}]")
endif()
foreach(file IN LISTS LEARNER_FILES)
  file(READ ${EXERCISE_DIR}/${file} learner)
  file(READ ${SOLUTION_DIR}/${file} solution)
  if(learner STREQUAL solution)
    message(FATAL_ERROR "solutions/${file} is the same as the exercise: not completed")
  endif()
  if(NOT learner MATCHES "TODO")
    message(FATAL_ERROR "exercises/${file} has no TODO: nothing for the learner to do")
  endif()
  if(solution MATCHES "TODO")
    message(FATAL_ERROR "solutions/${file} still has a TODO")
  endif()
endforeach()
message(STATUS "solutions match the exercise files: ${LEARNER_FILES}")
