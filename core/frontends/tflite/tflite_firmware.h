#pragma once

// TFLite models in a firmware of several models: a pool they share is one MicroAllocator's arena
// (TFLM lays it out itself, tflm_shared.h), with TFLM's figures for the models' own plans and for
// a joint plan, and its part of usmpx_firmware.h.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frontends/frontend.h"
#include "frontends/tflite/tflite_problem.h"
#include "frontends/tflite/tflm_shared.h"

namespace usmpx {

// The offsets a plan of a TFLite model gives its tensors (-1: not planned), as its offline plan.
std::vector<int32_t> tflite_offsets(const TfliteAnalysis& analysis, const Plan& plan);

// One MicroAllocator's arena holding several models, created in the firmware's order.
class TflmArena : public RuntimeArena {
 public:
  TflmArena(std::string pool, std::vector<FirmwareTenant> tenants,
            std::vector<std::shared_ptr<const TfliteAnalysis>> models, const std::vector<Plan>& own);

  // TFLM by itself: each model with its own plan.
  const TflmSharedArena& own() const { return own_; }
  // The arena as TFLM runs the models with `parts` (each model's tensors where its part puts
  // them, scratch placed by TFLM around them).
  TflmSharedArena figures(const std::vector<Plan>& parts) const;

  int64_t overhead_bytes() const override { return own_.arena - own_.head; }
  std::string plan_text(const std::vector<Plan>& parts, int64_t declared_bytes) const override;
  std::string closing_text(const std::vector<Plan>& parts) const override;
  std::string status_text(const std::vector<Plan>& parts) const override;
  std::string json(const std::vector<Plan>& parts, int64_t declared_bytes) const override;
  std::string json_list() const override { return "tflm_arenas"; }
  std::string header_text(const std::vector<Plan>& parts) const override;
  std::vector<int64_t> alone_bytes() const override { return alone_; }
  std::pair<int64_t, bool> shared_bytes(const std::vector<Plan>& parts) const override {
    const TflmSharedArena a = figures(parts);
    return {a.arena, a.exact};
  }

 private:
  std::string order() const;  // the models' names in creation order

  std::string pool_;
  std::vector<FirmwareTenant> tenants_;
  std::vector<std::shared_ptr<const TfliteAnalysis>> models_;
  TflmSharedArena own_;
  std::vector<int64_t> alone_;  // each model's arena by itself (TFLM with one interpreter)
};

// A TFLite model's role in a firmware (LoadedInput::firmware).
std::shared_ptr<const FirmwareRole> tflite_firmware_role(std::shared_ptr<const TfliteAnalysis> analysis);

}  // namespace usmpx
