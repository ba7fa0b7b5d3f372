# usmpx_add_model for TFLite Micro, ExecuTorch and a firmware file, from outside the repository:
# install this build into a scratch prefix, configure tests/package/firmware_models (three host
# programs shaped like firmware) with find_package(usmpx), build and run them. The figures the
# programs static_assert come from `usmpx plan --json` of the original models (expected_figures.h,
# written here); at run time each program compares its arrays with the planned model files. Then
# the build must run no export when nothing changed, and re-export and recompile when a session
# changes, the program holding the new figure.
#
# cmake -DBUILD_DIR=<usmpx build> -DSOURCE_DIR=<repo> -DWORK_DIR=<scratch> -P firmware_models_test.cmake
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
require(BUILD_DIR SOURCE_DIR WORK_DIR)

file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
set(usmpx "${prefix}/bin/usmpx")
set(app "${WORK_DIR}/app")
file(COPY "${CMAKE_CURRENT_LIST_DIR}/firmware_models/" DESTINATION "${app}")
set(models "${WORK_DIR}/models")
file(COPY "${SOURCE_DIR}/resources/examples/tiny_classifier.tflite" "${SOURCE_DIR}/resources/examples/six_step_chain.pte"
     DESTINATION "${models}")
set(tflite "${models}/tiny_classifier.tflite")
set(pte "${models}/six_step_chain.pte")
set(pair "${models}/pair.usmpx-firmware.json")
file(WRITE "${pair}" [=[{"format": "usmpx-firmware", "version": 1, "schedule": "sequence",
 "models": [{"name": "first", "path": "tiny_classifier.tflite"}, {"name": "second", "path": "tiny_classifier.tflite"}],
 "memory": {"shared": [{"name": "arena"}]}}
]=])

# A session as usmp-explorer saves it: the input's one pool (for `target`), `pins` (JSON) and the algorithm.
function(write_session file input pool target algorithm pins)
  file(WRITE "${file}" "{\"format\": \"usmpx-session\", \"version\": 1, \"input\": \"${input}\",
 \"algorithm\": \"${algorithm}\", \"time_limit_seconds\": 1.0,
 \"pools\": [{\"name\": \"${pool}\", \"kind\": \"workspace\", \"size_hint_bytes\": -1, \"alignment\": 16,
   \"targets\": {\"${target}\": \"rw\"}, \"internal\": false, \"base\": \"${pool}\"}],
 \"pins\": ${pins}}\n")
endfunction()
set(tflite_session "${app}/tflite.usmpx.json")
set(pte_session "${app}/pte.usmpx.json")
write_session("${tflite_session}" "${tflite}" arena tflm tflm_greedy "[]")
write_session("${pte_session}" "${pte}" mem1 executorch et_greedy "[]")

# `usmpx ARGS --json`: sets json_output.
function(usmpx_json)
  run("${usmpx}" ${ARGN} --json)
  set(json_output "${run_output}" PARENT_SCOPE)
endfunction()

# expected_figures.h from usmpx plan --json of the original models with the same sessions and builds.
set(expected_dir "${WORK_DIR}/expected")
function(write_expected)
  usmpx_json(plan "${tflite}" --session "${tflite_session}" --tflm-target x86-64)
  string(JSON tflite_arena GET "${json_output}" tflm_arena kTensorArenaSize_min_bytes)
  string(JSON tflite_exact GET "${json_output}" tflm_arena exact)
  usmpx_json(plan "${pte}" --session "${pte_session}")
  string(JSON pte_buffer GET "${json_output}" executorch methods 0 planned_buffer_bytes 0)
  string(JSON pte_allocator GET "${json_output}" executorch methods 0 method_allocator x86-64 bytes)
  usmpx_json(plan "${pair}" --algorithm best --tflm-target x86-64)
  string(JSON pair_arena GET "${json_output}" firmware tflm_arenas 0 this_plan kTensorArenaSize_min_bytes)
  # The first model's own arena with its part of the joint plan: its planned copy, as info reads it.
  usmpx_json(info "${WORK_DIR}/build/usmpx/pair_firmware/first/tiny_classifier.tflite" --tflm-target x86-64)
  string(JSON first_arena GET "${json_output}" tflm_arena kTensorArenaSize_min_bytes)
  if(NOT tflite_exact)
    message(FATAL_ERROR "the TFLM figure of tiny_classifier is not exact: the test expects kTensorArenaSize")
  endif()
  file(WRITE "${expected_dir}/expected_figures.h"
       "#define EXPECTED_TFLITE_ARENA ${tflite_arena}\n#define EXPECTED_PTE_PLANNED_BUFFER1 ${pte_buffer}\n"
       "#define EXPECTED_PTE_METHOD_ALLOCATOR ${pte_allocator}\n#define EXPECTED_PAIR_ARENA ${pair_arena}\n"
       "#define EXPECTED_PAIR_FIRST_ARENA ${first_arena}\n")
  set(tflite_arena ${tflite_arena} PARENT_SCOPE)
endfunction()

set(build "${WORK_DIR}/build")
file(WRITE "${expected_dir}/expected_figures.h" "#error expected_figures.h is written after the configure\n")
run("${CMAKE_COMMAND}" -S "${app}" -B "${build}" -G Ninja "-DCMAKE_PREFIX_PATH=${prefix}" "-DTFLITE_MODEL=${tflite}"
    "-DTFLITE_SESSION=${tflite_session}" "-DPTE_MODEL=${pte}" "-DPTE_SESSION=${pte_session}"
    "-DPAIR_FIRMWARE=${pair}" "-DEXPECTED_DIR=${expected_dir}")
expect("${run_output}" "tflite_firmware: memory headers [^\n]*tiny_classifier_memory\\.h" "USMPX_MEMORY_HEADERS")
expect("${run_output}" "pair_firmware: memory headers [^\n]*usmpx_firmware\\.h" "USMPX_MEMORY_HEADERS")
write_expected()
set(first_tflite_arena ${tflite_arena})

# Builds and runs the three programs; stops on any failure.
function(build_and_run)
  run("${CMAKE_COMMAND}" --build "${build}")
  set(build_output "${run_output}" PARENT_SCOPE)
  run("${build}/tflite_firmware")
  expect("${run_output}" "tflite ok: kTensorArenaSize ${tflite_arena}," "tflite_firmware")
  set(tflite_line "${run_output}" PARENT_SCOPE)
  run("${build}/pte_firmware")
  expect("${run_output}" "pte ok" "pte_firmware")
  run("${build}/pair_firmware")
  expect("${run_output}" "pair ok" "pair_firmware")
endfunction()
build_and_run()
message(STATUS "${tflite_line}")

find_program(OBJDUMP objdump)
if(OBJDUMP)
  run("${OBJDUMP}" -h "${build}/tflite_firmware")
  expect("${run_output}" "\\.usmpx_model" "MODEL_SECTION")
else()
  message(STATUS "SKIPPED the MODEL_SECTION check: objdump is not installed")
endif()

# Nothing changed: no export. A changed session: the export runs again and the program is rebuilt
# with the new figure (a tensor pinned at offset 1024 makes the arena head, and so the arena, grow).
build_and_run()
if(build_output MATCHES "usmpx: planning")
  message(FATAL_ERROR "an unchanged build re-ran the export:\n${build_output}")
endif()
usmpx_json(info "${tflite}")
string(JSON pinned GET "${json_output}" buffers 0 name)
write_session("${tflite_session}" "${tflite}" arena tflm tflm_greedy
              "[{\"buffer\": \"${pinned}\", \"pool\": \"arena\", \"offset\": 1024}]")
write_expected()
if(tflite_arena EQUAL first_tflite_arena)
  message(FATAL_ERROR "the changed session did not change the arena (${tflite_arena})")
endif()
build_and_run()
expect("${build_output}" "usmpx: planning [^\n]*tiny_classifier\\.tflite for tflite_firmware" "the session change")
if(build_output MATCHES "for pte_firmware")
  message(FATAL_ERROR "a session of another program re-ran the .pte export:\n${build_output}")
endif()
file(TOUCH "${pte_session}")
build_and_run()
expect("${build_output}" "usmpx: planning [^\n]*six_step_chain\\.pte for pte_firmware" "the .pte session change")
file(TOUCH "${tflite}")
build_and_run()
expect("${build_output}" "for pair_firmware" "a model of the firmware file changed")
file(REMOVE_RECURSE "${WORK_DIR}")
message(STATUS "firmware models: .tflite (kTensorArenaSize ${first_tflite_arena}, then ${tflite_arena} with the "
               "session's pin), .pte and a firmware file of two .tflite built and ran from an install prefix")
