# The Debian package: `tools/package.sh` (cpack -G DEB) makes build/kdesched_<version>_<arch>.deb
# holding the binary, our plugins in the default plugin folder, the SDK (headers and CMake
# package, for plugin authors), the default profile as a conffile, the copyright and changelog.
# Its dependencies are computed by dpkg-shlibdeps from what the binaries link.
# `make install` / cpack install what is built; they do not build the tests first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
# The default profile goes to <sysconfdir>/kdesched, under the prefix (`cmake --install build --prefix
# P` writes P/etc/kdesched) — except for the prefixes /usr and /, whose sysconfdir is /etc, the
# rule GNUInstallDirs applies to CMAKE_INSTALL_FULL_SYSCONFDIR. It is applied when installing, not
# here, because the package is installed with the prefix /usr (CPACK_PACKAGING_INSTALL_PREFIX)
# from a build configured for another: the .deb ships /etc/kdesched/default.yaml (Koordinator's
# configuration) and load-aware.yaml (LowNodeLoad on), both conffiles.
install(CODE "
  set(_sysconfdir [[${CMAKE_INSTALL_SYSCONFDIR}]])
  if(NOT IS_ABSOLUTE \"\${_sysconfdir}\")
    if(CMAKE_INSTALL_PREFIX MATCHES [[^/(usr/?)?$]])
      set(_sysconfdir \"/\${_sysconfdir}\")
    else()
      set(_sysconfdir \"\${CMAKE_INSTALL_PREFIX}/\${_sysconfdir}\")
    endif()
  endif()
  file(INSTALL DESTINATION \"\${_sysconfdir}/kdesched\" TYPE FILE
       FILES [[${PROJECT_SOURCE_DIR}/deploy/base/default.yaml]]
             [[${PROJECT_SOURCE_DIR}/deploy/overlays/load-aware/load-aware.yaml]])")
install(FILES ${PROJECT_SOURCE_DIR}/deploy/package/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
set(_changelog ${PROJECT_BINARY_DIR}/changelog.gz)
add_custom_command(OUTPUT ${_changelog}
  COMMAND gzip -9n -c ${PROJECT_SOURCE_DIR}/CHANGELOG.md > ${_changelog}
  DEPENDS ${PROJECT_SOURCE_DIR}/CHANGELOG.md VERBATIM)
add_custom_target(kdesched_changelog ALL DEPENDS ${_changelog})
install(FILES ${_changelog} DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kdesched)
set(CPACK_PACKAGE_VENDOR "kdesched developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Kubernetes descheduler compatible with koord-descheduler, with run-time loaded plugins")
set(CPACK_PACKAGE_DESCRIPTION "kdesched reads koord-descheduler profiles (DeschedulerConfiguration)
and runs them against a cluster (kdesched run) or offline on a snapshot (kdesched simulate).
Its balance plugins, LowNodeLoad and MigrationController among them, are shared libraries
loaded at run time; the package includes the SDK to build more.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# Installed through DESTDIR with the prefix /usr itself (not a staging path ending in /usr), so
# that the install-time sysconfdir rule above sees /usr and puts the profile in /etc.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "kdesched developers <maintainers@kdesched.invalid>")
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# What building a plugin against the SDK needs (header-only; not needed to run kdesched).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "g++ (>= 4:12), cmake (>= 3.16), rapidjson-dev")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/deploy/package/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR})
include(CPack)
