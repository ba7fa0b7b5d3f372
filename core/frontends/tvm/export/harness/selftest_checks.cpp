// Before selftest compiles anything: what the model's code needs that the input does not hold
// (refused with one line), and which targets can build it.
#include <algorithm>

#include "base/text_join.h"
#include "frontends/tvm/export/harness/code_needs.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"

namespace usmpx {
namespace {

bool harness_source(const std::string& path) {
  return !path.starts_with("harness/") && (path.ends_with(".c") || path.ends_with(".h"));
}

// The function harness/main.c calls to run the model.
std::string entry_function(const ExportBundle& bundle) {
  const ExportFile* main = bundle.find("harness/main.c");
  if (!main) return "";
  for (const std::string marker : {"int32_t rc = "}) {
    const size_t at = main->data.find(marker);
    if (at == std::string::npos) continue;
    const size_t open = main->data.find('(', at);
    if (open != std::string::npos) return main->data.substr(at + marker.size(), open - at - marker.size());
  }
  return "";
}

// harness/main.c prints "output <name> <bytes> <checksum>" per output; the outputs it gives 0
// bytes (a size nothing in the input states), and whether it prints any at all.
struct HarnessOutputs {
  bool any = false;
  std::vector<std::string> unsized;
};

HarnessOutputs harness_outputs(const ExportBundle& bundle) {
  HarnessOutputs out;
  const ExportFile* main = bundle.find("harness/main.c");
  if (!main) return out;
  const std::string marker = "printf(\"output ";
  for (size_t at = main->data.find(marker); at != std::string::npos; at = main->data.find(marker, at + 1)) {
    out.any = true;
    const size_t name = at + marker.size();
    const size_t space = main->data.find(' ', name);
    if (space == std::string::npos) break;
    if (main->data.compare(space, 3, " 0 ") == 0) out.unsized.push_back(main->data.substr(name, space - name));
  }
  return out;
}

// Whether the bundle's code calls CMSIS-NN: its headers included or arm_* kernels called.
bool calls_cmsis_nn(const CodeNeeds& needs) {
  return !needs.cmsis_nn_file.empty();
}

CodeProviders selftest_providers(const ExportBundle& bundle, const SelftestOptions& options) {
  CodeProviders providers;
  providers.cmsis_nn_dir = options.cmsis_nn;
  providers.kernels_dir = options.kernels;
  if (options.cmsis_nn.empty()) providers.builtin_cmsis_nn = calls_cmsis_nn(analyse_code_needs(bundle, providers));
  return providers;
}

}  // namespace

bool selftest_uses_builtin_cmsis_nn(const ExportBundle& bundle, const SelftestOptions& options) {
  return selftest_providers(bundle, options).builtin_cmsis_nn;
}

std::string selftest_obstacle(const ExportBundle& bundle, const SelftestOptions& options) {
  for (const ExportFile& f : bundle.files) {
    if (!harness_source(f.path)) continue;
    if (f.data.find("tvm_ethosu_runtime.h") != std::string::npos || f.data.find("ethosu_") != std::string::npos)
      return f.path +
             " drives an Ethos-U NPU (ethosu_*), which neither this machine nor the emulated boards have; "
             "plan and export work, the proof needs the NPU";
  }
  const CodeProviders providers = selftest_providers(bundle, options);
  const CodeNeeds needs = analyse_code_needs(bundle, providers);
  const std::string entry = entry_function(bundle);
  std::vector<std::string> sources;
  for (const std::string& s : harness_model_sources(bundle))
    sources.push_back(s.substr(s.rfind('/') + 1));
  // TVM's lib0.c holds the run wrapper around <prefix>___tvm_main__ (and, USMP on, the pools it
  // passes): without it the harness would call the operator graph directly, or call nothing.
  const std::string main_suffix = "___tvm_main__";
  bool entry_missing = entry.ends_with(main_suffix);
  for (const auto& [file, calls] : needs.undefined_calls)
    entry_missing |= file == "main.c" && std::find(calls.begin(), calls.end(), entry) != calls.end();
  if (entry_missing) {
    const std::string prefix = entry.ends_with(main_suffix) ? entry.substr(0, entry.size() - main_suffix.size() + 1)
                                                            : entry.substr(0, entry.rfind('_') + 1);
    return "the model has no lib0.c: its entry function " + prefix + "run and the pools it passes to " + prefix +
           main_suffix.substr(1) + " are defined in none of its sources (" + join(sources, ", ") +
           "); give the whole codegen/host/src TVM wrote";
  }
  for (const auto& [file, call] : needs.sdk_heap_calls)
    return file + " allocates its pools with " + call +
           ", which the harness's bare-metal C library does not have; selftest builds the lib0.c TVM writes "
           "(static pools)";
  for (const auto& [file, calls] : needs.undefined_calls) {
    std::vector<std::string> headers;
    for (const auto& [header_file, header] : needs.missing_headers) {
      if (header_file == file) headers.push_back(header);
    }
    const bool cmsis =
        std::all_of(calls.begin(), calls.end(), [](const std::string& c) { return c.starts_with("arm_"); });
    if (cmsis && options.cmsis_nn.empty())
      return file + " calls " + join(calls, ", ") +
             ", CMSIS-NN functions the built-in kernels do not have: give a CMSIS-NN checkout with --cmsis-nn DIR";
    return file + " calls " + join(calls, ", ") + " (defined nowhere in the model" +
           (options.kernels.empty() ? "" : " or " + options.kernels) + ")" +
           (headers.empty() ? "" : " and includes " + join(headers, ", ") + " (not in the model)") +
           ": vendor kernels; give their sources and headers with --kernels DIR (DIR/*.c, headers in DIR or "
           "DIR/include)";
  }
  if (!needs.missing_headers.empty()) {
    const auto& [file, header] = needs.missing_headers.front();
    return file + " includes " + header +
           ", which neither the model nor the harness holds: give it with --kernels DIR (headers in DIR or "
           "DIR/include)";
  }
  // Outputs the harness cannot size would be compared as zero bytes: nothing would be proven.
  const HarnessOutputs outputs = harness_outputs(bundle);
  if (bundle.find("harness/main.c") && !outputs.any)
    return "the harness sees no output of the model (the entry takes none the input names): nothing could be "
           "compared";
  if (!outputs.unsized.empty())
    return "the size of output " + join(outputs.unsized, ", ") +
           " is stated nowhere in the input (metadata.json, the interface header, the Relay text's result type) "
           "and the code's accesses do not show it: nothing could be compared; give the MLF with its "
           "metadata.json or src/relay.txt";
  return "";
}

SelftestTargets choose_selftest_targets(const ExportBundle& bundle, const SelftestOptions& options) {
  const CodeNeeds needs = analyse_code_needs(bundle, selftest_providers(bundle, options));
  SelftestTargets chosen;
  const bool arm = !needs.arm_intrinsics.empty() || !needs.arm_file.empty();
  if (!arm) {
    chosen.targets = {"host"};
    chosen.reason = "portable C: no Arm intrinsics, arm_acle.h or CMSIS headers";
  } else {
    std::string what = needs.arm_intrinsics.empty() ? "includes " + join(needs.arm_headers, ", ")
                                                    : "calls Arm intrinsics (" + join(needs.arm_intrinsics, ", ") + ")";
    if (needs.arm_intrinsics.size() > 4) {
      std::vector<std::string> first(needs.arm_intrinsics.begin(), needs.arm_intrinsics.begin() + 4);
      what = "calls Arm intrinsics (" + join(first, ", ") + ", ...)";
    }
    chosen.reason = needs.arm_file + " " + what + ": the emulated Cortex-M boards run them";
    chosen.targets = {"cortex-m4", "cortex-m7"};
    std::string missing;
    if (!selftest_target_available("cortex-m4", &missing) && needs.host_covers_arm) {
      chosen.targets = {"host"};
      chosen.reason += "; " + missing + " is not installed, and the host's arm_acle.h stand-in covers them";
    }
  }
  if (calls_cmsis_nn(needs))
    chosen.reason += options.cmsis_nn.empty() ? "; CMSIS-NN calls run on the built-in kernels"
                                              : "; CMSIS-NN built from " + options.cmsis_nn;
  return chosen;
}

}  // namespace usmpx
