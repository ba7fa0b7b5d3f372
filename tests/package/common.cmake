# Helpers of the package tests (cmake -P scripts).

# Runs a command; stops the test with its output when it fails. Its stdout goes to run_output.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "FAILED (${status}): ${command}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# Stops the test unless the variables are set.
function(require)
  foreach(var ${ARGN})
    if(NOT ${var})
      message(FATAL_ERROR "${var} is not set")
    endif()
  endforeach()
endfunction()

# Stops the test unless `text` matches `pattern`.
function(expect text pattern what)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: '${pattern}' not found in:\n${text}")
  endif()
endfunction()
