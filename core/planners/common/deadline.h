#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>

#include "planners/common/planner.h"

namespace usmpx {

// When a planner must stop: its time limit has passed, its step budget is spent (every call of
// expired() is a step; PlannerOptions::step_budget) or its caller cancelled. Cheap to poll: the
// clock and the cancel flag are read only every `kPollInterval` calls of expired(), so loops may
// call it per step. A deadline only cancellation ends (cancel_only) checks the flag at every step:
// one step of a greedy pass may take milliseconds on a large problem.
class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  explicit Deadline(const PlannerOptions& options)
      : options_(&options),
        start_(Clock::now()),
        end_(start_ + span(options.time_limit_seconds)),
        budget_(options.step_budget),
        steps_(std::make_shared<int64_t>(0)) {}

  // Only cancellation stops it: for work that must finish to give any plan at all.
  static Deadline cancel_only(const PlannerOptions& options) {
    Deadline d(options);
    d.end_ = Clock::time_point::max();
    d.budget_ = -1;
    d.poll_interval_ = 1;  // no clock to read: the flag is checked at every step
    return d;
  }

  // A deadline `seconds` from now that shares `parent`'s cancel flag and step budget and never
  // outlives it.
  Deadline(const Deadline& parent, double seconds)
      : options_(parent.options_), start_(Clock::now()), budget_(parent.budget_), steps_(parent.steps_) {
    end_ = std::min(parent.end_, start_ + span(seconds));
  }

  bool expired() {
    if (stopped_) return true;
    if (budget_ >= 0 && ++*steps_ >= budget_) return stopped_ = true;
    if (++calls_ % poll_interval_ != 0) return false;
    return check_now();
  }
  // Reads the clock on every call.
  bool check_now() {
    if (!stopped_) stopped_ = options_->cancelled() || Clock::now() >= end_ || (budget_ >= 0 && *steps_ >= budget_);
    return stopped_;
  }
  bool cancelled() const { return options_->cancelled(); }
  bool budget_spent() const { return budget_ >= 0 && *steps_ >= budget_; }
  double elapsed_seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  double remaining_seconds() const { return std::chrono::duration<double>(end_ - Clock::now()).count(); }
  const PlannerOptions& options() const { return *options_; }

  void report(double fraction, int64_t best_total, const char* message) const {
    if (options_->progress) options_->progress(PlannerProgress{fraction, best_total, message});
  }

 private:
  static constexpr uint32_t kPollInterval = 64;
  // Seconds as a clock duration, clamped to [0, ~30 years] so that the end never overflows.
  static Clock::duration span(double seconds) {
    const double clamped = seconds > 0 ? std::min(seconds, 1e9) : 0.0;
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(clamped));
  }
  const PlannerOptions* options_;
  Clock::time_point start_;
  Clock::time_point end_;
  int64_t budget_ = -1;
  std::shared_ptr<int64_t> steps_;  // shared with the deadlines derived from this one
  uint32_t calls_ = 0;
  uint32_t poll_interval_ = kPollInterval;
  bool stopped_ = false;
};

}  // namespace usmpx
