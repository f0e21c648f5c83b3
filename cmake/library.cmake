# The installed library: libextdeps.so exports only the public API (core/include/extdeps/, marked
# EXTDEPS_API) and links everything else privately, so a program that uses it needs its headers
# and the shared object, not libsolv's, toml++'s or libcurl's development files. The CLI links
# the static extdeps_lib, as the tests do. docs/library.md says why.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

file(GLOB EXTDEPS_API_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/core/api/*.cc)
add_library(extdeps_shared SHARED ${EXTDEPS_API_SOURCES})
add_library(extdeps::extdeps ALIAS extdeps_shared)
set_target_properties(extdeps_shared PROPERTIES
  OUTPUT_NAME extdeps EXPORT_NAME extdeps
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
  CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
target_link_libraries(extdeps_shared PRIVATE extdeps_lib)
target_include_directories(extdeps_shared INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/core/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(extdeps_shared INTERFACE cxx_std_17)
# Nothing of libsolv, libpkgconf or libcurl is exported: symbols of the static archive stay inside.
target_link_options(extdeps_shared PRIVATE "LINKER:--exclude-libs,ALL" "LINKER:--no-undefined")

# Where the library finds the CLI (the driver probe's child) and, beside it, the mapping tables.
file(RELATIVE_PATH EXTDEPS_RELATIVE_BINDIR "${CMAKE_INSTALL_FULL_LIBDIR}" "${CMAKE_INSTALL_FULL_BINDIR}")
set_property(SOURCE ${EXTDEPS_API_SOURCES} APPEND PROPERTY
  COMPILE_DEFINITIONS EXTDEPS_RELATIVE_BINDIR="${EXTDEPS_RELATIVE_BINDIR}")

install(TARGETS extdeps EXPORT extdepsTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
set_target_properties(extdeps PROPERTIES EXPORT_NAME cli)
install(TARGETS extdeps_shared EXPORT extdepsTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY core/include/extdeps DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(DIRECTORY mappings/ DESTINATION ${CMAKE_INSTALL_DATADIR}/extdeps/mappings FILES_MATCHING PATTERN "*.toml")

set(EXTDEPS_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/extdeps)
install(EXPORT extdepsTargets NAMESPACE extdeps:: DESTINATION ${EXTDEPS_CMAKE_DIR})
configure_package_config_file(cmake/extdepsConfig.cmake.in ${PROJECT_BINARY_DIR}/install-config/extdepsConfig.cmake
  INSTALL_DESTINATION ${EXTDEPS_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/extdepsConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/install-config/extdepsConfig.cmake ${PROJECT_BINARY_DIR}/extdepsConfigVersion.cmake
  hooks/cmake/ExtDeps.cmake DESTINATION ${EXTDEPS_CMAKE_DIR})

# The build tree is a package too (find_package(extdeps) with the build folder on PATH or in
# CMAKE_PREFIX_PATH, or extdeps_DIR): its targets as built here, ExtDeps.cmake from the source.
export(EXPORT extdepsTargets NAMESPACE extdeps:: FILE ${PROJECT_BINARY_DIR}/extdepsTargets.cmake)
file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/extdepsConfig.cmake @ONLY CONTENT [=[
# find_package(extdeps) from the build tree @PROJECT_BINARY_DIR@ (written by CMake,
# cmake/library.cmake): the targets as built there, the CMake hook from the source tree.
include("${CMAKE_CURRENT_LIST_DIR}/extdepsTargets.cmake")
get_target_property(EXTDEPS_EXECUTABLE extdeps::cli LOCATION)
list(APPEND CMAKE_MODULE_PATH "@PROJECT_SOURCE_DIR@/hooks/cmake")
set(extdeps_FOUND TRUE)
]=])

# extdeps.pc finds its prefix from its own folder, so the tree can be installed anywhere.
file(RELATIVE_PATH EXTDEPS_PC_TO_PREFIX "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" EXTDEPS_PC_TO_PREFIX "${EXTDEPS_PC_TO_PREFIX}")
configure_file(cmake/extdeps.pc.in ${PROJECT_BINARY_DIR}/extdeps.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/extdeps.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The Python wrapper backend, for backend-path or PYTHONPATH (hooks/python/README.md).
install(FILES hooks/python/extdeps_backend.py DESTINATION ${CMAKE_INSTALL_DATADIR}/extdeps/python)

# The manual page and the shell completions, written by the program itself from its command line
# (`extdeps manual`, `extdeps completion SHELL`: core/cli/manual_command.h) so that they say
# exactly what this build accepts, and installed where man and the shells look for them. No
# plugin is looked for while they are written (cmake/write_docs.cmake empties the search path).
if(NOT CMAKE_CROSSCOMPILING)
  set(EXTDEPS_DOCS_DIR ${PROJECT_BINARY_DIR}/share)
  set(EXTDEPS_DOCS ${EXTDEPS_DOCS_DIR}/extdeps.1 ${EXTDEPS_DOCS_DIR}/extdeps.bash ${EXTDEPS_DOCS_DIR}/_extdeps
    ${EXTDEPS_DOCS_DIR}/extdeps.fish)
  add_custom_command(OUTPUT ${EXTDEPS_DOCS}
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:extdeps> -DOUT=${EXTDEPS_DOCS_DIR}
      -P ${PROJECT_SOURCE_DIR}/cmake/write_docs.cmake
    DEPENDS extdeps ${PROJECT_SOURCE_DIR}/cmake/write_docs.cmake
    COMMENT "Writing the manual page and the shell completions")
  add_custom_target(extdeps_docs ALL DEPENDS ${EXTDEPS_DOCS})
  install(FILES ${EXTDEPS_DOCS_DIR}/extdeps.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${EXTDEPS_DOCS_DIR}/extdeps.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
    RENAME extdeps)
  install(FILES ${EXTDEPS_DOCS_DIR}/_extdeps DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
  install(FILES ${EXTDEPS_DOCS_DIR}/extdeps.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
endif()
