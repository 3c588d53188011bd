# Install rules and the CMake package (find_package(VNM)) for projects that
# embed vnm: the dialect, pass and format libraries with their headers, the
# C API library, vnm-opt and the CPU runtime.
#
#   cmake --install build --prefix PREFIX [--component vnm-dev]
#   find_package(VNM CONFIG)  # with PREFIX in CMAKE_PREFIX_PATH
#   target_link_libraries(app PRIVATE VNM::MLIRVNMDialect VNM::VNMCAPI ...)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(VNM_INSTALL_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/vnm")

# Each library is exported if this tree defines it.
set(VNM_EXPORTED_TARGETS)
foreach(target
    VNMFormat MLIRVNMDialect MLIRVNMGPUDialect MLIRVNMTransforms
    MLIRVNMToLoops MLIRVNMToGPU MLIRVNMGPUToNVVM MLIRVNMGPUToLoops
    MLIRVNMPipelines VNMCAPI)
  if(TARGET ${target})
    list(APPEND VNM_EXPORTED_TARGETS ${target})
    # A plain source-tree include path (VNMFormat has one) cannot be
    # exported; it only applies to the build tree.
    get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
    if(dirs)
      set(build_dirs)
      foreach(dir ${dirs})
        if(dir MATCHES "^\\$<")
          list(APPEND build_dirs "${dir}")
        else()
          list(APPEND build_dirs "$<BUILD_INTERFACE:${dir}>")
        endif()
      endforeach()
      set_property(TARGET ${target}
        PROPERTY INTERFACE_INCLUDE_DIRECTORIES ${build_dirs})
    endif()
    # The tree's own targets get their include paths from the directory
    # scope; installed ones must carry them.
    target_include_directories(${target} INTERFACE
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  endif()
endforeach()

install(TARGETS ${VNM_EXPORTED_TARGETS}
  EXPORT VNMTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT vnm-dev
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT vnm-dev
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT vnm-dev)
install(EXPORT VNMTargets
  NAMESPACE VNM::
  DESTINATION ${VNM_INSTALL_CMAKE_DIR}
  COMPONENT vnm-dev)

install(DIRECTORY
    ${PROJECT_SOURCE_DIR}/include/vnm
    ${PROJECT_SOURCE_DIR}/include/vnm-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT vnm-dev
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
# The ODS-generated declarations the headers include.
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/vnm
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT vnm-dev
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

# vnm-opt for the embedder's own lit tests; the CPU runtime for running what
# vnm-lower-to-cpu-pipeline produces.
foreach(target vnm-opt vnm_cpu_runtime)
  if(TARGET ${target})
    install(TARGETS ${target}
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT vnm-dev
      RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT vnm-dev)
  endif()
endforeach()

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/VNMConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/VNMConfig.cmake
  INSTALL_DESTINATION ${VNM_INSTALL_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
install(FILES ${PROJECT_BINARY_DIR}/cmake/VNMConfig.cmake
  DESTINATION ${VNM_INSTALL_CMAKE_DIR}
  COMPONENT vnm-dev)
