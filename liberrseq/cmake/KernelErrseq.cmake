# The kernel's own lib/errseq.c (Linux 6.1), for the differential test
# (tests/test_kernel_diff.c) and bench/: extracted from the linux-source
# tarball at build time (never committed) and compiled unchanged under the
# shims of tests/kernel/include, once over a u32 as in the kernel and once
# over a u64 to compare with errseq64_t. The functions are renamed
# (kernel_errseq_set, kernel_errseq_set64, ...: tests/kernel/kernel_errseq.h,
# forced into each build so that the shim's renamed prototypes are checked
# against it). kernel-port's vectors check compiles the same file, pristine
# and patched, over the same shims (kernel-port/tests/vectors-host.sh).
#
# Same compiler, same compile options, PIC and visibility as the library, so
# that bench/ compares like with like. Defined whenever the tarball exists,
# testing or not (bench/run.sh builds with BUILD_TESTING=OFF); built only
# for the targets that link them.
#
# Targets: errseq_kernel32, errseq_kernel64, errseq_kernel_warn (WARN's
# counter, kernel_errseq_warnings), and errseq_kernel, which links all three
# and carries kernel_errseq.h's directory.
# The top level sets the tarball; a build of liberrseq alone gets the same.
set(LIBERRSEQ_LINUX_TARBALL "/usr/src/linux-source-6.1.tar.xz" CACHE FILEPATH
    "Debian linux-source-6.1 tarball")
if(NOT EXISTS ${LIBERRSEQ_LINUX_TARBALL})
  message(STATUS "${LIBERRSEQ_LINUX_TARBALL} is missing: no errseq_kernel "
    "(install linux-source-6.1: scripts/deps.sh base)")
  return()
endif()

set(_kshim ${CMAKE_CURRENT_SOURCE_DIR}/tests/kernel)
set(_kdir ${CMAKE_CURRENT_BINARY_DIR}/kernel-errseq/linux)
# The library's own options (warnings, -fno-strict-overflow, ...), without
# the gcov instrumentation a coverage build adds to it.
get_target_property(_kflags errseq_static COMPILE_OPTIONS)
list(REMOVE_ITEM _kflags --coverage -fprofile-update=atomic -O0)

add_custom_command(OUTPUT ${_kdir}/lib/errseq.c
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_kdir}
  COMMAND tar -xJf ${LIBERRSEQ_LINUX_TARBALL} -C ${_kdir}
          --strip-components=1 linux-source-6.1/lib/errseq.c
  COMMAND ${CMAKE_COMMAND} -E touch ${_kdir}/lib/errseq.c
  DEPENDS ${LIBERRSEQ_LINUX_TARBALL}
  COMMENT "Extracting lib/errseq.c from ${LIBERRSEQ_LINUX_TARBALL}")
# One owner for the extraction, so that the two libraries below, built in
# parallel, do not both run it.
add_custom_target(errseq_kernel_source DEPENDS ${_kdir}/lib/errseq.c)

foreach(_w 32 64)
  if(_w EQUAL 64)
    set(_sfx 64)
    set(_defs KERNEL_ERRSEQ_64)
  else()
    set(_sfx "")
    set(_defs "")
  endif()
  add_library(errseq_kernel${_w} STATIC EXCLUDE_FROM_ALL ${_kdir}/lib/errseq.c)
  target_include_directories(errseq_kernel${_w} BEFORE PRIVATE
    ${_kshim}/include ${_kshim})
  target_compile_options(errseq_kernel${_w} PRIVATE
    "SHELL:-include ${_kshim}/kernel_errseq.h")
  target_compile_definitions(errseq_kernel${_w} PRIVATE ${_defs}
    errseq_set=kernel_errseq_set${_sfx}
    errseq_sample=kernel_errseq_sample${_sfx}
    errseq_check=kernel_errseq_check${_sfx}
    errseq_check_and_advance=kernel_errseq_check_and_advance${_sfx})
  add_dependencies(errseq_kernel${_w} errseq_kernel_source)
endforeach()
add_library(errseq_kernel_warn STATIC EXCLUDE_FROM_ALL ${_kshim}/warn.c)
target_include_directories(errseq_kernel_warn PRIVATE ${_kshim}/include ${_kshim})
foreach(_t errseq_kernel32 errseq_kernel64 errseq_kernel_warn)
  target_compile_options(${_t} PRIVATE ${_kflags})
  set_target_properties(${_t} PROPERTIES C_EXTENSIONS ON
    POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)
endforeach()

add_library(errseq_kernel INTERFACE)
target_include_directories(errseq_kernel INTERFACE ${_kshim})
target_link_libraries(errseq_kernel INTERFACE
  errseq_kernel32 errseq_kernel64 errseq_kernel_warn)
