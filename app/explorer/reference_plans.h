#pragma once

#include <QString>
#include <QtGlobal>
#include <optional>
#include <string>
#include <vector>

#include "frontends/frontend.h"
#include "session/session_edits.h"

namespace usmpx::app {

// The plans the explorer measures the current one against: the input's reference plan (TVM's own,
// as-built, when the input carries one; else the plan its toolchain makes), kept across edits, and
// the same planner's total on the same pools without pins, which says what the pins cost.
class ReferencePlans {
 public:
  // A newly read input: its own plan, else `runtime_plan` (TFLM's), and `fidelity`, the check of
  // the plan it carries.
  void reset(const LoadedInput& input, std::optional<Plan> runtime_plan, QString fidelity);
  // After a complete plan: the reference plan's figure (and the plan itself where the input names
  // no other reference), and the unpinned total pins are measured against.
  void take(const LoadedInput& input, const Problem& problem, const SessionEdits& edits, const Plan& plan);

  bool has_plan() const { return plan_.has_value(); }
  const Plan& plan() const { return *plan_; }
  QString fidelity() const { return fidelity_; }
  QString plan_text() const { return plan_text_; }
  qint64 plan_bytes() const { return plan_bytes_; }
  // Whose plan the reference is (see ExplorerController::reference_name); `input` may be null.
  QString name(const LoadedInput* input) const;
  // The reference's pool sizes and allocations mapped to the current pools (-1 and unplaced where a
  // pool has no counterpart in the input).
  std::vector<qint64> pool_bytes(const LoadedInput& input, const Problem& problem, const SessionEdits& edits) const;
  std::vector<Allocation> allocations(const LoadedInput& input, const Problem& problem,
                                      const SessionEdits& edits) const;
  // `plan`'s total minus the reference's (nullopt without one, or while `plan` is TVM's own).
  std::optional<qint64> difference(const Problem& problem, const Plan& plan) const;
  // `plan`'s total less the same planner's on the same pools without pins (nullopt when unknown).
  std::optional<qint64> pin_cost(const Problem& problem, const SessionEdits& edits, const Plan& plan) const;

 private:
  std::optional<Plan> plan_;
  QString fidelity_;
  std::string algorithm_;  // the plan the input opens on
  QString plan_text_;
  qint64 plan_bytes_ = -1;
  QString label_;  // the planner whose run here is the reference ("" = the input's own)
  qint64 unpinned_total_ = -1;
  std::string unpinned_algorithm_;
  std::vector<PoolSetting> unpinned_pools_;
};

}  // namespace usmpx::app
