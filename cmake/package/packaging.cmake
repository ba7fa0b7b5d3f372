# What `cmake --install` and `cpack -G DEB` add beyond the binaries: the CMake package, the man
# page (help2man, from usmpx's own help), bash completion, and the Debian package's settings.

# The CMake package: find_package(usmpx) and usmpx_add_model() (cmake/package/).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(USMPX_INSTALL_BINDIR ${CMAKE_INSTALL_BINDIR})
set(USMPX_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/usmpx)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/usmpxConfig.cmake.in ${CMAKE_BINARY_DIR}/package/usmpxConfig.cmake
                              INSTALL_DESTINATION ${USMPX_CMAKE_DIR} PATH_VARS USMPX_INSTALL_BINDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/usmpxConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${CMAKE_BINARY_DIR}/package/usmpxConfig.cmake ${CMAKE_BINARY_DIR}/package/usmpxConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/usmpxAddModel.cmake
        DESTINATION ${USMPX_CMAKE_DIR})

install(FILES ${CMAKE_SOURCE_DIR}/resources/bash-completion/usmpx
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)

find_program(USMPX_HELP2MAN help2man)
if(USMPX_SANITIZE OR USMPX_FUZZ)
  # Sanitizer builds are for tests, not for installing: no man page, no .deb test.
  message(STATUS "sanitizer build: no man page for usmpx")
elseif(USMPX_HELP2MAN)
  set(man ${CMAKE_BINARY_DIR}/man/usmpx.1.gz)
  add_custom_command(OUTPUT ${man}
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
                     COMMAND ${CMAKE_COMMAND} -DUSMPX=$<TARGET_FILE:usmpx> -DHELP2MAN=${USMPX_HELP2MAN} -DOUT=${man}
                             -P ${CMAKE_CURRENT_LIST_DIR}/man_page.cmake
                     DEPENDS usmpx ${CMAKE_CURRENT_LIST_DIR}/man_page.cmake
                     COMMENT "help2man: usmpx.1" VERBATIM)
  add_custom_target(usmpx_man ALL DEPENDS ${man})
  install(FILES ${man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: no man page for usmpx (scripts/install-deps.sh installs it)")
endif()

# cpack -G DEB: one package with both programs; dependencies from dpkg-shlibdeps.
set(CPACK_PACKAGE_NAME usmp-explorer)
set(CPACK_PACKAGE_VENDOR "USMP Explorer")
set(CPACK_PACKAGE_CONTACT "USMP Explorer developers <usmpx@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Static memory plans for TVM models: explorer and command line")
set(CPACK_PACKAGE_DESCRIPTION
    "USMP Explorer shows, edits and re-plans the static memory plan of a model compiled by Apache TVM for\n"
    "microcontrollers (Model Library Format, generated sources or TIR dumps), and exports firmware-ready C.\n"
    "usmp-explorer is the desktop application, usmpx the command line; the CMake package\n"
    "(find_package(usmpx)) plans a model inside a firmware build.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake, gcc")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "gcc-arm-none-eabi, libnewlib-arm-none-eabi, qemu-system-arm")
set(CPACK_STRIP_FILES ON)
include(CPack)
