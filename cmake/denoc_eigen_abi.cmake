# Eigen's memory layout is part of the library's ABI: the alignment of fixed-size matrices
# (EIGEN_MAX_STATIC_ALIGN_BYTES), of the heap (EIGEN_MAX_ALIGN_BYTES) and whether its heap is
# plain malloc (EIGEN_MALLOC_ALREADY_ALIGNED) or its own allocator, which stores an offset before
# each block. Eigen derives them from the compiler's flags: -march=x86-64-v3 gives 32-byte
# alignment and Eigen's allocator, -fsanitize=address Eigen's allocator too (Memory.h), where a
# generic x86-64 build has 16 bytes and malloc. A program compiled one way that frees what the
# library compiled the other way allocated, or reads a workspace with the other layout, crashes
# (seen: a segmentation fault with -march=x86-64-v3, a heap-buffer-overflow in ~Workspace with
# AddressSanitizer, against a generic library).
#
# So the build asks Eigen what this build's flags give, and the library states them as PUBLIC
# compile definitions: its own code compiles with exactly what it had (the same values, now
# spelt out), and every program linking denoc::denoc, from this tree or from find_package(denoc),
# compiles with the library's layout whatever its own -march or sanitizers.
# Sets DENOC_EIGEN_ABI_DEFINITIONS.
function(denoc_eigen_abi flags)
  set(source ${PROJECT_BINARY_DIR}/denoc_eigen_abi.cpp)
  file(WRITE ${source} [=[
#include <Eigen/Core>
#include <cstdio>
int main() {
  std::printf("EIGEN_MAX_ALIGN_BYTES=%d;EIGEN_MAX_STATIC_ALIGN_BYTES=%d;EIGEN_MALLOC_ALREADY_ALIGNED=%d",
              int(EIGEN_MAX_ALIGN_BYTES), int(EIGEN_MAX_STATIC_ALIGN_BYTES),
              int(EIGEN_MALLOC_ALREADY_ALIGNED));
}
]=])
  try_run(run_status compile_ok ${PROJECT_BINARY_DIR}/denoc_eigen_abi ${source}
    COMPILE_DEFINITIONS ${flags}  # add_definitions() takes any flag
    LINK_OPTIONS ${flags}
    LINK_LIBRARIES Eigen3::Eigen
    COMPILE_OUTPUT_VARIABLE compile_output
    RUN_OUTPUT_VARIABLE definitions)
  if(NOT compile_ok OR NOT run_status EQUAL 0)
    message(FATAL_ERROR "could not ask Eigen for its memory layout with the flags '${flags}':\n"
                        "${compile_output}")
  endif()
  message(STATUS "Eigen's layout, stated by denoc::denoc: ${definitions}")
  set(DENOC_EIGEN_ABI_DEFINITIONS ${definitions} PARENT_SCOPE)
endfunction()
