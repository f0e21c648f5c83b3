# ExtDeps.cmake: a project's [external] needs (PEP 725), checked by extdeps when CMake configures.
#
#   include(ExtDeps)                       # from find_package(extdeps), or CMAKE_MODULE_PATH
#   extdeps_require()                      # the declaration in CMAKE_CURRENT_SOURCE_DIR
#   extdeps_require(path/to/project CATEGORIES build host OPTIONAL gpu MANAGERS apt)
#   extdeps_require(OPTIONAL gpu RESULT_VARIABLE have_gpu)   # asks; does not stop
#
# A need that is not met stops the configure step with extdeps's explanation and the commands
# that install it; with RESULT_VARIABLE <var>, <var> is set to FALSE instead, <var>_EXPLANATION
# holds the explanation, and nothing else is set (for an optional part of a project). Once every need is met, what a build needs to find them is set (from
# `extdeps env --format cmake`): CMAKE_PREFIX_PATH, CMAKE_INCLUDE_PATH (CPATH),
# CMAKE_LIBRARY_PATH (LIBRARY_PATH), CMAKE_PROGRAM_PATH (PATH) and CUDAToolkit_ROOT get the
# entries first; the process environment gets every variable (PKG_CONFIG_PATH for
# pkg_check_modules, CUDA_HOME); EXTDEPS_ENV_VARIABLES names them and EXTDEPS_ENV_<NAME> holds
# each. EXTDEPS_DECLARATION is the file read; editing it configures again.
#
# The extdeps program: EXTDEPS_EXECUTABLE (set by find_package(extdeps)), else $ENV{EXTDEPS_BIN},
# else the cached EXTDEPS_PROGRAM (what an earlier configure found), else extdeps on PATH. See hooks/cmake/README.md.
include_guard(GLOBAL)

function(_extdeps_program out)
  # What was found is cached (EXTDEPS_PROGRAM), so a configure step that the build tool runs
  # again (extdeps.toml edited) finds it without the environment of the first one.
  if(EXTDEPS_EXECUTABLE)
    set(exe "${EXTDEPS_EXECUTABLE}")
  elseif(DEFINED ENV{EXTDEPS_BIN} AND NOT "$ENV{EXTDEPS_BIN}" STREQUAL "")
    set(EXTDEPS_PROGRAM "$ENV{EXTDEPS_BIN}" CACHE FILEPATH "the extdeps program (extdeps_require)" FORCE)
    set(exe "$ENV{EXTDEPS_BIN}")
  else()
    find_program(EXTDEPS_PROGRAM extdeps DOC "the extdeps program (extdeps_require)")
    set(exe "${EXTDEPS_PROGRAM}")
  endif()
  if(NOT exe OR NOT EXISTS "${exe}")
    message(FATAL_ERROR
      "extdeps_require: the extdeps program was not found (looked at EXTDEPS_EXECUTABLE, "
      "\$ENV{EXTDEPS_BIN}, the cached EXTDEPS_PROGRAM and PATH); install extdeps, or set "
      "EXTDEPS_BIN to it")
  endif()
  set(${out} "${exe}" PARENT_SCOPE)
endfunction()

function(_extdeps_require out_file out_ok)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "RESULT_VARIABLE" "CATEGORIES;OPTIONAL;MANAGERS")
  list(LENGTH ARG_UNPARSED_ARGUMENTS n)
  if(n GREATER 1)
    message(FATAL_ERROR "extdeps_require: one project path at most, got: ${ARG_UNPARSED_ARGUMENTS}")
  elseif(n EQUAL 1)
    set(path "${ARG_UNPARSED_ARGUMENTS}")
    if(NOT IS_ABSOLUTE "${path}")
      set(path "${CMAKE_CURRENT_SOURCE_DIR}/${path}")
    endif()
  else()
    set(path "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  if(NOT ARG_CATEGORIES)
    set(ARG_CATEGORIES build host)
  endif()
  string(REPLACE ";" "," categories "${ARG_CATEGORIES}")
  set(args env "${path}" --format cmake --category "${categories}")
  foreach(g IN LISTS ARG_OPTIONAL)
    list(APPEND args --optional "${g}")
  endforeach()
  if(ARG_MANAGERS)
    string(REPLACE ";" "," managers "${ARG_MANAGERS}")
    list(APPEND args --manager "${managers}")
  endif()

  _extdeps_program(exe)
  execute_process(COMMAND "${exe}" ${args}
    RESULT_VARIABLE rc OUTPUT_VARIABLE script ERROR_VARIABLE explanation)
  string(STRIP "${explanation}" explanation)
  # Indented, CMake prints the explanation as it is instead of rewrapping it.
  string(REPLACE "\n" "\n  " indented "  ${explanation}")
  if(ARG_RESULT_VARIABLE)
    set(${ARG_RESULT_VARIABLE} FALSE PARENT_SCOPE)
    set(${ARG_RESULT_VARIABLE}_EXPLANATION "${explanation}" PARENT_SCOPE)
  endif()
  set(${out_ok} FALSE PARENT_SCOPE)
  if(rc EQUAL 1 AND ARG_RESULT_VARIABLE)
    return()
  elseif(rc EQUAL 1)
    message(FATAL_ERROR
      "extdeps_require: the ${categories} needs of ${path} are not all met\n"
      "${indented}\n"
      "install what is missing (the commands above, or: extdeps install ${path} "
      "--category ${categories}), then configure again")
  elseif(NOT rc EQUAL 0)
    message(FATAL_ERROR "extdeps_require: extdeps could not check ${path} (exit ${rc}):\n${indented}")
  endif()

  # Met, with warnings (a CUDA toolkit without a driver here, a legacy spelling): shown.
  if(NOT explanation STREQUAL "")
    message(STATUS "extdeps:\n${indented}")
  endif()

  string(MAKE_C_IDENTIFIER "${path}" key)
  set(file "${CMAKE_CURRENT_BINARY_DIR}/extdeps-env-${key}.cmake")
  file(WRITE "${file}" "${script}")
  set(${out_file} "${file}" PARENT_SCOPE)
  set(${out_ok} TRUE PARENT_SCOPE)
  if(ARG_RESULT_VARIABLE)
    set(${ARG_RESULT_VARIABLE} TRUE PARENT_SCOPE)
    set(${ARG_RESULT_VARIABLE}_EXPLANATION "" PARENT_SCOPE)
  endif()
endfunction()

# A macro, so that what the script sets lands in the caller's scope.
macro(extdeps_require)
  _extdeps_require(_extdeps_env_file _extdeps_ok ${ARGN})
  if(_extdeps_ok)
    include("${_extdeps_env_file}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${EXTDEPS_DECLARATION}")
    message(STATUS "extdeps: the needs of ${EXTDEPS_DECLARATION} are met")
  endif()
  unset(_extdeps_env_file)
  unset(_extdeps_ok)
endmacro()
