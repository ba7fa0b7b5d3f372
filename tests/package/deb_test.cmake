# The Debian package without a container: cpack -G DEB from this build, its control fields and
# contents, then `dpkg -x` into a scratch root and run what it installed from there: usmpx
# --version, its man page, bash completion of commands, options and algorithm names, an offscreen
# usmp-explorer --screenshot, and find_package(usmpx) from the extracted /usr.
#
# cmake -DBUILD_DIR=<usmpx build> -DSOURCE_DIR=<repo> -DWORK_DIR=<scratch> -DVERSION=<x.y.z> -P deb_test.cmake
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
require(BUILD_DIR SOURCE_DIR WORK_DIR VERSION)

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
run(cpack --config "${BUILD_DIR}/CPackConfig.cmake" -G DEB -B "${WORK_DIR}/cpack")
file(GLOB debs "${WORK_DIR}/cpack/usmp-explorer_${VERSION}_*.deb")
list(LENGTH debs count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one usmp-explorer_${VERSION}_<arch>.deb, found: ${debs}")
endif()
set(deb "${debs}")
message(STATUS "built ${deb}")

# Dependencies come from dpkg-shlibdeps: the shared libraries the binaries link, with versions.
run(dpkg-deb --field "${deb}" Package Version Depends)
message(STATUS "control:\n${run_output}")
expect("${run_output}" "Package: usmp-explorer" "control")
expect("${run_output}" "Version: ${VERSION}" "control")
foreach(lib "libc6 \\(>= " "libstdc\\+\\+6 \\(>= " "libarchive13 \\(>= " "libclang" "libqt6widgets6 \\(>= "
            "libqcustomplot")
  expect("${run_output}" "${lib}" "Depends")
endforeach()

run(dpkg-deb --contents "${deb}")
foreach(file usr/bin/usmpx usr/bin/usmp-explorer usr/share/applications/usmp-explorer.desktop
             usr/share/icons/hicolor/scalable/apps/usmp-explorer.svg usr/lib/cmake/usmpx/usmpxConfig.cmake
             usr/lib/cmake/usmpx/usmpxAddModel.cmake usr/share/man/man1/usmpx.1.gz
             usr/share/bash-completion/completions/usmpx)
  expect("${run_output}" "\\./${file}\n" "package contents")
endforeach()

# Installed into a scratch root: everything runs from there.
set(root "${WORK_DIR}/root")
run(dpkg -x "${deb}" "${root}")
run("${root}/usr/bin/usmpx" --version)
if(NOT run_output STREQUAL "usmpx ${VERSION}\n")
  message(FATAL_ERROR "usmpx --version printed '${run_output}'")
endif()
run("${root}/usr/bin/usmpx" check "${SOURCE_DIR}/resources/examples/kws_cnn.problem.json" --json)
string(JSON verdict GET "${run_output}" verdict)
if(NOT verdict STREQUAL "fits")
  message(FATAL_ERROR "the installed usmpx check says '${verdict}'")
endif()

set(shot "${WORK_DIR}/explorer.png")
run("${CMAKE_COMMAND}" -E env QT_QPA_PLATFORM=offscreen "XDG_RUNTIME_DIR=${WORK_DIR}/xdg"
    "${root}/usr/bin/usmp-explorer" "${SOURCE_DIR}/resources/examples/kws_cnn.problem.json" --screenshot "${shot}")
file(READ "${shot}" head LIMIT 24 HEX)
string(SUBSTRING "${head}" 0 16 magic)
string(SUBSTRING "${head}" 32 8 width_hex)
math(EXPR width "0x${width_hex}")
if(NOT magic STREQUAL "89504e470d0a1a0a" OR width LESS 640)
  message(FATAL_ERROR "usmp-explorer --screenshot wrote no window-sized PNG (magic ${magic}, width ${width})")
endif()
message(STATUS "usmp-explorer --screenshot: PNG ${width} pixels wide")

find_program(MAN man)
if(MAN)
  run("${CMAKE_COMMAND}" -E env MANWIDTH=100 MANPAGER=cat "${MAN}" -l "${root}/usr/share/man/man1/usmpx.1.gz")
  expect("${run_output}" "usmpx - static memory plans of TVM, TFLite Micro and ExecuTorch models" "man page")
  expect("${run_output}" "COMMANDS" "man page")
  expect("${run_output}" "--session FILE" "man page")
else()
  message(STATUS "SKIPPED man page rendering: man is not installed")
endif()

# Bash completion, as bash calls it: COMP_WORDS and COMP_CWORD in, COMPREPLY out.
set(completion "${root}/usr/share/bash-completion/completions/usmpx")
function(complete_words expected)
  list(LENGTH ARGN n)
  math(EXPR cword "${n} - 1")
  list(JOIN ARGN "' '" quoted)
  # Newlines, not semicolons, between the commands: a semicolon would split the CMake argument.
  set(script "source '${completion}'\nCOMP_WORDS=('${quoted}')\nCOMP_CWORD=${cword}\n_usmpx\necho \"\${COMPREPLY[*]}\"")
  run("${CMAKE_COMMAND}" -E env "PATH=${root}/usr/bin:$ENV{PATH}" bash -c "${script}")
  string(STRIP "${run_output}" got)
  if(NOT got STREQUAL expected)
    message(FATAL_ERROR "completing '${ARGN}': expected '${expected}', got '${got}'")
  endif()
endfunction()
complete_words("check" usmpx ch)
complete_words("--session" usmpx export --sess)
complete_words("--json" usmpx check --js)
complete_words("best_fit_size best_fit_size_duration best_fit_duration_size best_fit_area best_fit_breadth best"
               usmpx plan x --algorithm be)
complete_words("greedy_by_size,hill_climb" usmpx compare x --algorithms greedy_by_size,hi)
complete_words("cortex-m4 cortex-m7" usmpx selftest x --targets cortex)

# The packaged CMake package is relocatable: found from the extracted /usr.
file(WRITE "${WORK_DIR}/consumer/CMakeLists.txt"
     "cmake_minimum_required(VERSION 3.25)\nproject(consumer NONE)\nfind_package(usmpx ${VERSION} REQUIRED)\n"
     "get_target_property(exe usmpx::usmpx IMPORTED_LOCATION)\nmessage(STATUS \"usmpx \${USMPX_VERSION} at \${exe}\")\n")
run("${CMAKE_COMMAND}" -S "${WORK_DIR}/consumer" -B "${WORK_DIR}/consumer/build" "-DCMAKE_PREFIX_PATH=${root}/usr")
expect("${run_output}" "usmpx ${VERSION} at ${root}/usr/bin/usmpx" "find_package from the package")
file(REMOVE_RECURSE "${WORK_DIR}")
message(STATUS "the .deb installs and runs")
