# The installed tree, used from outside: cmake --install into a fresh prefix, then a consumer
# (tests/api/consumer/) configured with find_package(extdeps) against that prefix alone, built
# and run (C++ and C); the C one built again from the pkg-config file; and the installed CLI run.
# -D: BUILD_DIR, SOURCE_DIR, WORK, GENERATOR, C_COMPILER, CXX_COMPILER, PKG_CONFIG, SANITIZE (the
# library was built with ASan and UBSan: its consumers are too, so that the runtime loads first).
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()
function(expect text pattern)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "expected /${pattern}/ in:\n${text}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK}")
set(prefix "${WORK}/prefix")
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")

# What is installed, and that no header reaches past the public ones.
file(GLOB headers "${prefix}/include/extdeps/*.h")
foreach(h IN LISTS headers)
  file(STRINGS "${h}" includes REGEX "^#include")
  foreach(line IN LISTS includes)
    if(line MATCHES "\"" AND NOT line MATCHES "\"extdeps/")
      message(FATAL_ERROR "${h} includes a header that is not installed: ${line}")
    endif()
    if(line MATCHES "solv|toml|nlohmann|pkgconf|curl|CLI")
      message(FATAL_ERROR "${h} includes a dependency's header: ${line}")
    endif()
  endforeach()
endforeach()
file(GLOB_RECURSE libs "${prefix}/lib*/libextdeps.so")
list(LENGTH libs n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one libextdeps.so under ${prefix}, found: ${libs}")
endif()
list(GET libs 0 lib)
get_filename_component(libdir "${lib}" DIRECTORY)
foreach(f bin/extdeps share/extdeps/mappings/debian.toml share/extdeps/python/extdeps_backend.py
          include/extdeps/extdeps.h include/extdeps/extdeps_c.h share/man/man1/extdeps.1
          share/bash-completion/completions/extdeps share/zsh/vendor-completions/_extdeps
          share/fish/vendor_completions.d/extdeps.fish)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "not installed: ${prefix}/${f}")
  endif()
endforeach()

# The consumer, through find_package(extdeps) with nothing but the prefix.
set(project "${SOURCE_DIR}/examples/cmake-xml")
set(sanitize_flags "")
if(SANITIZE)
  set(sanitize_flags -fsanitize=address,undefined)
endif()
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/api/consumer" -B "${WORK}/consumer" -G "${GENERATOR}"
    -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    "-DCMAKE_C_FLAGS=${sanitize_flags}" "-DCMAKE_CXX_FLAGS=${sanitize_flags}" "-DCMAKE_EXE_LINKER_FLAGS=${sanitize_flags}"
    "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
run(${CMAKE_COMMAND} --build "${WORK}/consumer")
file(READ "${WORK}/consumer/cli.txt" cli)
expect("${cli}" "^${prefix}/bin/extdeps")

run("${WORK}/consumer/consumer_cxx" "${project}")
message(STATUS "consumer_cxx:\n${out}")
expect("${out}" "version [0-9]+\\.[0-9]+\\.[0-9]+\n")
expect("${out}" "declaration ${project}/extdeps.toml needs 10\n")
expect("${out}" "need host dep:generic/libxml2\n")
expect("${out}" "checked 6 all_satisfied [01]\n")
expect("${out}" "host [^\n]+ cuda ")
# The library found the CLI installed beside it and ran the driver probe in it.
if(out MATCHES "no extdeps binary to run the probe in")
  message(FATAL_ERROR "the installed library did not find the installed extdeps beside it:\n${out}")
endif()
expect("${out}" "bad path code 2\n")

run("${WORK}/consumer/consumer_c" "${project}")
message(STATUS "consumer_c:\n${out}")
expect("${out}" "load 0\n")
expect("${out}" "\"id\": \"dep:generic/openssl\"")
expect("${out}" "check [01]\n")
expect("${out}" "bad path 2: ")

# The pkg-config file, from its own folder: the C consumer again, by hand.
set(ENV{PKG_CONFIG_PATH} "${libdir}/pkgconfig")
run(${PKG_CONFIG} --cflags --libs extdeps)
string(STRIP "${out}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
expect("${flags}" "-lextdeps")
run(${C_COMPILER} ${sanitize_flags} "${SOURCE_DIR}/tests/api/consumer/consumer.c" ${flags} "-Wl,-rpath,${libdir}" -o "${WORK}/consumer_c_pc")
run("${WORK}/consumer_c_pc" "${project}")
expect("${out}" "load 0\n")

# The installed CLI reads the mapping tables installed beside it.
run("${prefix}/bin/extdeps" show dep:generic/zlib --json --no-cache)
expect("${out}" "\"table\": \"${prefix}/share/extdeps/mappings/debian.toml\"")
message(STATUS "the installed tree at ${prefix} works")
