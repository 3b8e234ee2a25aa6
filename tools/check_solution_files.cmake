# solutions/NN_name/<file> is the completed version of the learner's exercises/NN_name/<file>:
# it exists, differs from the learner's copy and has no TODO marker left, while the learner's
# copy has one. Arguments: EXERCISE_DIR, SOLUTION_DIR, LEARNER_FILE.
if(NOT EXISTS ${SOLUTION_DIR}/${LEARNER_FILE})
  message(FATAL_ERROR "${SOLUTION_DIR}/${LEARNER_FILE} is missing: every learner file needs "
                      "its completed version")
endif()
file(READ ${EXERCISE_DIR}/${LEARNER_FILE} learner)
file(READ ${SOLUTION_DIR}/${LEARNER_FILE} solution)
if(learner STREQUAL solution)
  message(FATAL_ERROR "solutions/.../${LEARNER_FILE} is the same as the exercise: not completed")
endif()
if(NOT learner MATCHES "TODO")
  message(FATAL_ERROR "exercises/.../${LEARNER_FILE} has no TODO: nothing for the learner to do")
endif()
if(solution MATCHES "TODO")
  message(FATAL_ERROR "solutions/.../${LEARNER_FILE} still has a TODO")
endif()
message(STATUS "${LEARNER_FILE}: the solution completes the exercise")
