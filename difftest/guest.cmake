# Guest campaigns (labels difftest-guest, guest): the CI budget of difftest/campaign.sh on each vm/ kernel,
# and the checker shown to bite live in the guest. They need the vm/ kernel builds
# (fixtures vm_kernel_stock / vm_kernel_patched[-6.12] from vm/CMakeLists.txt).
set(_dt "${CMAKE_CURRENT_SOURCE_DIR}")
set(_dt_env "LIBERRSEQ_CACHE=${LIBERRSEQ_CACHE}")
# The CI budget on both flavours of every kernel line (6.12's tests end in -6.12).
foreach(line IN LISTS LIBERRSEQ_KERNEL_LINES)
  liberrseq_kline(${line} sfx lenv)
  foreach(flavour stock patched)
    add_test(NAME difftest-guest-${flavour}${sfx}
      COMMAND "${_dt}/campaign.sh" --ci --kernels ${flavour} --build "${CMAKE_BINARY_DIR}"
              --out "${CMAKE_CURRENT_BINARY_DIR}/campaign-${flavour}${sfx}" --timeout 1200)
    set_tests_properties(difftest-guest-${flavour}${sfx} PROPERTIES
      LABELS "difftest-guest;guest"
      ENVIRONMENT "${_dt_env};${lenv}"
      FIXTURES_REQUIRED vm_kernel_${flavour}${sfx}
      RESOURCE_LOCK difftest_guest
      TIMEOUT 1800)
  endforeach()
endforeach()
# A planted model mistake must show as divergences on the real kernel (scenarios only).
add_test(NAME difftest-guest-bites
  COMMAND "${_dt}/campaign.sh" --kernels stock --contract stock --ops 0 --bug sample_raw
          --shrink-rounds 0 --build "${CMAKE_BINARY_DIR}"
          --out "${CMAKE_CURRENT_BINARY_DIR}/campaign-bites" --timeout 900)
set_tests_properties(difftest-guest-bites PROPERTIES
  LABELS "difftest-guest;guest"
  ENVIRONMENT "${_dt_env}"
  FIXTURES_REQUIRED vm_kernel_stock
  RESOURCE_LOCK difftest_guest
  TIMEOUT 1200)
# campaign.sh --shard: the same budget as one run and as 2 shards merged gives the same
# report tables and exit status (stock, ext2, the scenarios and 2 random scripts).
# tests/shards.sh exits 0 only after printing "shards: PASS": its status is the verdict.
add_test(NAME difftest-guest-shards
  COMMAND "${_dt}/tests/shards.sh" "${CMAKE_BINARY_DIR}" "${CMAKE_CURRENT_BINARY_DIR}/campaign-shards")
set_tests_properties(difftest-guest-shards PROPERTIES
  LABELS "difftest-guest;guest"
  ENVIRONMENT "${_dt_env}"
  FIXTURES_REQUIRED vm_kernel_stock
  RESOURCE_LOCK difftest_guest
  TIMEOUT 1800)
# What the guest kernel's trace ring buffer loses is counted, never passed as a clean trace
# (tests/trace-losses.sh: a 4 KiB buffer, 1024 events in one fsync; it prints
# "trace-losses: ... PASS" and exits 0 only when the guest, compare and judge all said so).
add_test(NAME difftest-guest-trace-losses
  COMMAND "${_dt}/tests/trace-losses.sh" "${CMAKE_BINARY_DIR}"
          "${CMAKE_CURRENT_BINARY_DIR}/campaign-trace-losses")
set_tests_properties(difftest-guest-trace-losses PROPERTIES
  LABELS "difftest-guest;guest"
  ENVIRONMENT "${_dt_env}"
  FIXTURES_REQUIRED vm_kernel_stock
  RESOURCE_LOCK difftest_guest
  TIMEOUT 1200)
