# The project's test rules (HACKING.md, "Tests"), for every folder's CMakeLists.txt:
#   - no WILL_FAIL: a test that must fail runs under expect-fail.sh STATUS REGEX, which
#     passes only on that exit status and that message;
#   - no PASS_REGULAR_EXPRESSION (it makes ctest ignore the exit status): a test that
#     matches its output runs under expect-output.sh REGEX, which also wants exit 0 and
#     no sanitizer, lockdep or kernel BUG report;
#   - a script that can skip exits 77 saying why, and its test sets SKIP_RETURN_CODE 77.
# The test-rules test (scripts/CMakeLists.txt, check-rules.py) holds every test to them.
include_guard(GLOBAL)
set(EXPECT_OUTPUT_SH "${CMAKE_CURRENT_LIST_DIR}/expect-output.sh")
set(EXPECT_FAIL_SH "${CMAKE_CURRENT_LIST_DIR}/expect-fail.sh")

# expect_command(VAR [STATUS N] [REPORTS_EXPECTED] MATCH REGEX COMMAND CMD [ARG...])
# Sets VAR to the command line that runs CMD under expect-output.sh (STATUS 0, the default)
# or expect-fail.sh (STATUS N > 0): pass it to add_test(NAME ... COMMAND ${VAR}).
# REGEX is matched against stdout and stderr together, '.' matching newlines as in
# PASS_REGULAR_EXPRESSION. Neither REGEX nor an ARG may hold a ';' (a CMake list separator:
# write A|B for "A or B", a newline between the commands of sh -c). An executable target CMD runs as add_test runs it: its file, under the
# cross-compiling emulator in a cross build.
function(expect_command var)
  cmake_parse_arguments(A "REPORTS_EXPECTED" "STATUS;MATCH" "COMMAND" ${ARGN})
  if(A_UNPARSED_ARGUMENTS OR NOT DEFINED A_MATCH OR NOT A_COMMAND)
    message(FATAL_ERROR "expect_command(${var}): usage: expect_command(VAR [STATUS N] "
      "[REPORTS_EXPECTED] MATCH REGEX COMMAND CMD...); unparsed: '${A_UNPARSED_ARGUMENTS}' "
      "(a ';' in REGEX splits it: write A|B)")
  endif()
  list(POP_FRONT A_COMMAND cmd)
  if(TARGET ${cmd})
    get_target_property(type ${cmd} TYPE)
    if(type STREQUAL "EXECUTABLE")
      set(cmd "$<TARGET_FILE:${cmd}>")
      if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
        set(cmd ${CMAKE_CROSSCOMPILING_EMULATOR} "${cmd}")
      endif()
    endif()
  endif()
  set(opts "")
  if(A_REPORTS_EXPECTED)
    list(APPEND opts --reports-expected)
  endif()
  if(NOT DEFINED A_STATUS OR A_STATUS EQUAL 0)
    set(run "${EXPECT_OUTPUT_SH}" ${opts})
  else()
    set(run "${EXPECT_FAIL_SH}" ${opts} ${A_STATUS})
  endif()
  set(${var} ${run} "${A_MATCH}" -- ${cmd} ${A_COMMAND} PARENT_SCOPE)
endfunction()
