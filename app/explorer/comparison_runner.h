#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "model/plan.h"
#include "model/problem.h"

namespace usmpx::app {

// Compare: several algorithms run on one problem on a worker thread, one after the other, and the
// plans they made, with the problem and time limit they were made for.
class ComparisonRunner : public QObject {
  Q_OBJECT

 public:
  explicit ComparisonRunner(QObject* parent = nullptr);
  ~ComparisonRunner() override;

  // Runs `algorithms` on `problem`, cancelling a comparison still running. `as_built` is the plan
  // the input carries (listed as "as-built"); `as_built_holds` whether it holds for `problem` (the
  // input's own pools without pins), else it is listed refused with the reason.
  void compare(const QStringList& algorithms, const Problem& problem, const std::optional<Plan>& as_built,
               bool as_built_holds, double time_limit_seconds);
  void cancel();
  bool running() const { return watcher_.isRunning(); }
  void wait() { watcher_.waitForFinished(); }
  const std::vector<Plan>& plans() const { return plans_; }
  void clear() { plans_.clear(); }
  // Whether the last comparison was made on `problem` with `time_limit_seconds`.
  bool made_for(const Problem& problem, double time_limit_seconds) const;

 signals:
  void progress(int done, int total, const QString& running);
  // One algorithm's plan, as soon as it is made (`index` into the algorithms given to compare).
  void plan_ready(int index, const usmpx::Plan& plan);
  // The comparison ended (also when cancelled, with the plans made).
  void ready();

 private:
  // From the comparing thread: emits plan_ready on the runner's thread.
  static void announce_plan(QPointer<ComparisonRunner> self, const std::shared_ptr<std::atomic<bool>>& run, int index,
                            const Plan& plan);

  std::vector<Plan> plans_;
  Problem problem_;  // what plans_ was made on
  double time_limit_ = 0;
  Problem pending_problem_;
  double pending_time_limit_ = 0;
  std::shared_ptr<std::atomic<bool>> cancel_;  // set when the runner goes or a new comparison starts
  QFutureWatcher<std::vector<Plan>> watcher_;
};

}  // namespace usmpx::app
