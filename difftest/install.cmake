# cmake --install: difftest for a kernel of your own, out of an install prefix (component
# "difftest"; not in the library's packages):
#
#   bin/difftest                          the host tool
#   bin/liberrseq-difftest-campaign       runs share/liberrseq/difftest/campaign.sh
#   libexec/liberrseq/dtguest             the static guest program
#   share/liberrseq/difftest/             campaign.sh, lib.sh, scenarios/, guest/run-batches.sh,
#                                         kmod/ (the injection module's source), guest.config,
#                                         kconfig-check.sh, chart.gp, README.md and doc/ (the
#                                         reference pages), installed.sh
#   share/liberrseq/vm/                   run.sh, mkinitramfs.sh, lib.sh, the kernel lines' .env
#                                         files, guest/ (init, the guest programs' sources and
#                                         lib/, their fault injector),
#                                         config/base.config
#   share/liberrseq/scripts/              lib.sh, deps.sh and the package lists vm/ asks for
#
# share/liberrseq keeps the source tree's layout, so the scripts find each other as in a
# checkout. installed.sh (written here) tells campaign.sh it runs installed: the host tool
# and the guest program are the installed ones, found relative to it (the prefix can be
# moved or staged with DESTDIR), nothing is configured or built, and --save-cases writes
# under --out. difftest-install (tests/install.sh) checks it.

set(_dt_data ${CMAKE_INSTALL_DATADIR}/liberrseq)
set(_dt_libexec ${CMAKE_INSTALL_LIBEXECDIR}/liberrseq)

# _dt_path(OUT FROM TO PREFIXVAR): TO (an install directory) as the shell sees it from FROM:
# "${PREFIXVAR}/REL" when both are relative to the prefix (relocatable), else TO's full path.
function(_dt_path out from to var)
  if(IS_ABSOLUTE "${from}" OR IS_ABSOLUTE "${to}")
    if(IS_ABSOLUTE "${to}")
      set(${out} "${to}" PARENT_SCOPE)
    else()
      set(${out} "${CMAKE_INSTALL_PREFIX}/${to}" PARENT_SCOPE)
    endif()
  else()
    file(RELATIVE_PATH rel "/prefix/${from}" "/prefix/${to}")
    set(${out} "\${${var}}/${rel}" PARENT_SCOPE)
  endif()
endfunction()

_dt_path(_dt_tool "${_dt_data}/difftest" "${CMAKE_INSTALL_BINDIR}/difftest" DT_DIR)
_dt_path(_dt_guest "${_dt_data}/difftest" "${_dt_libexec}/dtguest" DT_DIR)
file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/installed.sh CONTENT
"# Written by cmake --install (difftest/install.cmake): campaign.sh runs out of an install
# prefix. Sourced by difftest/lib.sh, which has set DT_DIR.
# shellcheck shell=bash
DT_INSTALLED=1
DT_INSTALLED_TOOL=\"${_dt_tool}\"
DT_INSTALLED_GUEST=\"${_dt_guest}\"
")
_dt_path(_dt_campaign "${CMAKE_INSTALL_BINDIR}" "${_dt_data}/difftest/campaign.sh" here)
file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/liberrseq-difftest-campaign CONTENT
"#!/bin/sh
# liberrseq-difftest-campaign: difftest's campaign, installed (${_dt_data}/difftest/campaign.sh);
# --help says what it does.
here=$(dirname \"$(readlink -f \"$0\")\")
exec \"${_dt_campaign}\" \"$@\"
")

install(TARGETS difftest RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT difftest)
install(TARGETS dtguest RUNTIME DESTINATION ${_dt_libexec} COMPONENT difftest)
install(PROGRAMS ${CMAKE_CURRENT_BINARY_DIR}/liberrseq-difftest-campaign
  DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT difftest)

set(_dt_src ${CMAKE_CURRENT_SOURCE_DIR})
set(_dt_top ${PROJECT_SOURCE_DIR})
# difftest/
install(PROGRAMS ${_dt_src}/campaign.sh ${_dt_src}/kconfig-check.sh
  DESTINATION ${_dt_data}/difftest COMPONENT difftest)
install(FILES ${_dt_src}/lib.sh ${_dt_src}/guest.config ${_dt_src}/chart.gp ${_dt_src}/README.md
  ${CMAKE_CURRENT_BINARY_DIR}/installed.sh
  DESTINATION ${_dt_data}/difftest COMPONENT difftest)
install(DIRECTORY ${_dt_src}/scenarios/ DESTINATION ${_dt_data}/difftest/scenarios
  COMPONENT difftest FILES_MATCHING PATTERN "*.dt")
install(DIRECTORY ${_dt_src}/doc/ DESTINATION ${_dt_data}/difftest/doc
  COMPONENT difftest FILES_MATCHING PATTERN "*.md")
install(PROGRAMS ${_dt_src}/guest/run-batches.sh DESTINATION ${_dt_data}/difftest/guest
  COMPONENT difftest)
install(PROGRAMS ${_dt_src}/kmod/build.sh DESTINATION ${_dt_data}/difftest/kmod
  COMPONENT difftest)
install(FILES ${_dt_src}/kmod/Kbuild ${_dt_src}/kmod/errseq_inject.c
  DESTINATION ${_dt_data}/difftest/kmod COMPONENT difftest)
# vm/: the guest runner (run.sh, mkinitramfs.sh: the initramfs, its guest programs compiled
# from their sources on first use) and the kernel lines
file(GLOB _dt_vm_env ${_dt_top}/vm/kernel*.env)
install(PROGRAMS ${_dt_top}/vm/run.sh ${_dt_top}/vm/mkinitramfs.sh
  DESTINATION ${_dt_data}/vm COMPONENT difftest)
install(FILES ${_dt_top}/vm/lib.sh ${_dt_top}/vm/kernel-line.sh ${_dt_vm_env}
  DESTINATION ${_dt_data}/vm COMPONENT difftest)
file(GLOB _dt_vm_guest_c ${_dt_top}/vm/guest/*.c)
file(GLOB _dt_vm_guest_lib ${_dt_top}/vm/guest/lib/*.[ch])
install(PROGRAMS ${_dt_top}/vm/guest/init DESTINATION ${_dt_data}/vm/guest COMPONENT difftest)
install(FILES ${_dt_vm_guest_c} DESTINATION ${_dt_data}/vm/guest COMPONENT difftest)
install(FILES ${_dt_vm_guest_lib} DESTINATION ${_dt_data}/vm/guest/lib COMPONENT difftest)
install(FILES ${_dt_top}/vm/config/base.config DESTINATION ${_dt_data}/vm/config
  COMPONENT difftest)
# scripts/: what vm/ and difftest/ source and run (deps.sh vm: QEMU and the guest's userland)
install(PROGRAMS ${_dt_top}/scripts/deps.sh DESTINATION ${_dt_data}/scripts COMPONENT difftest)
install(FILES ${_dt_top}/scripts/lib.sh DESTINATION ${_dt_data}/scripts COMPONENT difftest)
install(FILES ${_dt_top}/scripts/packages/vm.txt ${_dt_top}/scripts/packages/difftest.txt
  DESTINATION ${_dt_data}/scripts/packages COMPONENT difftest)
