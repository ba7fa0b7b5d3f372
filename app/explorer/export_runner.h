#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QPair>
#include <QString>
#include <cstdint>
#include <memory>
#include <vector>

#include "frontends/frontend.h"

namespace usmpx::app {

// Exports of the current plan as firmware sources: the dry export that runs after each complete
// plan, so a plan the export would refuse (code the reader could not read, constants without data)
// is known before anyone clicks, and the export itself; both on worker threads.
class ExportRunner : public QObject {
  Q_OBJECT

 public:
  explicit ExportRunner(QObject* parent = nullptr);
  ~ExportRunner() override;

  // A newly read input's exporter (null when it has none) and why its code could not be read.
  void reset(std::shared_ptr<const ModelExporter> source, QString error);
  // Whether `plan` of `input` can be exported; `why` says why not. `planning`: a plan is on its way.
  bool can_export(const LoadedInput* input, const Problem& problem, const Plan& plan, bool planning,
                  QString* why) const;
  std::vector<ExportedPool> exported_pools(const Problem& problem, const Plan& plan) const;
  // A new plan (`generation`) is on its way: checks of older plans answer nothing now.
  void plan_started(uint64_t generation);
  // Exports `plan` (of `generation`) in memory on a worker thread when it fits; ends with
  // check_finished unless a newer plan started meanwhile.
  void start_check(uint64_t generation, const Problem& problem, const Plan& plan);
  bool checking() const { return checking_; }
  // Writes the sources of `plan` to `target` (see ExplorerController::export_sources); ends with
  // finished. Call only when can_export says yes.
  void start(const QString& input_path, const QString& target, const Problem& problem, const Plan& plan, bool harness,
             bool force);
  bool exporting() const { return exporting_; }
  // Waits for the running export and check.
  void wait();

 signals:
  void finished(bool ok, const QString& summary);
  void check_finished();

 private:
  std::shared_ptr<const ModelExporter> source_;
  QString error_;  // what the export refuses for the input or the last checked plan ("" when nothing)
  bool checking_ = false;
  bool exporting_ = false;
  uint64_t generation_ = 0;  // the plan on its way or shown: only its check answers
  QFutureWatcher<QPair<bool, QString>> export_watcher_;
  QFutureWatcher<QString> check_watcher_;
};

}  // namespace usmpx::app
