#include "inputs/input_kinds.h"

#include <algorithm>
#include <filesystem>

#include "base/input_error.h"
#include "frontends/families.h"
#include "frontends/input_probe.h"
#include "inputs/firmware/firmware_frontend.h"

namespace usmpx {

const std::vector<InputTableEntry>& input_table() {
  static const std::vector<InputTableEntry> table = {
      {{InputFormat::kSession, "explorer session", "a .usmpx.json file saved by the explorer"}, nullptr},
      {{InputFormat::kMlf, "Model Library Format",
        "a .tar, .tar.gz or .tgz archive, or a folder, with metadata.json at its root"},
       &tvm_frontend()},
      {{InputFormat::kFirmwareTree, "firmware tree",
        "a folder or archive holding tvmgen_<mod>.h and <mod>_lib<N>.c files somewhere below it, or a C file "
        "defining tvmgen_<mod>___tvm_main__ or tvmgen_<mod>_run_model, whatever it is called"},
       &tvm_frontend()},
      {{InputFormat::kTflite, "TFLite model",
        "a .tflite file, or a file with the flatbuffer identifier TFL3 at bytes 4..8"},
       &tflite_frontend()},
      {{InputFormat::kExecuTorch, "ExecuTorch program",
        "a .pte file, or a file with the flatbuffer identifier ET and two digits at bytes 4..8"},
       &et_frontend()},
      {{InputFormat::kFirmware, "firmware of several models",
        "a .usmpx-firmware.json file, or a .json file in the usmpx-firmware format"},
       &firmware_frontend()},
      {{InputFormat::kProblemJson, "problem JSON", "a .json file in the usmpx-problem format"},
       &problem_files_frontend()},
      {{InputFormat::kMinimallocCsv, "MiniMalloc CSV", "a .csv file (id,lower,upper,size[,alignment])"},
       &problem_files_frontend()},
      {{InputFormat::kTvmScript, "TVMScript TIR",
        "a text file with @I.ir_module, @tvm.script.ir_module or @T.prim_func"},
       &tvm_frontend()},
      {{InputFormat::kLegacyTir, "legacy TIR text", "a text file with primfn( functions (TVM 0.11 and older)"},
       &tvm_frontend()},
  };
  return table;
}

std::vector<InputKind> input_kinds() {
  std::vector<InputKind> kinds;
  for (const InputTableEntry& e : input_table())
    kinds.push_back(e.kind);
  return kinds;
}

std::string_view to_string(InputFormat format) {
  for (const InputTableEntry& e : input_table()) {
    if (e.kind.format == format) return e.kind.name;
  }
  return "unknown";
}

const Frontend* frontend_of(InputFormat format) {
  for (const InputTableEntry& e : input_table()) {
    if (e.kind.format == format) return e.frontend;
  }
  return nullptr;
}

std::vector<std::string> firmware_families() {
  std::vector<std::string> names;
  for (const InputTableEntry& e : input_table()) {
    const std::string name = e.frontend ? e.frontend->family() : "";
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

InputFormat recognise_input(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError({path, 0, 0}, "no such file or folder");
  InputProbe probe(path);
  for (const InputTableEntry& e : input_table()) {
    const bool session = e.kind.format == InputFormat::kSession && probe.file() && ends_with_lower(path, ".usmpx.json");
    if (session || (e.frontend && e.frontend->recognises(e.kind.format, probe))) return e.kind.format;
  }
  std::string expected;
  for (const InputTableEntry& e : input_table())
    expected += "\n  " + std::string(e.kind.name) + ": " + std::string(e.kind.identified_by);
  throw InputError({path, 0, 0}, "unknown input kind; expected one of:" + expected);
}

bool holds_generated_c(InputFormat format) {
  return format == InputFormat::kMlf || format == InputFormat::kFirmwareTree;
}

}  // namespace usmpx
