#pragma once

// A frontend reads one family of inputs (TVM's output; problem files; TFLite Micro models; ExecuTorch programs) into a
// Problem with notes, and writes a Plan back in that family's own form. The input table
// (inputs/input_kinds) lists every frontend's kinds; the commands and the explorer reach the
// frontends through that table and this interface only. A frontend may use the layers below it
// (base, model, config, planners, checks, export) and never another frontend.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/pool_options.h"
#include "export/export_bundle.h"
#include "export/selftest.h"
#include "model/diagnostic.h"
#include "model/model_span.h"
#include "model/plan.h"
#include "model/problem.h"
#include "model/sharing_figures.h"

namespace usmpx {

class InputProbe;
class FirmwareRole;

enum class InputFormat {
  kProblemJson,
  kMinimallocCsv,
  kMlf,
  kFirmwareTree,
  kTvmScript,
  kLegacyTir,
  kTflite,
  kExecuTorch,
  kFirmware,  // several models of one firmware (inputs/firmware)
  kSession,
};

// One kind of input the tool reads: what it is called and what identifies it.
struct InputKind {
  InputFormat format;
  std::string_view name;           // e.g. "Model Library Format"
  std::string_view identified_by;  // e.g. "a .tar, .tar.gz or .tgz archive or a folder with metadata.json at its root"
};

// How to read an input: the pool options (applied after reading a problem file, or used to
// assign pools while analysing a model) and, for inputs with several modules, which one.
struct LoadOptions {
  PoolOptions pools;
  std::string module;       // empty: the first module
  std::string runtime_log;  // what the model's runtime printed of its memory (TFLM's memory plan); "" = none
  // The runtime build memory figures are for ("" = the family's default): for TFLite, TFLM's
  // kernel set ("reference", "cmsis_nn"), target ("cortex-m", "x86-64") and version
  // ("2023-06-30", ..., "90b983c"), or the firmware's TFLM source tree to read the version from.
  std::string runtime_kernels;
  std::string runtime_target;
  std::string runtime_version;
  std::string runtime_tree;
};

// What the runtime's source tree says of its version: `version` (an option value of
// RuntimeBuilds::versions) or "" when it cannot tell; `summary` says what was read or what is missing.
struct RuntimeTreeReading {
  std::string version;
  std::string summary;
};

// The runtime builds an input's memory figures can be computed for, by option value; the first of
// each list is the default. Empty lists: the figures do not depend on a build.
struct RuntimeBuilds {
  std::string runtime;                // whose build: "TFLM"
  std::vector<std::string> kernels;   // "reference", "cmsis_nn", "esp_nn"
  std::vector<std::string> targets;   // "cortex-m", "cortex-m55", "x86-64", "esp32s3", "esp32", "esp32-ansi"
  std::vector<std::string> versions;  // the runtime's versions, newest (the default) first
  // What a menu calls each option value ("CMSIS-NN Kernels (Cortex-M4/M7/M33, DSP)").
  std::map<std::string, std::string> labels;
  // The targets each kernel set is built for (a kernel set not listed builds for every target).
  std::map<std::string, std::vector<std::string>> kernel_targets;
  // The versions each kernel set is modelled for (a kernel set not listed: every version).
  std::map<std::string, std::vector<std::string>> kernel_versions;
  // Reads the version from the runtime's source tree (a folder); empty when the runtime has no such reading.
  std::function<RuntimeTreeReading(const std::string& dir)> read_tree;
  bool empty() const { return kernels.empty() && targets.empty(); }
  std::string label(const std::string& value) const;
  bool builds_for(const std::string& kernels_value, const std::string& target) const;
  bool models_version(const std::string& kernels_value, const std::string& version) const;
};

// A memory pool as an export writes it out, for the export dialog's table.
struct ExportedPool {
  std::string name;
  int64_t size_bytes = 0;
  bool defined_by_code = false;  // the generated code defines it; else the application must
  std::string section;           // the linker section it goes into
};

// How an export of an input is offered to the user (the explorer's export dialog): what it
// writes, into what, and which options apply. The family decides; the window only shows it.
struct ExportForm {
  // One sentence on what is written; "{input}" and "{plan}" stand for the input's file name and the
  // plan's algorithm.
  std::string what;
  bool one_file = false;         // the target is one file (a model copy), not a folder or an archive
  std::string target_suffix;     // appended to the input's name for the proposed target ("_replanned")
  std::string file_filter;       // for one file: the file dialog's filter ("TFLite models (*.tflite)")
  bool archives = true;          // .tar and .tar.gz offered beside a folder
  bool harness = true;           // a proof harness can be added
  bool pools_from_panel = true;  // sections and internal/external come from the Pools panel
};

// The form of an export that writes the plan into a copy of the model file: proposed as one file
// `<input><suffix>` (a folder may be named instead: the copy and what a firmware compiles of it),
// no archive, no harness, no pools of its own.
ExportForm model_copy_form(std::string what, std::string suffix, std::string file_filter);

// What a loaded input can write back: the model kept from loading, in its family's form.
class ModelExporter {
 public:
  virtual ~ModelExporter() = default;
  // How an export is offered (the export dialog's texts and options).
  virtual ExportForm form() const { return {}; }
  // Why `plan` cannot be exported from this input ("" when it can).
  virtual std::string refusal(const Plan& plan) const = 0;
  // The files for `plan` of `problem` (the loaded problem with the user's pools and pins).
  // Throws ExportError.
  virtual ExportBundle export_plan(const Problem& problem, const Plan& plan, const ExportOptions& options) const = 0;
  // The input as it is, with the same extras (harness): what a re-plan is compared against.
  virtual ExportBundle original(const ExportOptions& options) const = 0;
  // The pools an export of `plan` writes out as code, in the order it writes them; none when the
  // plan goes into a model file (the runtime's own arena).
  virtual std::vector<ExportedPool> exported_pools(const Problem&, const Plan&) const { return {}; }
  // How an export can be proven by running it next to the input (export/selftest.h); null when
  // this family's exports cannot be run here.
  virtual std::shared_ptr<const Selftest> selftest() const { return nullptr; }
};

// The one figure a firmware pastes when its runtime takes a single size (TFLM's kTensorArenaSize).
struct FigureToPaste {
  std::string name;  // "kTensorArenaSize"
  int64_t bytes = 0;
  bool exact = true;  // else the firmware needs at least `bytes`
  int pool = -1;      // the pool whose plan it sizes (-1: none in particular)
  // "kTensorArenaSize = 82,296 B", or "kTensorArenaSize >= 82,296 B (at least)".
  std::string text() const;
};

// What a frontend can say of a loaded input beyond its Problem, as text the commands print.
class InputDetails {
 public:
  virtual ~InputDetails() = default;
  // Sections `info` prints after the buffer table ("" for none).
  virtual std::string info_text() const { return ""; }
  // Lines `plan` prints under its heading for `plan` of `problem` ("" for none).
  virtual std::string plan_text(const Problem&, const Plan&) const { return ""; }
  // What to say of the input's own plan, in place of re-planning it with TVM's algorithms ("" = that check).
  virtual std::string as_built_text() const { return ""; }
  // The last line(s) of `info` (for the input's reference plan) and of `plan` ("" for none).
  virtual std::string closing_text(const Problem&, const Plan&) const { return ""; }
  // Members a JSON object of `info --json` and `plan --json` gains for `plan`, as the text of a
  // JSON object ("" for none).
  virtual std::string json_members(const Problem&, const Plan&) const { return ""; }
  // One short line for a status bar about `plan` ("" for none), e.g. the memory the firmware needs.
  virtual std::string status_text(const Problem&, const Plan&) const { return ""; }
  // The plan the input's own runtime makes, for `info` to describe (nullopt: none).
  virtual std::optional<Plan> reference_plan(const Problem&) const { return std::nullopt; }
  // The models the input holds, in the order they run, when it holds several (empty otherwise).
  virtual std::vector<ModelSpan> models() const { return {}; }
  // What the firmware must declare beyond the plan's pools, one short line each, the figure to
  // paste first (TFLM: the kTensorArenaSize line; ExecuTorch: a row per method). By default the
  // lines of closing_text, those giving kTensorArenaSize first.
  virtual std::vector<std::string> memory_rows(const Problem& problem, const Plan& plan) const;
  // The single figure to paste, when the runtime takes one (nullopt otherwise).
  virtual std::optional<FigureToPaste> firmware_figure(const Problem&, const Plan&) const { return std::nullopt; }
  // The peak of bytes live at once as `info` reports it: TVM's own figure where the reader has one
  // (the problem's), else what TVM would compute from the buffers' lifetimes.
  virtual int64_t memory_pressure(const Problem& problem) const { return problem.memory_pressure; }
  // The runtime builds the memory figures can be computed for (TFLM's kernels and targets); none
  // when the figures do not depend on a build.
  virtual RuntimeBuilds runtime_builds() const { return {}; }
  // The build the figures are for, in words ("TFLM 90b983c, reference kernels, cortex-m"; "" = none).
  virtual std::string runtime_build_text() const { return ""; }
  // For an input of several models: what sharing each shared pool saves with `plan` (empty otherwise).
  virtual std::vector<SharedPoolFigures> sharing(const Problem&, const Plan&) const { return {}; }
};

// What a frontend made of one input.
struct LoadedInput {
  std::string path;
  InputFormat format = InputFormat::kProblemJson;
  Problem problem;
  std::optional<Plan> as_built;      // the plan already present in the input, if any
  std::vector<Diagnostic> warnings;  // things the reader could not use but did not reject
  // Null when the input carries nothing to export into (problem files); the reason is `no_export`.
  std::shared_ptr<const ModelExporter> exporter;
  std::string no_export;
  std::string default_algorithm = "greedy_by_size";  // the planner the input's own toolchain runs
  std::string reference = "TVM";                     // whose plan that is, as the explorer and reports name it
  std::shared_ptr<const InputDetails> details;       // null: nothing beyond the Problem
  std::shared_ptr<const FirmwareRole> firmware;      // as a model of a firmware file; null: nothing beyond its pools
};

class Frontend {
 public:
  // `family`: the name a firmware file gives this frontend's models ("tflite", "tvm", "executorch",
  // "problem"); "" when its inputs are not models a firmware runs.
  explicit Frontend(std::string family = "") : family_(std::move(family)) {}
  virtual ~Frontend() = default;
  // Whether `probe` is of `format` (one of this frontend's kinds).
  virtual bool recognises(InputFormat format, InputProbe& probe) const = 0;
  // Reads and analyses the input. Throws InputError for unreadable or malformed input and
  // ConfigError when the pool options do not fit it.
  virtual LoadedInput load(const std::string& path, InputFormat format, const LoadOptions& options) const = 0;
  // The modules the input offers (several in one archive), in file order; empty when none (a
  // family whose inputs hold one model keeps this).
  virtual std::vector<std::string> modules(const std::string& /*path*/, InputFormat /*format*/) const { return {}; }
  const std::string& family() const { return family_; }

 private:
  std::string family_;
};

// The one instance of a frontend class: what each family's entry point (frontends/families.h) returns.
template <typename F>
const Frontend& the_frontend() {
  static const F frontend;
  return frontend;
}

// ---- A model among several of one firmware (inputs/firmware) ----------------------------------
// A firmware file puts models of any family into one joint problem. What a model's family adds
// beyond its Problem (a pool its runtime lays out itself, a joint export, a selftest of its models
// run together) comes through these declarations, so a family joins firmware files without
// inputs/firmware knowing it.

// One model of a firmware as the firmware layer hands it to the model's family.
struct FirmwareTenant {
  std::string name;                          // the model's name in the firmware file
  std::string path;                          // as the firmware file writes it
  std::shared_ptr<const LoadedInput> input;  // as its frontend loaded it
};

// A pool several models share as one joint pool, for a joint export: its size in the joint plan
// and, per member, the model's name (its files are under "<model>/") and that model's pool.
struct FirmwareSharedPool {
  std::string name;
  int64_t size_bytes = 0;
  std::vector<std::pair<std::string, std::string>> members;
};

// A pool a family's runtime lays out itself when its models share it (TFLM: one MicroAllocator,
// the interpreters created in the firmware's order): its own figures and what the commands print.
// `parts[i]` is tenant i's part of a joint plan, as a plan of its own problem.
class RuntimeArena {
 public:
  virtual ~RuntimeArena() = default;
  // What the runtime keeps in the pool beyond the planned tensors, with each model's own plan:
  // what a declared size of the pool loses.
  virtual int64_t overhead_bytes() const = 0;
  // Lines `plan` prints of the arena; `declared_bytes` < 0 when the firmware gives no size.
  virtual std::string plan_text(const std::vector<Plan>& parts, int64_t declared_bytes) const = 0;
  virtual std::string closing_text(const std::vector<Plan>& parts) const = 0;  // one line
  virtual std::string status_text(const std::vector<Plan>& parts) const = 0;   // a few words
  // The arena as a JSON object's text, in the list named json_list() of `--json`'s "firmware".
  virtual std::string json(const std::vector<Plan>& parts, int64_t declared_bytes) const = 0;
  virtual std::string json_list() const = 0;
  // Its part of usmpx_firmware.h (C: how to create the runtime on it, its size macro).
  virtual std::string header_text(const std::vector<Plan>& parts) const = 0;
  // The arena each tenant needs by itself with its own plan, in the tenants' order.
  virtual std::vector<int64_t> alone_bytes() const = 0;
  // The arena the tenants need together with `parts`, and whether that figure is exact.
  virtual std::pair<int64_t, bool> shared_bytes(const std::vector<Plan>& parts) const = 0;
};

// What a model's family adds to a firmware of several models.
class FirmwareRole {
 public:
  virtual ~FirmwareRole() = default;
  // Said after the model's own pool sizes in the firmware's table of models ("" for nothing).
  virtual std::string alone_text(const Plan& /*own*/) const { return ""; }
  // Whether the runtime lays out this model's pool itself when models share it (then `arena`).
  virtual bool runtime_arena() const { return false; }
  // The arena `pool` holding `tenants` (every model in the pool, this one among them, in the order
  // the firmware creates them) with their own plans `own`; null with the reason in `why` when they
  // cannot share it (another runtime's model, models running concurrently).
  virtual std::shared_ptr<const RuntimeArena> arena(const std::string& /*pool*/,
                                                    const std::vector<FirmwareTenant>& /*tenants*/,
                                                    const std::vector<Plan>& /*own*/, bool /*concurrent*/,
                                                    std::string& why) const {
    why = "its runtime does not lay out pools";
    return nullptr;
  }
  // Joint export: rewrites this family's models' files in `bundle` so that they share `pools` (each
  // listing only this family's members); returns what usmpx_firmware.h says of them.
  virtual std::string share_pools(const std::vector<FirmwareSharedPool>& /*pools*/, ExportBundle& /*bundle*/) const {
    return "";
  }
  // A selftest of `tenants` (all of this family) run together from a joint plan's export (each
  // model's files under "<model>/"); null when the family cannot run its models together.
  virtual std::shared_ptr<const Selftest> joint_selftest(const std::vector<FirmwareTenant>& /*tenants*/) const {
    return nullptr;
  }
  // The prefix of the global C names the model's code defines once its export names its module
  // `module_name` ("" = its own name), e.g. "tvmgen_default_": two models with the same prefix cannot
  // be linked into one firmware. "" when the family links no C of its models.
  virtual std::string link_prefix(const std::string& /*module_name*/) const { return ""; }
};

}  // namespace usmpx
