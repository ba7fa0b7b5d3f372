# usmpx_add_model(<target> INPUT <path> [SESSION <file.usmpx.json>] [ALGORITHM <name>]
#                 [MODULE <name>] [NO_RUNTIME_HEADERS] [OPTIONS <usmpx options>...])
#
# Plans the TVM model INPUT (an MLF archive or folder, or a TIR dump) with `usmpx export` and adds
# the generated C sources and include folder to <target>. SESSION is a session saved in
# usmp-explorer: its pools, pins and algorithm are what the firmware gets. ALGORITHM overrides the
# session's (or the default greedy_by_size); OPTIONS are passed to `usmpx export` as they are
# (pool options, --pin, --time-limit, --pool-section, ...).
#
# The export runs once when CMake configures (so that the list of generated files is known) and
# again at build time only when INPUT, SESSION, OPTIONS or usmpx itself change. It also writes
# the test harness files (harness/ in the output folder), whose stand-in TVM runtime headers are
# added to the include path unless NO_RUNTIME_HEADERS is given (give it when the firmware has
# TVM's own CRT headers).
#
# Results, for the firmware's own build (also as target properties USMPX_<NAME>):
#   <target>_USMPX_DIR              the export folder
#   <target>_USMPX_LINKER_FRAGMENT  codegen/host/usmpx_pools.ld, a GNU ld fragment to INCLUDE inside
#                                   SECTIONS (its folder is added to the link search path, so
#                                   `INCLUDE usmpx_pools.ld` finds it)
#   <target>_USMPX_HARNESS_DIR      harness/: platform.c (TVMBackendAllocWorkspace on a static arena),
#                                   startup.c and mps2.ld (Cortex-M start-up and linker script for
#                                   qemu-system-arm's MPS2 boards)
function(usmpx_add_model target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_RUNTIME_HEADERS" "INPUT;SESSION;ALGORITHM;MODULE" "OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "usmpx_add_model: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "usmpx_add_model: ${target} is not a target (add_executable/add_library it first)")
  endif()
  if(NOT arg_INPUT)
    message(FATAL_ERROR "usmpx_add_model(${target}): INPUT is required")
  endif()
  get_filename_component(input "${arg_INPUT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${input}")
    message(FATAL_ERROR "usmpx_add_model(${target}): INPUT ${input} does not exist")
  endif()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/usmpx/${target}")
  set(args export "${input}" --out "${out}" --force --harness)
  set(depends "${input}")
  if(IS_DIRECTORY "${input}")
    file(GLOB_RECURSE depends LIST_DIRECTORIES false "${input}/*")
  endif()
  if(arg_SESSION)
    get_filename_component(session "${arg_SESSION}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${session}")
      message(FATAL_ERROR "usmpx_add_model(${target}): SESSION ${session} does not exist")
    endif()
    list(APPEND args --session "${session}")
    list(APPEND depends "${session}")
  endif()
  if(arg_ALGORITHM)
    list(APPEND args --algorithm "${arg_ALGORITHM}")
  endif()
  if(arg_MODULE)
    list(APPEND args --module "${arg_MODULE}")
  endif()
  list(APPEND args ${arg_OPTIONS})

  # The command line, kept in a file that changes only when it does: the build-time export
  # depends on it, so new OPTIONS re-run the export and an unchanged configure does not.
  string(REPLACE ";" "\n" args_text "${args}")
  file(CONFIGURE OUTPUT "${out}.args" CONTENT "${args_text}\n" @ONLY)

  get_target_property(usmpx_exe usmpx::usmpx IMPORTED_LOCATION)
  if(NOT usmpx_exe)
    set(usmpx_exe "$<TARGET_FILE:usmpx::usmpx>")
  endif()
  execute_process(COMMAND "${usmpx_exe}" ${args} RESULT_VARIABLE status OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "usmpx_add_model(${target}): usmpx export failed (${status}):\n${log}")
  endif()
  file(GLOB sources LIST_DIRECTORIES false "${out}/codegen/host/src/*.c")
  if(NOT sources)
    message(FATAL_ERROR "usmpx_add_model(${target}): the export of ${input} has no C sources")
  endif()
  set(stamp "${out}.stamp")
  file(TOUCH "${stamp}")
  add_custom_command(
    OUTPUT "${stamp}" ${sources}
    COMMAND usmpx::usmpx ${args}
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS ${depends} "${out}.args" usmpx::usmpx
    COMMENT "usmpx: planning ${arg_INPUT} for ${target}"
    VERBATIM)
  add_custom_target(${target}_usmpx_export DEPENDS "${stamp}")
  add_dependencies(${target} ${target}_usmpx_export)

  target_sources(${target} PRIVATE ${sources})
  # TVM's generated C is not written for -Wall; its constant pools carry attributes GCC ignores.
  set_source_files_properties(${sources} PROPERTIES COMPILE_OPTIONS "-w")
  target_include_directories(${target} PRIVATE "${out}/codegen/host/include")
  if(NOT arg_NO_RUNTIME_HEADERS)
    target_include_directories(${target} PRIVATE "${out}/harness/include")
  endif()
  target_link_directories(${target} PRIVATE "${out}/codegen/host")

  set(fragment "${out}/codegen/host/usmpx_pools.ld")
  set_target_properties(${target} PROPERTIES USMPX_DIR "${out}" USMPX_LINKER_FRAGMENT "${fragment}"
                                             USMPX_HARNESS_DIR "${out}/harness")
  set(${target}_USMPX_DIR "${out}" PARENT_SCOPE)
  set(${target}_USMPX_LINKER_FRAGMENT "${fragment}" PARENT_SCOPE)
  set(${target}_USMPX_HARNESS_DIR "${out}/harness" PARENT_SCOPE)
endfunction()
