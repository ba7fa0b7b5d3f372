#include "inputs/firmware/firmware_text.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/size_text.h"
#include "base/text_table.h"

namespace usmpx {
namespace {

std::string build_words(const TflmBuild& b) {
  return "TFLM " + std::string(to_string(b.version)) + ", " + std::string(to_string(b.kernels)) + ", " +
         std::string(to_string(b.target));
}

std::string order_of(const FirmwareInput& in, const TflmArenaGroup& g) {
  std::string names;
  for (int m : g.models)
    names += (names.empty() ? "" : ", ") + in.spec.models[static_cast<size_t>(m)].name;
  return names;
}

std::string pool_name(const FirmwareInput& in, const TflmArenaGroup& g) {
  return in.joint.problem.pools[static_cast<size_t>(g.joint_pool)].name;
}

// "N bytes (head H + tail T = S as TFLM's recording allocator counts it)" for one arena's figures.
std::string arena_words(const TflmSharedArena& a) {
  std::string s = with_separators(a.arena) + " bytes (head " + with_separators(a.head) + " + tail " +
                  with_separators(a.tail) + " = " + with_separators(a.recording_total) +
                  " as TFLM's recording allocator counts it";
  if (a.arena > a.arena_order_free)
    s += "; " + with_separators(a.arena - a.arena_order_free) +
         " more because a later interpreter's AllocateTensors plans with the earlier tails in place";
  return s + ")";
}

bool arena_fits(const TflmArenaGroup& g, const TflmSharedArena& a) {
  return g.declared_bytes < 0 || a.arena <= g.declared_bytes;
}

}  // namespace

std::string firmware_plan_text(const FirmwareInput& in, const Plan& plan) {
  using Align = TextTable::Align;
  std::ostringstream out;
  out << "firmware: " << in.models.size() << " models, schedule " << to_string(in.spec.schedule);
  if (!in.spec.passed.empty()) out << ", " << in.spec.passed.size() << " tensor(s) passed without a copy";
  out << "\n";
  TextTable models({{"model", Align::kLeft},
                    {"family", Align::kLeft},
                    {"input", Align::kLeft},
                    {"buffers", Align::kRight},
                    {"ticks", Align::kLeft},
                    {"alone", Align::kLeft}});
  for (size_t m = 0; m < in.models.size(); ++m) {
    std::string alone;
    const Plan& own = in.own_plans[m];
    for (size_t p = 0; p < own.pool_sizes.size(); ++p)
      alone +=
          (alone.empty() ? "" : ", ") + in.models[m].problem.pools[p].name + " " + with_separators(own.pool_sizes[p]);
    if (in.tflite[m]) {
      const TfliteAnalysis& a = *in.tflite[m];
      const TflmTenant t = tflm_tenant(in.spec.models[m].name, a, own.pool_sizes.empty() ? 0 : own.pool_sizes[0]);
      alone += "; kTensorArenaSize " + with_separators(tflm_single_arena(t));
    }
    const auto [first, last] = in.joint.span[m];
    models.add_row({in.spec.models[m].name, in.family[m], in.spec.models[m].path,
                    std::to_string(in.models[m].problem.buffers.size()),
                    "[" + std::to_string(first) + ", " + std::to_string(last) + "]", alone});
  }
  models.print(out, "  ");
  for (const PassedTensor& p : in.spec.passed)
    out << "  passed: " << p.from << "/" << p.output << " -> " << p.to << "/" << p.input << " (one buffer)\n";
  if (in.spec.schedule != FirmwareSchedule::kConcurrent && in.models.size() > 1)
    out << "  a model's outputs (unless passed) may be overwritten by the next model's run: read or copy them first\n";
  for (const TflmArenaGroup& g : in.tflm_arenas) {
    const TflmSharedArena now = tflm_arena_for(in, g, plan);
    out << "TFLM arena \"" << pool_name(in, g) << "\": " << g.models.size()
        << (g.models.size() == 1 ? " interpreter" : " interpreters on one MicroAllocator") << ", created in the order "
        << order_of(in, g) << " (" << build_words(g.own.build) << ")\n";
    out << "  TFLM by itself (each model its own plan): kTensorArenaSize >= " << arena_words(g.own) << "\n";
    if (g.models.size() > 1)
      out << "  separate arenas would need " << with_separators(g.own.separate_arenas) << " bytes; sharing saves "
          << with_separators(g.own.separate_arenas - g.own.arena) << "\n";
    out << "  this plan: kTensorArenaSize >= " << arena_words(now) << "\n";
    if (g.declared_bytes >= 0)
      out << "  declared: " << with_separators(g.declared_bytes) << " bytes, "
          << (arena_fits(g, now) ? "fits" : "DOES NOT FIT") << "\n";
  }
  return out.str();
}

std::string firmware_closing_text(const FirmwareInput& in, const Plan& plan) {
  std::string text;
  for (const TflmArenaGroup& g : in.tflm_arenas) {
    const TflmSharedArena a = tflm_arena_for(in, g, plan);
    text += "kTensorArenaSize (\"" + pool_name(in, g) + "\": " + order_of(in, g) +
            ") >= " + (a.exact ? "" : "at least ") + with_separators(a.arena) + " bytes; " + build_words(a.build) +
            "\n";
  }
  return text;
}

std::string firmware_status_text(const FirmwareInput& in, const Plan& plan) {
  std::string s = std::to_string(in.models.size()) + " models, " + std::string(to_string(in.spec.schedule));
  for (const TflmArenaGroup& g : in.tflm_arenas) {
    const TflmSharedArena a = tflm_arena_for(in, g, plan);
    s += "; " + pool_name(in, g) + ": kTensorArenaSize >= " + with_separators(a.arena) + " B";
  }
  return s;
}

std::string firmware_json_members(const FirmwareInput& in, const Plan& plan) {
  nlohmann::ordered_json fw;
  fw["schedule"] = std::string(to_string(in.spec.schedule));
  fw["models"] = nlohmann::ordered_json::array();
  for (size_t m = 0; m < in.models.size(); ++m) {
    nlohmann::ordered_json j;
    j["name"] = in.spec.models[m].name;
    j["family"] = in.family[m];
    j["path"] = in.spec.models[m].path;
    j["buffers"] = in.models[m].problem.buffers.size();
    j["own_pool_sizes"] = in.own_plans[m].pool_sizes;
    fw["models"].push_back(std::move(j));
  }
  fw["tflm_arenas"] = nlohmann::ordered_json::array();
  const auto figures = [](const TflmSharedArena& a) {
    nlohmann::ordered_json j;
    j["head_bytes"] = a.head;
    j["tail_bytes"] = a.tail;
    j["recording_total_bytes"] = a.recording_total;
    j["kTensorArenaSize_min_bytes"] = a.arena;
    j["order_free_bytes"] = a.arena_order_free;
    j["separate_arenas_bytes"] = a.separate_arenas;
    j["exact"] = a.exact;
    return j;
  };
  for (const TflmArenaGroup& g : in.tflm_arenas) {
    nlohmann::ordered_json j;
    j["pool"] = pool_name(in, g);
    j["models"] = nlohmann::ordered_json::array();
    for (int m : g.models)
      j["models"].push_back(in.spec.models[static_cast<size_t>(m)].name);
    j["kernels"] = std::string(to_string(g.own.build.kernels));
    j["target"] = std::string(to_string(g.own.build.target));
    j["tflm_version"] = tflm_version_name(g.own.build.version);
    j["declared_bytes"] = g.declared_bytes;
    j["tflm_own"] = figures(g.own);
    j["this_plan"] = figures(tflm_arena_for(in, g, plan));
    fw["tflm_arenas"].push_back(std::move(j));
  }
  nlohmann::ordered_json members;
  members["firmware"] = std::move(fw);
  return members.dump();
}

std::string firmware_header(const FirmwareInput& in, const Plan& plan, const std::string& extra) {
  std::ostringstream out;
  out << "/* Written by usmpx from " << std::filesystem::path(in.spec.path).filename().string() << ": "
      << in.models.size() << " models, schedule " << to_string(in.spec.schedule) << ". */\n";
  out << "#ifndef USMPX_FIRMWARE_H_\n#define USMPX_FIRMWARE_H_\n";
  for (const TflmArenaGroup& g : in.tflm_arenas) {
    const TflmSharedArena a = tflm_arena_for(in, g, plan);
    std::string macro;
    for (char c : pool_name(in, g))
      macro += std::isalnum(static_cast<unsigned char>(c))
                   ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                   : '_';
    out << "\n/* TFLite Micro arena \"" << pool_name(in, g) << "\" (" << build_words(a.build) << "):\n"
        << " * tflite::MicroAllocator::Create(arena, USMPX_" << macro << "_SIZE), then one MicroInterpreter per model\n"
        << " * on that allocator, created and given AllocateTensors in this order (the size assumes it):\n";
    for (size_t i = 0; i < g.models.size(); ++i) {
      const FirmwareModel& m = in.spec.models[static_cast<size_t>(g.models[i])];
      out << " *   " << i << ": " << m.name << " (" << m.path << ")\n";
    }
    out << " * head " << a.head << " + tail " << a.tail << " bytes as TFLM's recording allocator counts them;\n"
        << " * the size is the smallest arena a plain MicroAllocator runs them in, in this order. */\n";
    const int64_t size = a.arena;
    out << "#define USMPX_" << macro << "_SIZE " << size << "\n";
    out << "#define USMPX_" << macro << "_MODELS " << g.models.size() << "\n";
  }
  for (const PassedTensor& p : in.spec.passed)
    out << "/* " << p.from << " output \"" << p.output << "\" is " << p.to << " input \"" << p.input
        << "\": one buffer, no copy. */\n";
  if (!extra.empty()) out << "\n" << extra;
  out << "\n#endif  /* USMPX_FIRMWARE_H_ */\n";
  return out.str();
}

}  // namespace usmpx
