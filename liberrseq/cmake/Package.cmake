# Binary packages of the library with CPack, from the install components
# (Install.cmake, Table.cmake, man/):
#
#   runtime      liberrseq1     (RPM: liberrseq)        the shared libraries
#   development  liberrseq-dev  (RPM: liberrseq-devel)  headers, .so links,
#                static libraries, .pc files, CMake package, man pages
#
# Configure with the prefix the package installs to, so that GNUInstallDirs
# picks that system's library directory (Debian: lib/<multiarch>), then:
#
#   cmake -S . -B build -DLIBERRSEQ_LIBRARY_ONLY=ON -DBUILD_TESTING=OFF \
#         -DCMAKE_INSTALL_PREFIX=/usr
#   cmake --build build && (cd build && cpack -G DEB)      # or -G RPM
#
# Only when liberrseq is the top-level project: one that adds liberrseq
# keeps its own CPack configuration.

set(CPACK_PACKAGE_NAME liberrseq)
set(CPACK_PACKAGE_VENDOR liberrseq)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "The Linux kernel's errseq_t writeback-error tracking, in userspace")
set(_about "An errseq word records the latest error of an object with a \
sequence counter, so that every reader learns of each error once: Linux's \
lib/errseq.c (6.1), bit-identical, with reader cursors, 64-bit words, and \
liberrseq-table for per-object words.")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION_SUMMARY}
${_about} This package holds the shared libraries.")
set(CPACK_COMPONENT_DEVELOPMENT_DESCRIPTION
  "${CPACK_PACKAGE_DESCRIPTION_SUMMARY} (development files)
${_about} This package holds the headers, static libraries, pkg-config \
files, CMake package and man pages.")
set(LIBERRSEQ_PACKAGE_CONTACT "liberrseq maintainers" CACHE STRING
  "Maintainer field of the packages (\"Name <address>\")")
set(CPACK_PACKAGE_CONTACT "${LIBERRSEQ_PACKAGE_CONTACT}")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_COMPONENTS_ALL runtime development)
set(CPACK_COMPONENT_DEVELOPMENT_DEPENDS runtime)
set(CPACK_GENERATOR DEB)

# The GPL requires the licence to go with the binaries: both packages name
# it, the runtime one carries its text.
set(_copying ${CMAKE_CURRENT_SOURCE_DIR}/../COPYING)
if(EXISTS ${_copying})
  install(FILES ${_copying} DESTINATION ${CMAKE_INSTALL_DOCDIR}
    COMPONENT runtime)
  set(CPACK_RESOURCE_FILE_LICENSE ${_copying})
endif()

# Debian: one .deb per component; Depends from dpkg-shlibdeps (libc6, and
# liburcu8 for liberrseq-table), the dev package on the runtime one.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME liberrseq${PROJECT_VERSION_MAJOR})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME liberrseq-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
if(TARGET errseq_table)
  # liberrseq-table.pc and the CMake package find liburcu through pkg-config.
  set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS "liburcu-dev, pkg-config")
endif()

# RPM: the same split; the directories it shares with the system are not
# the packages' own.
set(CPACK_RPM_COMPONENT_INSTALL ON)
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
  ${CPACK_PACKAGING_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}
  ${CPACK_PACKAGING_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig
  ${CPACK_PACKAGING_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/cmake
  ${CPACK_PACKAGING_INSTALL_PREFIX}/${CMAKE_INSTALL_MANDIR}
  ${CPACK_PACKAGING_INSTALL_PREFIX}/${CMAKE_INSTALL_MANDIR}/man3)
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_LICENSE GPL-2.0-only)
set(CPACK_RPM_RUNTIME_PACKAGE_NAME liberrseq)
set(CPACK_RPM_DEVELOPMENT_PACKAGE_NAME liberrseq-devel)
set(CPACK_RPM_DEVELOPMENT_PACKAGE_REQUIRES
  "liberrseq = ${PROJECT_VERSION}")

include(CPack)
