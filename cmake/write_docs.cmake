# Writes extdeps.1, extdeps.bash, _extdeps and extdeps.fish into OUT by running PROGRAM (the built
# extdeps): `extdeps manual` and `extdeps completion bash|zsh|fish`. No plugin is looked for:
# PATH and EXTDEPS_PLUGIN_PATH are emptied, so what is written is this build's alone.
set(ENV{PATH} "")
set(ENV{EXTDEPS_PLUGIN_PATH} "")
file(MAKE_DIRECTORY "${OUT}")
function(write file)
  execute_process(COMMAND "${PROGRAM}" ${ARGN} OUTPUT_FILE "${OUT}/${file}.tmp" RESULT_VARIABLE rc
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} ${ARGN} failed (${rc}): ${err}")
  endif()
  file(RENAME "${OUT}/${file}.tmp" "${OUT}/${file}")
endfunction()
write(extdeps.1 manual)
write(extdeps.bash completion bash)
write(_extdeps completion zsh)
write(extdeps.fish completion fish)
