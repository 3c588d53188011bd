# ctest vnm-find-package: installs the vnm build into a fresh prefix, then
# configures, builds and runs consumer/ against it, as an out-of-tree project
# embedding vnm would.
#
# cmake -DVNM_BUILD_DIR=... -DVNM_CONSUMER_SOURCE_DIR=... -DVNM_WORK_DIR=...
#       -DVNM_GENERATOR=... -P RunConsumerTest.cmake

function(run_step name)
  execute_process(COMMAND ${ARGN}
    RESULT_VARIABLE result
    OUTPUT_VARIABLE output
    ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${name} failed (${result}):\n${output}")
  endif()
  set(step_output "${output}" PARENT_SCOPE)
endfunction()

function(expect_output name text)
  if(NOT step_output MATCHES "${text}")
    message(FATAL_ERROR "${name} printed\n${step_output}\nexpected: ${text}")
  endif()
  message(STATUS "${name}: ${text}")
endfunction()

file(REMOVE_RECURSE ${VNM_WORK_DIR})
set(prefix ${VNM_WORK_DIR}/prefix)
set(build ${VNM_WORK_DIR}/build)

run_step(install ${CMAKE_COMMAND} --install ${VNM_BUILD_DIR}
  --prefix ${prefix} --component vnm-dev)
# Only the install prefix is given: the package must find MLIR by itself.
run_step(configure ${CMAKE_COMMAND} -G ${VNM_GENERATOR}
  -S ${VNM_CONSUMER_SOURCE_DIR} -B ${build}
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix})
run_step(build ${CMAKE_COMMAND} --build ${build})

run_step(vnm-consumer-c ${build}/vnm-consumer-c)
expect_output(vnm-consumer-c "consumer-c: values 2048")
expect_output(vnm-consumer-c
  "func.func private @f\\(tensor<64x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>\\)")
run_step(vnm-consumer-cxx ${build}/vnm-consumer-cxx)
expect_output(vnm-consumer-cxx
  "consumer-cxx: #vnm.encoding<v = 32, n = 1, m = 16>")
