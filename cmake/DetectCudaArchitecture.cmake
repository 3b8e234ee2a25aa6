# Chooses CMAKE_CUDA_ARCHITECTURES when the user did not.
#   - a GPU is visible to nvidia-smi: build for exactly that GPU (fastest build, best code);
#   - no GPU (a CI machine, a laptop): a short list from Turing (7.5) to Hopper (9.0), with
#     PTX for the newest so that newer GPUs can still JIT-compile it.
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
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
        set(_archs "")
        break()
      endif()
    endforeach()
  endif()
  if(_rc EQUAL 0 AND _archs)
    set(CMAKE_CUDA_ARCHITECTURES "${_archs}" CACHE STRING "CUDA architectures (detected GPUs)")
    message(STATUS "CUDA architecture: ${_archs} (detected with nvidia-smi)")
    return()
  endif()
endif()

set(CMAKE_CUDA_ARCHITECTURES "75-real;80-real;90" CACHE STRING "CUDA architectures (portable)")
message(STATUS "CUDA architecture: no GPU to target, building the portable list "
               "${CMAKE_CUDA_ARCHITECTURES}")
