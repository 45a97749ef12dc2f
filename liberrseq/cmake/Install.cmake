# cmake --install: header, both libraries, liberrseq.pc and a CMake package.
# Two install components, which the packages follow (Package.cmake):
# runtime (the shared libraries) and development (everything else).
include(CMakePackageConfigHelpers)

install(TARGETS errseq errseq_static EXPORT liberrseqTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
    NAMELINK_COMPONENT development
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development)

set(LIBERRSEQ_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/liberrseq)
install(EXPORT liberrseqTargets NAMESPACE liberrseq::
  DESTINATION ${LIBERRSEQ_CMAKEDIR} COMPONENT development)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/liberrseqConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/liberrseqConfig.cmake
  INSTALL_DESTINATION ${LIBERRSEQ_CMAKEDIR})
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/liberrseqConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/liberrseqConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/liberrseqConfigVersion.cmake
  DESTINATION ${LIBERRSEQ_CMAKEDIR} COMPONENT development)

# A prefix-relative pkg-config file, so a relocated install still works.
file(RELATIVE_PATH LIBERRSEQ_PC_LIBDIR /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
set(LIBERRSEQ_PC_PREFIX "\${pcfiledir}/${LIBERRSEQ_PC_LIBDIR}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/liberrseq.pc.in
  ${CMAKE_CURRENT_BINARY_DIR}/liberrseq.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/liberrseq.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)
