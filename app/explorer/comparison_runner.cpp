#include "comparison_runner.h"

#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>
#include <string>

#include "planners/registry.h"
#include "planning_job.h"

namespace usmpx::app {

namespace {

// The input's own plan as a row of the comparison: refused, with the reason, when it does not hold.
Plan as_built_entry(const Problem& problem, const Plan& as_built, bool holds) {
  if (!holds) {
    // Listed with the reason, not left out silently.
    Plan refused;
    refused.algorithm = kAsBuilt;
    refused.allocations.assign(problem.buffers.size(), Allocation{});
    refused.diagnostics.push_back({Severity::kError,
                                   "as-built",
                                   "TVM's plan holds only for the input's own pools without pins; the pools or "
                                   "pins were edited",
                                   {},
                                   -1,
                                   {}});
    finish_plan(problem, refused);
    return refused;
  }
  Plan plan = as_built;
  plan.algorithm = kAsBuilt;
  finish_plan(problem, plan);
  return plan;
}

}  // namespace

ComparisonRunner::ComparisonRunner(QObject* parent) : QObject(parent) {
  connect(&watcher_, &QFutureWatcher<std::vector<Plan>>::finished, this, [this] {
    plans_ = watcher_.result();
    problem_ = std::move(pending_problem_);
    time_limit_ = pending_time_limit_;
    emit ready();
  });
}

ComparisonRunner::~ComparisonRunner() {
  if (cancel_) cancel_->store(true);
  watcher_.waitForFinished();
}

void ComparisonRunner::announce_plan(QPointer<ComparisonRunner> self, const std::shared_ptr<std::atomic<bool>>& run,
                                     int index, const Plan& plan) {
  QMetaObject::invokeMethod(
      self.data(),
      [self, run, index, plan] {
        // Only for the comparison still running (a newer one replaces cancel_).
        if (self && self->cancel_ == run) emit self->plan_ready(index, plan);
      },
      Qt::QueuedConnection);
}

void ComparisonRunner::compare(const QStringList& algorithms, const Problem& problem,
                               const std::optional<Plan>& as_built, bool as_built_holds, double time_limit_seconds) {
  const double time_limit = time_limit_seconds;
  std::vector<std::string> names;
  for (const QString& name : algorithms)
    names.push_back(name.toStdString());
  if (cancel_) cancel_->store(true);
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<std::atomic<bool>> cancel = cancel_;
  QPointer<ComparisonRunner> self(this);
  pending_problem_ = problem;
  pending_time_limit_ = time_limit;
  watcher_.setFuture(QtConcurrent::run([=]() {
    std::vector<Plan> plans;
    const int total = static_cast<int>(names.size());
    // Each plan is shown as it is made (Compare fills its row at once), then kept for the result.
    auto keep = [&](int k, Plan plan) {
      announce_plan(self, cancel, k, plan);
      plans.push_back(std::move(plan));
    };
    for (int k = 0; k < total && !cancel->load(); ++k) {
      const std::string& name = names[static_cast<size_t>(k)];
      const QString running = QString::fromStdString(name);
      QMetaObject::invokeMethod(
          self.data(),
          [self, k, total, running] {
            if (self) emit self->progress(k, total, running);
          },
          Qt::QueuedConnection);
      if (name == kAsBuilt) {
        if (as_built) keep(k, as_built_entry(problem, *as_built, as_built_holds));
        continue;
      }
      auto planner = make_planner(name);
      if (!planner) continue;
      PlannerOptions options;
      options.time_limit_seconds = time_limit;
      options.cancel = cancel.get();
      Plan plan = run_planner(*planner, problem, options);
      if (!cancel->load()) keep(k, std::move(plan));  // a cancelled run is not a result
    }
    return plans;
  }));
}

bool ComparisonRunner::made_for(const Problem& problem, double time_limit_seconds) const {
  return !plans_.empty() && problem_ == problem && time_limit_ == time_limit_seconds;
}

void ComparisonRunner::cancel() {
  if (cancel_) cancel_->store(true);
}

}  // namespace usmpx::app
