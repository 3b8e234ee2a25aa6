# How many compilations run at once. Ninja (the presets' generator) starts as many as the
# machine has cores, plus two; one nvcc of chapter 10's main.cu (sm_90a code) peaked at 0.36 GB
# (/usr/bin/time, 2026-11-25), so on a machine with many cores and little memory the cores are
# not the limit. The pool "compile" lets no more run than the free memory
# holds at 1 GiB each. TUTORIAL_BUILD_JOBS sets the number yourself. Make ignores job pools:
# there the number is make's -j.
cmake_host_system_information(RESULT tutorial_free_mib QUERY AVAILABLE_PHYSICAL_MEMORY)
math(EXPR tutorial_jobs_by_memory "${tutorial_free_mib} / 1024")
if(tutorial_jobs_by_memory LESS 1)
  set(tutorial_jobs_by_memory 1)
endif()
set(TUTORIAL_BUILD_JOBS ${tutorial_jobs_by_memory} CACHE STRING
    "The most compilations at once (default: the free memory at configure time, 1 GiB each)")
set_property(GLOBAL APPEND PROPERTY JOB_POOLS compile=${TUTORIAL_BUILD_JOBS})
set(CMAKE_JOB_POOL_COMPILE compile)
cmake_host_system_information(RESULT tutorial_cores QUERY NUMBER_OF_LOGICAL_CORES)
if(CMAKE_GENERATOR MATCHES "Ninja")
  math(EXPR tutorial_ninja_jobs "${tutorial_cores} + 2")
  if(tutorial_ninja_jobs GREATER TUTORIAL_BUILD_JOBS)
    set(tutorial_ninja_jobs ${TUTORIAL_BUILD_JOBS})
  endif()
  message(STATUS "Build: up to ${tutorial_ninja_jobs} compilations at once (${tutorial_cores} "
                 "cores, ${tutorial_free_mib} MiB free)")
endif()
