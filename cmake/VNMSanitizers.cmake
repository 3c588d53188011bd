# Sanitizer and fuzzing instrumentation of vnm's own code (scripts/sanitize.sh
# configures a clang build with both). libMLIR.so and libLLVM.so stay as
# Debian ships them, uninstrumented; the settings below are what mixing the
# two needs.
set(VNM_SANITIZERS "" CACHE STRING
    "Sanitizers for vnm's code, as -fsanitize= takes them (e.g. address,undefined); clang only")
option(VNM_BUILD_FUZZER
       "Build vnm-capi-fuzzer, a libFuzzer target over the C API (clang only)" OFF)

# The ASan runtime that uninstrumented programs loading vnm's instrumented
# libraries (mlir-runner with libvnm_cpu_runtime.so) must preload; empty
# when ASan is off. lit reads it from lit.site.cfg.py.
set(VNM_ASAN_RUNTIME "")

if(VNM_SANITIZERS OR VNM_BUILD_FUZZER)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR
     NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "VNM_SANITIZERS and VNM_BUILD_FUZZER need clang as "
                        "the C and C++ compiler (scripts/sanitize.sh sets it)")
  endif()
endif()

if(VNM_SANITIZERS)
  # Every report ends the process (abort_on_error in the run's options), so
  # a test harness sees a crash instead of a line of text it may not read.
  add_compile_options(-fsanitize=${VNM_SANITIZERS} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -gline-tables-only)
  add_link_options(-fsanitize=${VNM_SANITIZERS})
  if(VNM_SANITIZERS MATCHES "undefined")
    # LLVM is built without RTTI, which the vptr check needs.
    add_compile_options(-fno-sanitize=vptr)
  endif()
  if(VNM_SANITIZERS MATCHES "address")
    # One shared ASan runtime for every instrumented binary, so that a
    # program linked without it can preload the same one.
    add_link_options(-shared-libasan)
    execute_process(
      COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.asan-${CMAKE_SYSTEM_PROCESSOR}.so
      OUTPUT_VARIABLE VNM_ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT EXISTS "${VNM_ASAN_RUNTIME}")
      message(FATAL_ERROR "the shared ASan runtime was not found "
                          "(${VNM_ASAN_RUNTIME}); install libclang-rt-dev for ${CMAKE_CXX_COMPILER}")
    endif()
    get_filename_component(VNM_ASAN_RUNTIME_DIR "${VNM_ASAN_RUNTIME}" DIRECTORY)
    add_link_options("LINKER:-rpath,${VNM_ASAN_RUNTIME_DIR}")
  endif()
endif()

if(VNM_BUILD_FUZZER)
  # Coverage feedback from all of vnm's code; the fuzzer's own target adds
  # libFuzzer's main.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
