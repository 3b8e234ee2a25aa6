# Chooses CMAKE_CUDA_ARCHITECTURES when the user did not.
#   - a GPU is visible to nvidia-smi: build for exactly that GPU (fastest build, best code);
#   - a GPU newer than the toolkit, or TUTORIAL_PORTABLE_BUILD=ON (binaries to hand to other
#     machines): the portable list, machine code from Turing (7.5) to Hopper (9.0) and PTX for
#     the newest, which the driver compiles for newer GPUs when a program starts;
#   - no GPU (a CI machine, a laptop): a compile check, not a build to run. Machine code for
#     the newest architecture (sm_90, and sm_90a for chapter 10's Hopper steps) and PTX for the
#     oldest (compute_75): every code path the architectures select, from the Turing fallbacks
#     to the Hopper instructions, goes through the compiler, at half the cost of the portable
#     list (each architecture is one more pass of the device compiler over every .cu file).
option(TUTORIAL_PORTABLE_BUILD
       "Build the portable list of architectures (75-real;80-real;90) whatever GPU is here" OFF)
set(TUTORIAL_PORTABLE_ARCHITECTURES "75-real;80-real;90")
set(TUTORIAL_CHECK_ARCHITECTURES "75-virtual;90-real")
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  return()
endif()
if(TUTORIAL_PORTABLE_BUILD)
  set(CMAKE_CUDA_ARCHITECTURES "${TUTORIAL_PORTABLE_ARCHITECTURES}"
      CACHE STRING "CUDA architectures (portable)")
  message(STATUS "CUDA architecture: the portable list ${CMAKE_CUDA_ARCHITECTURES} "
                 "(TUTORIAL_PORTABLE_BUILD)")
  return()
endif()

find_program(TUTORIAL_NVIDIA_SMI nvidia-smi)
if(TUTORIAL_NVIDIA_SMI)
  execute_process(
    COMMAND ${TUTORIAL_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
    OUTPUT_VARIABLE _caps RESULT_VARIABLE _rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  # One line per GPU, e.g. "9.0": build for each distinct one (device 0 may be any of them).
  string(REGEX MATCHALL "[0-9]+\\.[0-9]+" _caps "${_caps}")
  set(_archs "")
  foreach(_cap IN LISTS _caps)
    string(REPLACE "." "" _arch "${_cap}")
    list(APPEND _archs ${_arch})
  endforeach()
  list(REMOVE_DUPLICATES _archs)
  # A GPU newer than the toolkit (say sm_120 with CUDA 12.6) cannot be targeted directly: then
  # the portable list, whose PTX the driver compiles for it at load time.
  if(CMAKE_CUDA_COMPILER)
    set(TUTORIAL_NVCC "${CMAKE_CUDA_COMPILER}")
  else()
    find_program(TUTORIAL_NVCC nvcc)
  endif()
  if(TUTORIAL_NVCC)
    execute_process(COMMAND ${TUTORIAL_NVCC} --list-gpu-arch OUTPUT_VARIABLE _supported
                    RESULT_VARIABLE _list_rc ERROR_QUIET)
    foreach(_arch IN LISTS _archs)
      if(_list_rc EQUAL 0 AND NOT _supported MATCHES "compute_${_arch}")
        message(WARNING "nvcc cannot build for the detected sm_${_arch}; building the portable "
                        "list (with PTX for newer GPUs) instead")
        set(CMAKE_CUDA_ARCHITECTURES "${TUTORIAL_PORTABLE_ARCHITECTURES}"
            CACHE STRING "CUDA architectures (portable)")
        return()
      endif()
    endforeach()
  endif()
  if(_rc EQUAL 0 AND _archs)
    set(CMAKE_CUDA_ARCHITECTURES "${_archs}" CACHE STRING "CUDA architectures (detected GPUs)")
    message(STATUS "CUDA architecture: ${_archs} (detected with nvidia-smi)")
    return()
  endif()
endif()

set(CMAKE_CUDA_ARCHITECTURES "${TUTORIAL_CHECK_ARCHITECTURES}"
    CACHE STRING "CUDA architectures (no GPU: a compile check)")
message(STATUS "CUDA architecture: no GPU to target, compiling for the newest and the oldest "
               "(${CMAKE_CUDA_ARCHITECTURES}); -DTUTORIAL_PORTABLE_BUILD=ON builds binaries "
               "for every GPU from 7.5")
