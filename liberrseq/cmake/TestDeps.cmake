# What the tests need from the toolchain and the system, found once:
#
#   LIBERRSEQ_HAVE_TSAN        -fsanitize=thread compiles and links
#   LIBERRSEQ_HAVE_ASAN_UBSAN  -fsanitize=address,undefined compiles and links
#   CHECK_FOUND                Check (pkg-config check): PkgConfig::CHECK
#
# Debian 12's cross compilers lack libtsan for armhf, i386, s390x and
# riscv64, and libubsan for riscv64, and riscv64 has no Check: there those
# builds and tests are left out. A native build must run every test, so by
# default (LIBERRSEQ_REQUIRE_TEST_DEPS, ON unless cross-compiling) a missing
# sanitizer runtime stops the configure, and a missing Check leaves the
# library to build but puts failing tests in place of the Check tests
# (liberrseq_check_missing()), after a warning that says what to install
# or how to build without the tests.

include(CheckCSourceCompiles)

if(CMAKE_CROSSCOMPILING)
  set(_require OFF)
else()
  set(_require ON)
endif()
option(LIBERRSEQ_REQUIRE_TEST_DEPS
  "Fail the configure when Check or a sanitizer runtime is missing" ${_require})

function(liberrseq_check_flags var)
  set(CMAKE_REQUIRED_FLAGS "${ARGN}")
  set(CMAKE_REQUIRED_LINK_OPTIONS ${ARGN})
  set(CMAKE_REQUIRED_QUIET ON)
  check_c_source_compiles("int main(void) { return 0; }" ${var})
  if(NOT ${var})
    if(LIBERRSEQ_REQUIRE_TEST_DEPS)
      message(FATAL_ERROR "liberrseq: ${ARGN} does not link: install the "
        "sanitizer runtimes (scripts/deps.sh base) or configure with "
        "-DLIBERRSEQ_REQUIRE_TEST_DEPS=OFF to leave those tests out")
    endif()
    message(STATUS "liberrseq: ${ARGN} does not link for this target: "
      "its builds and tests are left out")
  endif()
endfunction()

liberrseq_check_flags(LIBERRSEQ_HAVE_TSAN -fsanitize=thread)
liberrseq_check_flags(LIBERRSEQ_HAVE_ASAN_UBSAN -fsanitize=address,undefined)

find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(CHECK QUIET IMPORTED_TARGET check)
endif()
set(LIBERRSEQ_CHECK_MISSING "liberrseq: Check, the C unit test framework, \
was not found (through pkg-config), so the tests that use it are not built. \
Install it (Debian: apt-get install check pkg-config, or scripts/deps.sh \
base), or build the library without its tests: -DLIBERRSEQ_BUILD_TESTS=OFF \
(or -DBUILD_TESTING=OFF); -DLIBERRSEQ_REQUIRE_TEST_DEPS=OFF leaves out only \
the Check tests.")
if(NOT CHECK_FOUND)
  if(LIBERRSEQ_REQUIRE_TEST_DEPS)
    message(WARNING "${LIBERRSEQ_CHECK_MISSING} Until then the Check tests "
      "are registered as failing tests that say this.")
  else()
    message(STATUS "liberrseq: Check not found for this target: its tests "
      "are left out")
  endif()
endif()

# liberrseq_check_missing(NAME...): without Check, the Check tests NAME...
# are failing tests that say why (none when LIBERRSEQ_REQUIRE_TEST_DEPS is
# off), so that a run never passes without them.
function(liberrseq_check_missing)
  if(NOT LIBERRSEQ_REQUIRE_TEST_DEPS)
    return()
  endif()
  foreach(name ${ARGN})
    add_test(NAME ${name} COMMAND sh -c "echo \"FAIL: $1\"; exit 1" sh
      "${LIBERRSEQ_CHECK_MISSING}")
    set_tests_properties(${name} PROPERTIES LABELS lib)
  endforeach()
endfunction()
