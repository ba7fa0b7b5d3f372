#include "inputs/firmware/firmware_text.h"

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/size_text.h"
#include "base/text_table.h"

namespace usmpx {
std::string firmware_plan_text(const FirmwareInput& in, const Plan& plan) {
  std::ostringstream out;
  out << "firmware: " << in.models.size() << " models, schedule " << to_string(in.spec.schedule);
  if (!in.spec.passed.empty()) out << ", " << in.spec.passed.size() << " tensor(s) passed without a copy";
  out << "\n";
  TextTable models({"model", "family", "input", "buffers", "ticks", "alone"}, "lllrll");
  for (size_t m = 0; m < in.models.size(); ++m) {
    std::string alone;
    const Plan& own = in.own_plans[m];
    for (size_t p = 0; p < own.pool_sizes.size(); ++p)
      alone +=
          (alone.empty() ? "" : ", ") + in.models[m]->problem.pools[p].name + " " + with_separators(own.pool_sizes[p]);
    if (in.models[m]->firmware) alone += in.models[m]->firmware->alone_text(own);
    const auto [first, last] = in.joint.span[m];
    models.add_row({in.spec.models[m].name, in.family[m], in.spec.models[m].path,
                    std::to_string(in.models[m]->problem.buffers.size()),
                    "[" + std::to_string(first) + ", " + std::to_string(last) + "]", alone});
  }
  models.print(out, "  ");
  for (const PassedTensor& p : in.spec.passed)
    out << "  passed: " << p.from << "/" << p.output << " -> " << p.to << "/" << p.input << " (one buffer)\n";
  if (in.spec.schedule != FirmwareSchedule::kConcurrent && in.models.size() > 1)
    out << "  a model's outputs (unless passed) may be overwritten by the next model's run: read or copy them first\n";
  for (const RuntimeArenaPool& a : in.arenas)
    out << a.arena->plan_text(in.parts(a, plan), a.declared_bytes);
  return out.str();
}

std::string firmware_closing_text(const FirmwareInput& in, const Plan& plan) {
  std::string text;
  for (const RuntimeArenaPool& a : in.arenas)
    text += a.arena->closing_text(in.parts(a, plan));
  return text;
}

std::string firmware_status_text(const FirmwareInput& in, const Plan& plan) {
  std::string s = std::to_string(in.models.size()) + " models, " + std::string(to_string(in.spec.schedule));
  for (const RuntimeArenaPool& a : in.arenas)
    s += "; " + a.arena->status_text(in.parts(a, plan));
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
    j["buffers"] = in.models[m]->problem.buffers.size();
    j["own_pool_sizes"] = in.own_plans[m].pool_sizes;
    fw["models"].push_back(std::move(j));
  }
  for (const RuntimeArenaPool& a : in.arenas) {
    nlohmann::ordered_json& list = fw[a.arena->json_list()];
    if (list.is_null()) list = nlohmann::ordered_json::array();
    list.push_back(nlohmann::ordered_json::parse(a.arena->json(in.parts(a, plan), a.declared_bytes)));
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
  for (const RuntimeArenaPool& a : in.arenas)
    out << a.arena->header_text(in.parts(a, plan));
  for (const PassedTensor& p : in.spec.passed)
    out << "/* " << p.from << " output \"" << p.output << "\" is " << p.to << " input \"" << p.input
        << "\": one buffer, no copy. */\n";
  if (!extra.empty()) out << "\n" << extra;
  out << "\n#endif  /* USMPX_FIRMWARE_H_ */\n";
  return out.str();
}

}  // namespace usmpx
