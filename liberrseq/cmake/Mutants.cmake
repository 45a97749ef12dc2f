# Planted bugs, for showing that each checker catches one.
#
# tests/mutants/NAME.sed is a sed script whose first line names the file of
# src/ it edits ("# file: errseq_core.c"), or the public header ("# file:
# errseq.h"). liberrseq_mutant(NAME TARGET) builds a static library TARGET
# from a copy of src/ with that edit applied; it fails at configure time if
# the edit no longer changes anything, so a mutant can never silently become
# the real code. A mutant header goes first on TARGET's public include path,
# so that the inline functions its users compile are the mutant's too.
function(liberrseq_mutant name target)
  set(script ${LIBERRSEQ_SRC_DIR}/../tests/mutants/${name}.sed)
  if(NOT EXISTS ${script})
    message(FATAL_ERROR "no mutant ${name}: ${script} is missing")
  endif()
  file(STRINGS ${script} first LIMIT_COUNT 1)
  string(REGEX REPLACE "^# file: *" "" victim "${first}")
  set(dir ${CMAKE_BINARY_DIR}/liberrseq-mutants/${name})
  file(GLOB srcfiles ${LIBERRSEQ_SRC_DIR}/*)
  file(COPY ${srcfiles} DESTINATION ${dir})
  set(from ${LIBERRSEQ_SRC_DIR}/${victim})
  set(to ${dir}/${victim})
  if(victim STREQUAL "errseq.h")
    set(from ${LIBERRSEQ_INCLUDE_DIR}/${victim})
    set(to ${dir}/include/${victim})
    file(MAKE_DIRECTORY ${dir}/include)
  endif()
  execute_process(COMMAND sed -f ${script} ${from}
    OUTPUT_FILE ${to} RESULT_VARIABLE rc)
  file(READ ${from} before)
  file(READ ${to} after)
  if(NOT rc EQUAL 0 OR before STREQUAL after)
    message(FATAL_ERROR "mutant ${name} does not change ${victim}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${script} ${from})
  set(sources)
  foreach(s ${LIBERRSEQ_SOURCES})
    get_filename_component(base ${s} NAME)
    list(APPEND sources ${dir}/${base})
  endforeach()
  liberrseq_add_library(${target} STATIC SOURCES ${sources} ${ARGN})
  target_include_directories(${target} BEFORE PRIVATE ${dir})
  if(victim STREQUAL "errseq.h")
    target_include_directories(${target} BEFORE PUBLIC ${dir}/include)
  endif()
endfunction()
