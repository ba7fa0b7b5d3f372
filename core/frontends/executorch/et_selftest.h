#pragma once

// Proving a re-planned .pte by running it: every method of the program as it is and re-planned is
// run in this process on the project's own portable operators (et_portable_ops.h), its planned
// buffers allocated at the sizes the program states and every planned tensor placed at its offset
// in them (so two live tensors on the same bytes corrupt each other, as on a device), on the same
// inputs; every output is compared byte for byte. Delegates (XNNPACK, Ethos-U, vendor backends)
// and operators not implemented (or not for the element types called) are refused by name before
// anything runs.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "export/selftest.h"
#include "frontends/executorch/et_program.h"

namespace usmpx {

// Why the program cannot be run here ("" when it can): the delegates it calls, the operators not
// implemented, an operator called on an element type its kernel here does not implement ("aten::add.out
// has no LONG kernel here (implemented: FLOAT)"), weights in an external .ptd file.
std::string et_run_obstacle(const EtProgram& program);

struct EtRunOutputs {
  std::vector<std::pair<std::string, std::string>> outputs;  // "forward output 0" -> its bytes
};

// Runs every method once with inputs from a fixed generator (floats uniform in [-1, 1), int8 and
// uint8 random bytes, other tensors 0) over planned memory prefilled with other fixed bytes.
// Throws ExportError when the program cannot be run (et_run_obstacle) or a kernel refuses it.
EtRunOutputs run_et_program(const std::string& bytes, const std::string& path);

std::shared_ptr<const Selftest> et_selftest(std::string path);

}  // namespace usmpx
