#include "frontends/tflite/tflite_firmware.h"

#include "frontends/tflite/tflm_version.h"

#include <sstream>

#include <nlohmann/json.hpp>

#include "base/c_identifier.h"
#include "base/size_text.h"

namespace usmpx {
namespace {

std::string build_words(const TflmBuild& b) {
  return "TFLM " + tflm_version_label(b) + ", " + std::string(to_string(b.kernels)) + ", " +
         std::string(to_string(b.target));
}

// "N bytes (head H + tail T = S as TFLM's recording allocator counts it)" for one arena's figures.
// "= " for an exact figure, ">= " for one that may be low (said "at least" where it stands alone).
std::string relation(const TflmSharedArena& a) {
  return a.exact ? "= " : ">= ";
}

std::string arena_words(const TflmSharedArena& a) {
  std::string s = relation(a) + with_separators(a.arena) + " bytes (head " + with_separators(a.head) + " + tail " +
                  with_separators(a.tail) + " = " + with_separators(a.recording_total) +
                  " as TFLM's recording allocator counts it";
  if (a.arena > a.arena_order_free)
    s += "; " + with_separators(a.arena - a.arena_order_free) +
         " more because a later interpreter's AllocateTensors plans with the earlier tails in place";
  return s + ")";
}

nlohmann::ordered_json figures_json(const TflmSharedArena& a) {
  nlohmann::ordered_json j;
  j["head_bytes"] = a.head;
  j["tail_bytes"] = a.tail;
  j["recording_total_bytes"] = a.recording_total;
  j["kTensorArenaSize_min_bytes"] = a.arena;
  j["order_free_bytes"] = a.arena_order_free;
  j["separate_arenas_bytes"] = a.separate_arenas;
  j["exact"] = a.exact;
  return j;
}

int64_t head_of(const Plan& plan) {
  return plan.pool_sizes.empty() ? 0 : plan.pool_sizes[0];
}

class TfliteRole : public FirmwareRole {
 public:
  explicit TfliteRole(std::shared_ptr<const TfliteAnalysis> a) : a_(std::move(a)) {}

  std::string alone_text(const Plan& own) const override {
    return "; kTensorArenaSize " + with_separators(tflm_single_arena(tflm_tenant("", *a_, head_of(own))));
  }

  bool runtime_arena() const override { return true; }

  std::shared_ptr<const RuntimeArena> arena(const std::string& pool, const std::vector<FirmwareTenant>& tenants,
                                            const std::vector<Plan>& own, bool concurrent,
                                            std::string& why) const override {
    std::vector<std::shared_ptr<const TfliteAnalysis>> models;
    for (const FirmwareTenant& t : tenants) {
      const auto* role = dynamic_cast<const TfliteRole*>(t.input->firmware.get());
      if (!role) {
        why = "a TFLite Micro arena is one MicroAllocator's: it cannot be shared with other runtimes";
        return nullptr;
      }
      models.push_back(role->a_);
    }
    if (tenants.size() > 1 && concurrent) {
      why =
          "TFLite Micro interpreters on one MicroAllocator run one at a time; models that run concurrently need "
          "arenas of their own (list them under \"private\")";
      return nullptr;
    }
    for (const auto& m : models) {
      if (m->build.kernels != models.front()->build.kernels) {
        why = "the models of one arena run in one TFLM build";
        return nullptr;
      }
    }
    return std::make_shared<TflmArena>(pool, tenants, std::move(models), own);
  }

 private:
  std::shared_ptr<const TfliteAnalysis> a_;
};

}  // namespace

std::vector<int32_t> tflite_offsets(const TfliteAnalysis& a, const Plan& plan) {
  std::vector<int32_t> offsets(a.tensors.size(), -1);
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    const int b = a.tensors[t].buffer;
    if (b < 0 || static_cast<size_t>(b) >= plan.allocations.size()) continue;
    const Allocation& alloc = plan.allocations[static_cast<size_t>(b)];
    if (alloc.placed()) offsets[t] = static_cast<int32_t>(alloc.offset);
  }
  return offsets;
}

TflmArena::TflmArena(std::string pool, std::vector<FirmwareTenant> tenants,
                     std::vector<std::shared_ptr<const TfliteAnalysis>> models, const std::vector<Plan>& own)
    : pool_(std::move(pool)), tenants_(std::move(tenants)), models_(std::move(models)) {
  for (FirmwareTenant& t : tenants_)
    t.input.reset();  // names and paths only: the firmware input holds this arena
  std::vector<TflmTenant> own_tenants;
  for (size_t i = 0; i < models_.size(); ++i)
    own_tenants.push_back(tflm_tenant(tenants_[i].name, *models_[i], head_of(own[i])));
  own_ = tflm_shared_arena(own_tenants, models_.front()->build);
  for (const TflmTenant& t : own_tenants)
    alone_.push_back(tflm_single_arena(t));
}

TflmSharedArena TflmArena::figures(const std::vector<Plan>& parts) const {
  std::vector<TflmTenant> tenants;
  for (size_t i = 0; i < models_.size(); ++i) {
    const TfliteAnalysis& a = *models_[i];
    Plan runs = tflm_plan_with_offsets(a, tflite_offsets(a, parts[i]));
    compute_pool_sizes(a.problem, runs);
    tenants.push_back(tflm_tenant(tenants_[i].name, a, head_of(runs)));
  }
  return tflm_shared_arena(tenants, models_.front()->build);
}

std::string TflmArena::order() const {
  std::string names;
  for (const FirmwareTenant& t : tenants_)
    names += (names.empty() ? "" : ", ") + t.name;
  return names;
}

std::string TflmArena::plan_text(const std::vector<Plan>& parts, int64_t declared_bytes) const {
  const TflmSharedArena now = figures(parts);
  std::ostringstream out;
  out << "TFLM arena \"" << pool_ << "\": " << tenants_.size()
      << (tenants_.size() == 1 ? " interpreter" : " interpreters on one MicroAllocator") << ", created in the order "
      << order() << " (" << build_words(own_.build) << ")\n";
  out << "  TFLM by itself (each model its own plan): kTensorArenaSize " << arena_words(own_) << "\n";
  if (tenants_.size() > 1)
    out << "  separate arenas would need " << with_separators(own_.separate_arenas) << " bytes; sharing saves "
        << with_separators(own_.separate_arenas - own_.arena) << "\n";
  out << "  this plan: kTensorArenaSize " << arena_words(now) << "\n";
  if (declared_bytes >= 0)
    out << "  declared: " << with_separators(declared_bytes) << " bytes, "
        << (now.arena <= declared_bytes ? "fits" : "DOES NOT FIT") << "\n";
  return out.str();
}

std::string TflmArena::closing_text(const std::vector<Plan>& parts) const {
  const TflmSharedArena a = figures(parts);
  return "kTensorArenaSize (\"" + pool_ + "\": " + order() + ") " + relation(a) + with_separators(a.arena) +
         (a.exact ? " bytes; " : " bytes (at least); ") + build_words(a.build) + "\n";
}

std::string TflmArena::status_text(const std::vector<Plan>& parts) const {
  const TflmSharedArena a = figures(parts);
  return pool_ + ": kTensorArenaSize " + relation(a) + with_separators(a.arena) + " B";
}

std::string TflmArena::json(const std::vector<Plan>& parts, int64_t declared_bytes) const {
  nlohmann::ordered_json j;
  j["pool"] = pool_;
  j["models"] = nlohmann::ordered_json::array();
  for (const FirmwareTenant& t : tenants_)
    j["models"].push_back(t.name);
  j["kernels"] = std::string(to_string(own_.build.kernels));
  j["target"] = std::string(to_string(own_.build.target));
  j["tflm_version"] = tflm_version_name(own_.build);
  j["declared_bytes"] = declared_bytes;
  j["tflm_own"] = figures_json(own_);
  j["this_plan"] = figures_json(figures(parts));
  return j.dump();
}

std::string TflmArena::header_text(const std::vector<Plan>& parts) const {
  const TflmSharedArena a = figures(parts);
  const std::string macro = c_macro_name(pool_);
  std::ostringstream out;
  out << "\n/* TFLite Micro arena \"" << pool_ << "\" (" << build_words(a.build) << "):\n"
      << " * tflite::MicroAllocator::Create(arena, USMPX_" << macro << "_SIZE), then one MicroInterpreter per model\n"
      << " * on that allocator, created and given AllocateTensors in this order (the size assumes it):\n";
  for (size_t i = 0; i < tenants_.size(); ++i)
    out << " *   " << i << ": " << tenants_[i].name << " (" << tenants_[i].path << ")\n";
  out << " * head " << a.head << " + tail " << a.tail << " bytes as TFLM's recording allocator counts them;\n"
      << " * the size is the smallest arena a plain MicroAllocator runs them in, in this order"
      << (a.exact ? " (exact), written by usmpx " USMPX_VERSION ". */\n"
                  : ".\n * AT LEAST: a model's figure is not exact (see `usmpx plan`); declare more and check\n"
                    " * arena_used_bytes() on the board. Written by usmpx " USMPX_VERSION ". */\n");
  out << "#define USMPX_" << macro << (a.exact ? "_SIZE " : "_SIZE_AT_LEAST ") << a.arena << "\n";
  out << "#define USMPX_" << macro << "_MODELS " << tenants_.size() << "\n";
  return out.str();
}

std::shared_ptr<const FirmwareRole> tflite_firmware_role(std::shared_ptr<const TfliteAnalysis> analysis) {
  return std::make_shared<TfliteRole>(std::move(analysis));
}

}  // namespace usmpx
