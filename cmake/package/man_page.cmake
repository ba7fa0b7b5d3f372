# Writes usmpx.1.gz with help2man from usmpx's own help: the main help as the page, every
# command's help as a section of its own.
#   cmake -DUSMPX=<usmpx> -DHELP2MAN=<help2man> -DOUT=<usmpx.1.gz> -P man_page.cmake
get_filename_component(dir "${OUT}" DIRECTORY)
set(include "${dir}/usmpx.h2m")
set(text "[COMMANDS]\n")
foreach(command info plan compare check export selftest)
  execute_process(COMMAND "${USMPX}" ${command} --help OUTPUT_VARIABLE help RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "usmpx ${command} --help failed (${status})")
  endif()
  # roff: backslashes printed as such, and no line may start a request.
  string(REPLACE "\\" "\\e" help "${help}")
  string(REPLACE "\n" "\n\\&" help "\\&${help}")
  string(REGEX REPLACE "\\\\&$" "" help "${help}")
  string(APPEND text ".SS ${command}\n.nf\n${help}.fi\n")
endforeach()
string(APPEND text "[SEE ALSO]\nusmp-explorer, the desktop application, opens the same inputs and saves sessions\n"
                   "(.usmpx.json) that \\fBusmpx\\fR \\-\\-session reads. The CMake package (find_package(usmpx),\n"
                   "usmpx_add_model) runs \\fBusmpx export\\fR in a firmware build.\n")
file(WRITE "${include}" "${text}")
execute_process(COMMAND "${HELP2MAN}" --no-info --no-discard-stderr --section=1
                        "--name=static memory plans of TVM, TFLite Micro and ExecuTorch models"
                        "--include=${include}" --output=${dir}/usmpx.1 "${USMPX}"
                RESULT_VARIABLE status ERROR_VARIABLE error)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "help2man failed (${status}): ${error}")
endif()
execute_process(COMMAND gzip -9nf "${dir}/usmpx.1" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "gzip failed (${status})")
endif()
