#include "firmware_command.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "base/config_error.h"
#include "base/input_error.h"
#include "base/text_file.h"
#include "cli.h"
#include "inputs/firmware/firmware_file.h"
#include "inputs/firmware/firmware_input.h"
#include "inputs/input_file.h"
#include "options.h"

namespace usmpx::cli {
namespace {

namespace fs = std::filesystem;

// `target` as written in a file in `folder`: relative when it can be.
std::string path_from(const fs::path& folder, const std::string& target) {
  std::error_code ec;
  const fs::path relative = fs::relative(fs::absolute(target, ec), fs::absolute(folder.empty() ? "." : folder, ec), ec);
  return ec || relative.empty() ? target : relative.generic_string();
}

struct NewOptions {
  std::vector<std::string> models;
  FirmwareSchedule schedule = FirmwareSchedule::kSequence;
  std::string out;
  bool force = false;
};

NewOptions parse_new(const std::vector<std::string>& args) {
  NewOptions o;
  int schedules = 0;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--sequence" || a == "--exclusive" || a == "--concurrent") {
      o.schedule = *parse_firmware_schedule(a.substr(2));
      ++schedules;
    } else if (a == "--out" || a == "-o") {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a file name");
      o.out = args[++i];
    } else if (a == "--force") {
      o.force = true;
    } else if (a.rfind("-", 0) == 0) {
      throw UsageError("firmware new: unknown option '" + a + "'");
    } else {
      o.models.push_back(a);
    }
  }
  if (schedules > 1) throw UsageError("firmware new: give one of --sequence, --exclusive, --concurrent");
  if (o.models.empty()) throw UsageError("firmware new: name the models (MODEL...)");
  if (o.out.empty()) {
    std::string stem;
    for (const std::string& m : o.models)
      stem += (stem.empty() ? "" : "+") + fs::path(m).stem().string();
    o.out = stem + std::string(kFirmwareSuffix);
  }
  return o;
}

int run_new(const std::vector<std::string>& args, std::ostream& out) {
  const NewOptions o = parse_new(args);
  std::error_code ec;
  if (fs::exists(o.out, ec) && !o.force) throw UsageError(o.out + " exists (--force replaces it)");
  FirmwareSpec spec;
  spec.path = o.out;
  spec.schedule = o.schedule;
  const fs::path folder = fs::path(o.out).parent_path();
  std::vector<std::vector<std::string>> pools;
  std::set<std::string> names;
  for (const std::string& path : o.models) {
    const InputFormat format = recognise_input(path);
    FirmwareModel m;
    m.family = firmware_family(format);
    if (m.family.empty()) throw UsageError(path + " is a " + std::string(to_string(format)) + ", not a model");
    m.path = path_from(folder, path);
    std::string name = fs::path(path).stem().string();
    for (int k = 2; names.count(name); ++k)
      name = fs::path(path).stem().string() + "_" + std::to_string(k);
    names.insert(name);
    m.name = name;
    const LoadedInput input = load_input(path);
    std::vector<std::string> mine;
    for (const Pool& p : input.problem.pools)
      if (p.kind == PoolKind::kWorkspace) mine.push_back(p.name);
    pools.push_back(std::move(mine));
    spec.models.push_back(std::move(m));
  }
  // A pool name two or more models have is shared, unless they may run at once.
  if (spec.schedule != FirmwareSchedule::kConcurrent) {
    std::vector<std::string> order;
    for (const auto& list : pools)
      for (const std::string& p : list)
        if (std::find(order.begin(), order.end(), p) == order.end()) order.push_back(p);
    for (const std::string& p : order) {
      SharedPool shared;
      shared.name = p;
      for (size_t m = 0; m < pools.size(); ++m)
        if (std::find(pools[m].begin(), pools[m].end(), p) != pools[m].end())
          shared.members.emplace_back(spec.models[m].name, p);
      if (shared.members.size() > 1) spec.shared.push_back(std::move(shared));
    }
  }
  write_file_atomically(o.out, firmware_file_text(spec));
  out << "wrote " << o.out << ": " << spec.models.size() << " models, schedule " << to_string(spec.schedule);
  for (const SharedPool& s : spec.shared)
    out << ", shared pool \"" << s.name << "\" (" << s.members.size() << " models)";
  out << "\nnext: add \"size_bytes\" to the shared pools and any \"passed\" tensors, then: usmpx plan " << o.out
      << "\n";
  return kOk;
}

}  // namespace

std::string firmware_usage_text() {
  return "usage: usmpx firmware new MODEL... [--sequence | --exclusive | --concurrent] [--out FILE] [--force]\n\n"
         "Writes a starter firmware file (FILE, default <model>+<model>.usmpx-firmware.json) naming the\n"
         "models, how the firmware runs them (default --sequence: one after the other, repeated;\n"
         "--exclusive: one at a time in any order; --concurrent: at the same time, nothing shared) and\n"
         "the pools they share (every pool name two models have, unless concurrent). Every usmpx\n"
         "command then opens the file as one input: see docs/several-models.md.\n";
}

int run_firmware(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return with_exit_codes(err, [&] {
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
      out << firmware_usage_text();
      return static_cast<int>(args.empty() ? kUsage : kOk);
    }
    if (std::find(args.begin(), args.end(), "--help") != args.end()) {
      out << firmware_usage_text();
      return static_cast<int>(kOk);
    }
    if (args[0] != "new") throw UsageError("firmware: unknown subcommand '" + args[0] + "' (new)");
    return run_new(args, out);
  });
}

}  // namespace usmpx::cli
