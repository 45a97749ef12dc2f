# What the tests need from the toolchain and the system, found once:
#
#   LIBERRSEQ_HAVE_TSAN        -fsanitize=thread compiles and links
#   LIBERRSEQ_HAVE_ASAN_UBSAN  -fsanitize=address,undefined compiles and links
#
# Debian 12's cross compilers lack libtsan for armhf, i386, s390x and
# riscv64, and libubsan for riscv64: there the sanitizer builds and tests
# are left out. A native build must run every test, so by default
# (LIBERRSEQ_REQUIRE_TEST_DEPS, ON unless cross-compiling) a missing
# runtime, or a missing Check (tests/CMakeLists.txt), stops the configure.

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
