# liberrseq-table: the errseq table (include/errseq_table.h, src/table.c),
# a separate library so that the core liberrseq never depends on liburcu.
#
#   errseq_table         liberrseq-table.so.1, version script src/liberrseq-table.map
#   errseq_table_static  liberrseq-table.a
#
# Both link liberrseq (errseq / errseq_static) publicly and liburcu-memb +
# liburcu-cds (pkg-config) privately. Installed with the core: header, both
# libraries, liberrseq-table.pc, and the same liberrseqTargets export set, so
# find_package(liberrseq COMPONENTS table) gives liberrseq::errseq_table.
# Without liburcu the table is skipped and the core builds as before.

find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(LIBERRSEQ_URCU QUIET IMPORTED_TARGET liburcu-memb liburcu-cds)
endif()
if(NOT LIBERRSEQ_URCU_FOUND)
  message(STATUS "liberrseq: liburcu-memb/liburcu-cds not found "
    "(scripts/deps.sh table): errseq_table not built")
  return()
endif()

set(LIBERRSEQ_TABLE_SOURCES ${LIBERRSEQ_SRC_DIR}/table.c)
set(LIBERRSEQ_TABLE_MAP ${LIBERRSEQ_SRC_DIR}/liberrseq-table.map)

# errseq_table_add_library(NAME TYPE CORE <errseq target> [SOURCES ...]
#                          [DEFINES ...] [COMPILE ...] [LINK ...])
# The table over a given core library; the tests build sanitizer and mutant
# variants with it.
function(errseq_table_add_library name type)
  cmake_parse_arguments(A "" "CORE" "DEFINES;SOURCES;COMPILE;LINK" ${ARGN})
  if(NOT A_SOURCES)
    set(A_SOURCES ${LIBERRSEQ_TABLE_SOURCES})
  endif()
  add_library(${name} ${type} ${A_SOURCES})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${LIBERRSEQ_INCLUDE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_definitions(${name} PRIVATE ${A_DEFINES})
  target_compile_options(${name} PRIVATE ${LIBERRSEQ_WARNINGS} ${A_COMPILE})
  target_link_libraries(${name} PUBLIC ${A_CORE} PRIVATE PkgConfig::LIBERRSEQ_URCU)
  target_link_options(${name} PUBLIC ${A_LINK})
  set_target_properties(${name} PROPERTIES C_VISIBILITY_PRESET hidden
    POSITION_INDEPENDENT_CODE ON)
  if(LIBERRSEQ_COVERAGE)
    target_compile_options(${name} PRIVATE --coverage -O0)
    target_link_options(${name} PUBLIC --coverage)
  endif()
endfunction()

errseq_table_add_library(errseq_table SHARED CORE errseq)
target_link_options(errseq_table PRIVATE
  -Wl,--version-script=${LIBERRSEQ_TABLE_MAP} -Wl,-z,defs)
set_target_properties(errseq_table PROPERTIES
  OUTPUT_NAME errseq-table
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
  LINK_DEPENDS ${LIBERRSEQ_TABLE_MAP}
  PUBLIC_HEADER ${LIBERRSEQ_INCLUDE_DIR}/errseq_table.h
  EXPORT_NAME errseq_table)
errseq_table_add_library(errseq_table_static STATIC CORE errseq_static)
set_target_properties(errseq_table_static PROPERTIES OUTPUT_NAME errseq-table
  EXPORT_NAME errseq_table_static)
add_library(liberrseq::errseq_table ALIAS errseq_table)
add_library(liberrseq::errseq_table_static ALIAS errseq_table_static)

# Install: into the core's export set and package directory.
install(TARGETS errseq_table errseq_table_static EXPORT liberrseqTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
    NAMELINK_COMPONENT development
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development)

# liberrseqConfig.cmake includes this (OPTIONAL) before the targets: it
# recreates the liburcu imported target that errseq_table_static's link
# interface names, and sets the "table" component's _FOUND.
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/liberrseqTableDeps.cmake
  CONTENT [=[
# liburcu for liberrseq::errseq_table (written by liberrseq/cmake/Table.cmake).
# find_package(liberrseq COMPONENTS table) fails cleanly without liburcu.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND AND NOT TARGET PkgConfig::LIBERRSEQ_URCU)
  pkg_check_modules(LIBERRSEQ_URCU QUIET IMPORTED_TARGET liburcu-memb liburcu-cds)
endif()
if(TARGET PkgConfig::LIBERRSEQ_URCU)
  set(liberrseq_table_FOUND TRUE)
else()
  set(liberrseq_table_FOUND FALSE)
endif()
]=] @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/liberrseqTableDeps.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/liberrseq COMPONENT development)

# liberrseq-table.pc, prefix-relative like liberrseq.pc.
file(RELATIVE_PATH _table_pc_up /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
set(LIBERRSEQ_TABLE_PC_PREFIX "\${pcfiledir}/${_table_pc_up}")
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/liberrseq-table.pc
  CONTENT [=[
prefix=@LIBERRSEQ_TABLE_PC_PREFIX@
libdir=${prefix}/@CMAKE_INSTALL_LIBDIR@
includedir=${prefix}/@CMAKE_INSTALL_INCLUDEDIR@

Name: liberrseq-table
Description: Per-object errseq words with RCU lookups and safe reclaim (liberrseq)
Version: @PROJECT_VERSION@
Requires: liberrseq
Requires.private: liburcu-memb liburcu-cds
Libs: -L${libdir} -lerrseq-table
Cflags: -I${includedir}
]=] @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/liberrseq-table.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)

if(LIBERRSEQ_TESTING)
  add_subdirectory(${CMAKE_CURRENT_LIST_DIR}/../tests/table
    ${CMAKE_CURRENT_BINARY_DIR}/table-tests)
endif()
