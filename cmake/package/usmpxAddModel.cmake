# usmpx_add_model(<target> INPUT <path> [SESSION <file.usmpx.json>] [ALGORITHM <name>]
#                 [MODULE <name>] [NO_RUNTIME_HEADERS] [OPTIONS <usmpx options>...])
# usmpx_add_model(<target> INPUT <model.tflite|program.pte|firmware.usmpx-firmware.json>
#                 [SESSION <file.usmpx.json>] [ALGORITHM <name>] [TFLM_KERNELS <kernels>]
#                 [TFLM_TARGET <target>] [MODEL_SECTION <section>] [OPTIONS <usmpx options>...])
#
# Plans the model INPUT with `usmpx export` and adds what the firmware compiles of it to <target>.
# SESSION is a session saved in usmp-explorer: its pools, pins and algorithm (and, for TFLite
# Micro, its kernels and target) are what the firmware gets. ALGORITHM overrides the session's (or
# the input's default); OPTIONS are passed to `usmpx export` as they are (pool options, --pin,
# --time-limit, --pool-section, ...).
#
# The export runs once when CMake configures (so that the list of generated files is known) and
# again at build time only when INPUT (for a firmware file: it and every model it names), SESSION,
# the options or usmpx itself change.
#
# TVM (an MLF archive or folder, or a TIR dump): adds the generated C sources and include folder.
# It also writes the test harness files (harness/ in the output folder), whose stand-in TVM runtime
# headers are added to the include path unless NO_RUNTIME_HEADERS is given (give it when the
# firmware has TVM's own CRT headers).
#
# TFLite Micro (.tflite), ExecuTorch (.pte) and firmware files of several models: adds
# <name>_model_data.cc (the planned model as a 16-byte aligned const array) and the export folder
# as an include folder, which holds <name>_model_data.h, <name>_memory.h (kTensorArenaSize for the
# TFLM_KERNELS/TFLM_TARGET build; each method's planned buffers and method allocator) and the
# planned copy; a firmware file puts each model in a folder of its name (include
# "<model>/<model>_memory.h") beside usmpx_firmware.h. MODEL_SECTION places the arrays in a linker
# section. <name> is the model file's name without extension (a firmware file: the model's name).
#
# Results, for the firmware's own build (also as target properties USMPX_<NAME>):
#   <target>_USMPX_DIR              the export folder
# TVM:
#   <target>_USMPX_LINKER_FRAGMENT  codegen/host/usmpx_pools.ld, a GNU ld fragment to INCLUDE inside
#                                   SECTIONS (its folder is added to the link search path, so
#                                   `INCLUDE usmpx_pools.ld` finds it)
#   <target>_USMPX_HARNESS_DIR      harness/: platform.c (TVMBackendAllocWorkspace on a static arena),
#                                   startup.c and mps2.ld (Cortex-M start-up and linker script for
#                                   qemu-system-arm's MPS2 boards)
# TFLite Micro, ExecuTorch, firmware files:
#   <target>_USMPX_MODEL_FILES      the planned model copies (one per model)
#   <target>_USMPX_MEMORY_HEADERS   the <name>_memory.h files (and usmpx_firmware.h of a firmware file)
function(usmpx_add_model target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_RUNTIME_HEADERS"
                        "INPUT;SESSION;ALGORITHM;MODULE;TFLM_KERNELS;TFLM_TARGET;MODEL_SECTION" "OPTIONS")
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
  _usmpx_model_file_kind("${input}" model_kind)
  if(model_kind)
    _usmpx_add_model_file(${target} "${input}" "${model_kind}")
    foreach(result DIR MODEL_FILES MEMORY_HEADERS)
      set(${target}_USMPX_${result} "${${target}_USMPX_${result}}" PARENT_SCOPE)
    endforeach()
    return()
  endif()
  foreach(option TFLM_KERNELS TFLM_TARGET MODEL_SECTION)
    if(arg_${option})
      message(FATAL_ERROR "usmpx_add_model(${target}): ${option} is for .tflite, .pte and firmware files, "
                          "not for ${input}")
    endif()
  endforeach()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/usmpx/${target}")
  set(args export "${input}" --out "${out}" --force --harness)
  set(depends "${input}")
  if(IS_DIRECTORY "${input}")
    file(GLOB_RECURSE depends LIST_DIRECTORIES false "${input}/*")
  endif()
  _usmpx_session_arguments(${target})
  if(arg_MODULE)
    list(APPEND args --module "${arg_MODULE}")
  endif()
  list(APPEND args ${arg_OPTIONS})
  _usmpx_export_now(${target} "${out}")
  file(GLOB sources LIST_DIRECTORIES false "${out}/codegen/host/src/*.c")
  if(NOT sources)
    message(FATAL_ERROR "usmpx_add_model(${target}): the export of ${input} has no C sources")
  endif()
  _usmpx_export_at_build_time(${target} "${out}" "${sources}" "")

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

# Sets `result` to tflite, executorch or firmware for a model file usmpx exports as firmware
# sources (a firmware file: *.usmpx-firmware.json, or a .json whose "format" is "usmpx-firmware"),
# else to "".
function(_usmpx_model_file_kind input result)
  string(TOLOWER "${input}" lower)
  set(kind "")
  if(lower MATCHES "\\.tflite$")
    set(kind tflite)
  elseif(lower MATCHES "\\.pte$")
    set(kind executorch)
  elseif(lower MATCHES "\\.usmpx-firmware\\.json$")
    set(kind firmware)
  elseif(lower MATCHES "\\.json$" AND NOT IS_DIRECTORY "${input}")
    file(READ "${input}" text)
    string(JSON format ERROR_VARIABLE not_json GET "${text}" format)
    if(NOT not_json AND format STREQUAL "usmpx-firmware")
      set(kind firmware)
    endif()
  endif()
  set(${result} "${kind}" PARENT_SCOPE)
endfunction()

# The models a firmware file names (absolute paths): what its export depends on besides the file.
function(_usmpx_firmware_models file result)
  file(READ "${file}" text)
  get_filename_component(folder "${file}" DIRECTORY)
  string(JSON count ERROR_VARIABLE error LENGTH "${text}" models)
  if(error)
    message(FATAL_ERROR "usmpx_add_model: ${file} has no \"models\" list: ${error}")
  endif()
  set(models "")
  if(count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON path GET "${text}" models ${i} path)
      get_filename_component(path "${path}" ABSOLUTE BASE_DIR "${folder}")
      if(IS_DIRECTORY "${path}")
        file(GLOB_RECURSE inside LIST_DIRECTORIES false "${path}/*")
        list(APPEND models ${inside})
      else()
        list(APPEND models "${path}")
      endif()
    endforeach()
  endif()
  set(${result} "${models}" PARENT_SCOPE)
endfunction()

# usmpx_add_model for a .tflite, a .pte or a firmware file: the planned copy, its array and its
# memory header (the caller's arg_* variables are visible here).
function(_usmpx_add_model_file target input kind)
  if(arg_NO_RUNTIME_HEADERS OR arg_MODULE)
    message(FATAL_ERROR "usmpx_add_model(${target}): NO_RUNTIME_HEADERS and MODULE are for TVM inputs")
  endif()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/usmpx/${target}")
  set(args export "${input}" --out "${out}" --force)
  set(depends "${input}")
  if(kind STREQUAL "firmware")
    _usmpx_firmware_models("${input}" models)
    list(APPEND depends ${models})
  endif()
  _usmpx_session_arguments(${target})
  if(arg_TFLM_KERNELS)
    list(APPEND args --tflm-kernels "${arg_TFLM_KERNELS}")
  endif()
  if(arg_TFLM_TARGET)
    list(APPEND args --tflm-target "${arg_TFLM_TARGET}")
  endif()
  if(arg_MODEL_SECTION)
    list(APPEND args --model-section "${arg_MODEL_SECTION}")
  endif()
  list(APPEND args ${arg_OPTIONS})
  _usmpx_export_now(${target} "${out}")
  file(GLOB_RECURSE sources LIST_DIRECTORIES false "${out}/*_model_data.cc")
  file(GLOB_RECURSE headers LIST_DIRECTORIES false "${out}/*.h")
  file(GLOB_RECURSE memory_headers LIST_DIRECTORIES false "${out}/*_memory.h" "${out}/usmpx_firmware.h")
  set(model_files "")
  foreach(source IN LISTS sources)
    get_filename_component(folder "${source}" DIRECTORY)
    file(GLOB copies LIST_DIRECTORIES false "${folder}/*.tflite" "${folder}/*.pte")
    list(APPEND model_files ${copies})
  endforeach()
  if(NOT sources)
    message(FATAL_ERROR "usmpx_add_model(${target}): the export of ${input} has no model array (a firmware file "
                        "of TVM modules: usmpx_add_model each module instead)")
  endif()
  _usmpx_export_at_build_time(${target} "${out}" "${sources}" "${headers};${model_files}")
  target_sources(${target} PRIVATE ${sources})
  target_include_directories(${target} PRIVATE "${out}")

  set_target_properties(${target} PROPERTIES USMPX_DIR "${out}" USMPX_MODEL_FILES "${model_files}"
                                             USMPX_MEMORY_HEADERS "${memory_headers}")
  set(${target}_USMPX_DIR "${out}" PARENT_SCOPE)
  set(${target}_USMPX_MODEL_FILES "${model_files}" PARENT_SCOPE)
  set(${target}_USMPX_MEMORY_HEADERS "${memory_headers}" PARENT_SCOPE)
endfunction()

# SESSION and ALGORITHM of the caller's usmpx_add_model as `usmpx export` arguments, appended to the
# caller's `args`, the session to its `depends`.
macro(_usmpx_session_arguments target)
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
endmacro()

# Runs `usmpx ${args}` now (the caller's args), so the generated files are known when CMake
# configures; stops with its output when it fails.
function(_usmpx_export_now target out)
  # The command line, kept in a file that changes only when it does: the build-time export
  # depends on it, so new options re-run the export and an unchanged configure does not.
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
endfunction()

# The same export at build time, when the caller's `depends`, the command line or usmpx change;
# `target` waits for it.
function(_usmpx_export_at_build_time target out outputs byproducts)
  set(stamp "${out}.stamp")
  file(TOUCH "${stamp}")
  add_custom_command(
    OUTPUT "${stamp}" ${outputs}
    BYPRODUCTS ${byproducts}
    COMMAND usmpx::usmpx ${args}
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS ${depends} "${out}.args" usmpx::usmpx
    COMMENT "usmpx: planning ${arg_INPUT} for ${target}"
    VERBATIM)
  add_custom_target(${target}_usmpx_export DEPENDS "${stamp}")
  add_dependencies(${target} ${target}_usmpx_export)
endfunction()
