# hooks/cmake/ExtDeps.cmake, driven by real CMake configure and build runs of small projects this
# script writes. -D: SOURCE_DIR, BUILD_DIR (extdeps' build tree), WORK, GENERATOR, C_COMPILER; $ENV{EXTDEPS_BIN} is the extdeps
# under test.
#  1. met needs: the configure step passes and what extdeps env gives reaches the build: a
#     library in a prefix of its own (found by pkg-config through PKG_CONFIG_PATH) is found by
#     find_path/find_library without hints and by pkg_check_modules, linked and run;
#  2. a missing need stops the configure step with extdeps's explanation;
#  3. RESULT_VARIABLE asks about an optional group without stopping;
#  4. without the extdeps program the configure step says where it looked;
#  5. find_package(extdeps) finds the build tree's package with the build folder on PATH;
#  6. a program found through $ENV{EXTDEPS_BIN} is cached for the configure the build runs again.
set(greet_id "dep:generic/extdeps-test-greet")
file(REMOVE_RECURSE "${WORK}")

function(run_cmake out_rc out_text)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_rc} "${rc}" PARENT_SCOPE)
  set(${out_text} "${out}${err}" PARENT_SCOPE)
endfunction()
# CMake wraps the lines of its messages: whitespace runs are compared as one blank.
function(expect text pattern what)
  string(REGEX REPLACE "[ \t\n]+" " " text "${text}")
  string(REGEX REPLACE "[ \t\n]+" " " pattern "${pattern}")
  string(FIND "${text}" "${pattern}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${what}: expected '${pattern}' in:\n${text}")
  endif()
endfunction()

# libgreet.a, greet.h and greet.pc under a prefix of their own.
set(prefix "${WORK}/opt/greet")
file(WRITE "${prefix}/include/greet.h" "const char* greet(void);\n")
file(WRITE "${WORK}/greet.c" "const char* greet(void) { return \"hello from libgreet\"; }\n")
find_program(AR NAMES ar REQUIRED)
file(MAKE_DIRECTORY "${prefix}/lib")
foreach(cmd "${C_COMPILER};-c;${WORK}/greet.c;-o;${WORK}/greet.o" "${AR};rcs;${prefix}/lib/libgreet.a;${WORK}/greet.o")
  run_cmake(rc out ${cmd})
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${cmd}: ${out}")
  endif()
endforeach()
file(WRITE "${prefix}/lib/pkgconfig/greet.pc" "prefix=${prefix}\nincludedir=\${prefix}/include\nlibdir=\${prefix}/lib\n\nName: greet\nDescription: says hello\nVersion: 1.2.0\nLibs: -L\${libdir} -lgreet\nCflags: -I\${includedir}\n")
file(WRITE "${WORK}/mappings/pkgconfig.toml" "schema = 1\necosystem = \"pkgconfig\"\ndescription = \"the hook test's own library\"\n\n[[id]]\nid = \"${greet_id}\"\nmodules = [\"greet\"]\n")

# A project: extdeps.toml, and a CMakeLists.txt that includes the hook from the source tree.
function(write_project dir external body)
  file(WRITE "${dir}/extdeps.toml" "${external}\n[tool.extdeps]\nmapping-dirs = [\"${WORK}/mappings\"]\n")
  file(WRITE "${dir}/main.c" "#include <stdio.h>\n#include <greet.h>\nint main(void) { puts(greet()); return 0; }\n")
  file(WRITE "${dir}/CMakeLists.txt" "cmake_minimum_required(VERSION 3.20)\nproject(t C)\nlist(APPEND CMAKE_MODULE_PATH \"${SOURCE_DIR}/hooks/cmake\")\ninclude(ExtDeps)\n${body}\n")
endfunction()
set(configure -G "${GENERATOR}" -DCMAKE_C_COMPILER=${C_COMPILER})
set(ENV{PKG_CONFIG_PATH} "${prefix}/lib/pkgconfig")
unset(ENV{CPATH})
unset(ENV{LIBRARY_PATH})
unset(ENV{CMAKE_PREFIX_PATH})

# 1. Met: the variables reach find_path, find_library, pkg_check_modules and the build.
write_project("${WORK}/met" "[external]\nbuild-requires = [\"dep:virtual/compiler/c\"]\nhost-requires = [\"${greet_id}@>=1.0\"]" [=[
extdeps_require()
message(STATUS "declaration=${EXTDEPS_DECLARATION}")
message(STATUS "variables=${EXTDEPS_ENV_VARIABLES}")
message(STATUS "prefix_path=${CMAKE_PREFIX_PATH}")
find_path(GREET_INCLUDE greet.h REQUIRED NO_CACHE)
find_library(GREET_LIBRARY greet REQUIRED NO_CACHE)
message(STATUS "found=${GREET_INCLUDE}|${GREET_LIBRARY}")
find_package(PkgConfig REQUIRED)
pkg_check_modules(GREET REQUIRED IMPORTED_TARGET greet>=1.0)
add_executable(hello main.c)
target_include_directories(hello PRIVATE ${GREET_INCLUDE})
target_link_libraries(hello PRIVATE ${GREET_LIBRARY})
]=])
run_cmake(rc out ${CMAKE_COMMAND} -S "${WORK}/met" -B "${WORK}/met/build" ${configure})
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "1: configure failed:\n${out}")
endif()
expect("${out}" "-- extdeps: the needs of ${WORK}/met/extdeps.toml are met" "1")
expect("${out}" "-- variables=CMAKE_PREFIX_PATH;CPATH;LD_LIBRARY_PATH;LIBRARY_PATH;PKG_CONFIG_PATH" "1")
expect("${out}" "-- prefix_path=${prefix}" "1")
expect("${out}" "-- found=${prefix}/include" "1")
expect("${out}" "|${prefix}/lib/libgreet.a\n" "1")
expect("${out}" "Found greet, version 1.2.0" "1")
run_cmake(rc out ${CMAKE_COMMAND} --build "${WORK}/met/build")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "1: build failed:\n${out}")
endif()
run_cmake(rc out "${WORK}/met/build/hello")
expect("${out}" "hello from libgreet" "1")
# Editing the declaration configures again.
file(READ "${WORK}/met/build/build.ninja" ninja)
if(GENERATOR STREQUAL "Ninja")
  expect("${ninja}" "${WORK}/met/extdeps.toml" "1: the declaration is a configure dependency")
endif()

# 2. Missing: the configure step stops with the explanation.
write_project("${WORK}/missing" "[external]\nhost-requires = [\"${greet_id}@>=2\", \"dep:generic/zlib\"]" "extdeps_require()")
run_cmake(rc out ${CMAKE_COMMAND} -S "${WORK}/missing" -B "${WORK}/missing/build" ${configure})
if(rc EQUAL 0)
  message(FATAL_ERROR "2: configure passed with a missing need:\n${out}")
endif()
expect("${out}" "extdeps_require: the build,host needs of ${WORK}/missing are not all met" "2")
expect("${out}" "no package manager here provides ${greet_id} >=2" "2")
expect("${out}" "gives version 1.2.0, which is not >=2" "2")

# 3. RESULT_VARIABLE: an optional group that is not met does not stop the configure step.
write_project("${WORK}/optional" "[external]\nhost-requires = [\"${greet_id}\"]\n\n[external.optional-host-requires]\nfuture = [\"${greet_id}@>=2\"]" [=[
extdeps_require()
extdeps_require(OPTIONAL future RESULT_VARIABLE FUTURE_OK)
message(STATUS "future=${FUTURE_OK}")
message(STATUS "why=${FUTURE_OK_EXPLANATION}")
extdeps_require(CATEGORIES host RESULT_VARIABLE HOST_OK)
message(STATUS "host=${HOST_OK}")
]=])
run_cmake(rc out ${CMAKE_COMMAND} -S "${WORK}/optional" -B "${WORK}/optional/build" ${configure})
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "3: configure failed:\n${out}")
endif()
expect("${out}" "-- future=FALSE" "3")
expect("${out}" "-- why=error: 1 of 2 needs of ${WORK}/optional/extdeps.toml are not met" "3")
expect("${out}" "-- host=TRUE" "3")

# 4. No extdeps program.
set(ENV{EXTDEPS_BIN} "${WORK}/no-such-extdeps")
run_cmake(rc out ${CMAKE_COMMAND} -S "${WORK}/met" -B "${WORK}/met/build-none" ${configure})
if(rc EQUAL 0)
  message(FATAL_ERROR "4: configure passed without extdeps")
endif()
expect("${out}" "extdeps_require: the extdeps program was not found" "4")
expect("${out}" "(looked at EXTDEPS_EXECUTABLE, \$ENV{EXTDEPS_BIN}, the cached EXTDEPS_PROGRAM and PATH)" "4")

# 5. find_package(extdeps) with the build folder on PATH, as a user who built extdeps and never
#    installed it: the build tree's package gives the program and the hook.
write_project("${WORK}/found" "[external]\nhost-requires = [\"${greet_id}@>=1.0\"]" [=[
list(POP_BACK CMAKE_MODULE_PATH)  # the hook comes from the package, not from the source tree
find_package(extdeps REQUIRED)
include(ExtDeps)
extdeps_require()
message(STATUS "executable=${EXTDEPS_EXECUTABLE}")
if(TARGET extdeps::extdeps AND TARGET extdeps::cli)
  message(STATUS "targets=yes")
endif()
]=])
unset(ENV{EXTDEPS_BIN})
set(saved_path "$ENV{PATH}")
set(ENV{PATH} "${BUILD_DIR}:$ENV{PATH}")
run_cmake(rc out ${CMAKE_COMMAND} -S "${WORK}/found" -B "${WORK}/found/build" ${configure})
set(ENV{PATH} "${saved_path}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "5: find_package(extdeps) from the build tree failed:\n${out}")
endif()
expect("${out}" "-- executable=${BUILD_DIR}/extdeps" "5")
expect("${out}" "-- targets=yes" "5")
expect("${out}" "-- extdeps: the needs of ${WORK}/found/extdeps.toml are met" "5")

# 6. The program found through $ENV{EXTDEPS_BIN} is cached: the configure step that the build
#    runs again after extdeps.toml changed finds it without that variable.
set(ENV{EXTDEPS_BIN} "${BUILD_DIR}/extdeps")
run_cmake(rc out ${CMAKE_COMMAND} -S "${WORK}/met" -B "${WORK}/met/build-again" ${configure})
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "6: configure failed:\n${out}")
endif()
unset(ENV{EXTDEPS_BIN})
set(ENV{PATH} "/usr/bin:/bin")  # no extdeps on PATH either
file(TOUCH "${WORK}/met/extdeps.toml")
run_cmake(rc out ${CMAKE_COMMAND} --build "${WORK}/met/build-again")
set(ENV{PATH} "${saved_path}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "6: the build's second configure failed:\n${out}")
endif()
expect("${out}" "-- extdeps: the needs of ${WORK}/met/extdeps.toml are met" "6")
file(STRINGS "${WORK}/met/build-again/CMakeCache.txt" cached REGEX "^EXTDEPS_PROGRAM:")
expect("${cached}" "EXTDEPS_PROGRAM:FILEPATH=${BUILD_DIR}/extdeps" "6")
message(STATUS "the CMake hook works")
