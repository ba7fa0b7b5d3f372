#include "explorer_controller.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

#include "base/config_error.h"
#include "base/text_file.h"
#include "export/bundle_writer.h"
#include "export/export_error.h"
#include "input_reading.h"
#include "inputs/input_facts.h"
#include "inputs/reference_plan.h"
#include "planners/incremental.h"
#include "planners/registry.h"
#include "planning_job.h"
#include "session/session_file.h"

namespace usmpx::app {

namespace {

constexpr const char* kDefaultAlgorithm = "best";
constexpr int kAutosaveDelayMs = 1500;

// Per buffer, how many others it conflicts with. Lifetimes: those that start before it ends, less
// those that end before it starts (two sorted arrays, no pair lists). Lists: both directions.
std::vector<int> count_conflicts(const Problem& problem) {
  const size_t n = problem.buffers.size();
  std::vector<int> counts(n, 0);
  if (problem.interval_conflicts()) {
    std::vector<int64_t> begins;
    std::vector<int64_t> ends;
    for (const Buffer& b : problem.buffers) {
      if (!b.lifetime || b.lifetime->empty()) continue;
      begins.push_back(b.lifetime->begin);
      ends.push_back(b.lifetime->end);
    }
    std::sort(begins.begin(), begins.end());
    std::sort(ends.begin(), ends.end());
    for (size_t i = 0; i < n; ++i) {
      const std::optional<Lifetime>& lt = problem.buffers[i].lifetime;
      if (!lt || lt->empty()) continue;
      const auto started = std::lower_bound(begins.begin(), begins.end(), lt->end) - begins.begin();
      const auto ended = std::upper_bound(ends.begin(), ends.end(), lt->begin) - ends.begin();
      counts[i] = static_cast<int>(started - ended - 1);
    }
    return counts;
  }
  const ConflictLists both = symmetric_conflicts(problem);
  for (size_t i = 0; i < n; ++i)
    counts[i] = static_cast<int>(both[i].size());
  return counts;
}

}  // namespace

std::vector<int> ExplorerController::conflicts_of(int buffer) const {
  std::vector<int> out;
  if (buffer < 0 || static_cast<size_t>(buffer) >= problem_.buffers.size()) return out;
  const Buffer& self = problem_.buffers[static_cast<size_t>(buffer)];
  for (size_t b = 0; b < problem_.buffers.size(); ++b) {
    if (static_cast<int>(b) == buffer) continue;
    const Buffer& other = problem_.buffers[b];
    const bool conflict =
        problem_.interval_conflicts()
            ? self.lifetime && other.lifetime && self.lifetime->overlaps(*other.lifetime)
            : std::find(self.conflicts.begin(), self.conflicts.end(), static_cast<int>(b)) != self.conflicts.end() ||
                  std::find(other.conflicts.begin(), other.conflicts.end(), buffer) != other.conflicts.end();
    if (conflict) out.push_back(static_cast<int>(b));
  }
  return out;
}

ExplorerController::ExplorerController(QObject* parent) : QObject(parent) {
  connect(&load_watcher_, &QFutureWatcher<std::shared_ptr<InputReading>>::finished, this,
          &ExplorerController::finish_loading);
  connect(&plan_watcher_, &QFutureWatcher<Plan>::finished, this, [this] {
    const uint64_t generation = plan_watcher_.property("generation").toULongLong();
    if (generation != generation_) return;  // a newer plan is on its way
    plan_ = plan_watcher_.result();
    planning_ = false;
    first_pass_ = false;
    planned_problem_ = problem_;
    planned_plan_ = plan_;
    planned_time_limit_ = history_.current().time_limit_seconds;
    take_reference_and_unpinned(plan_);
    emit plan_ready();
    emit planning_finished();
    start_export_check(generation);
  });
  connect(&compare_watcher_, &QFutureWatcher<std::vector<Plan>>::finished, this, [this] {
    comparison_ = compare_watcher_.result();
    comparison_problem_ = std::move(pending_comparison_problem_);
    comparison_time_limit_ = pending_comparison_time_limit_;
    emit comparison_ready();
  });
  connect(&export_check_watcher_, &QFutureWatcher<QString>::finished, this, [this] {
    if (export_check_watcher_.property("generation").toULongLong() != generation_) return;  // an older plan's
    export_checking_ = false;
    export_error_ = export_check_watcher_.result();
    emit export_check_finished();
  });
  connect(&export_watcher_, &QFutureWatcher<QPair<bool, QString>>::finished, this, [this] {
    exporting_ = false;
    const QPair<bool, QString> result = export_watcher_.result();
    emit export_finished(result.first, result.second);
  });
  autosave_timer_.setSingleShot(true);
  autosave_timer_.setInterval(kAutosaveDelayMs);
  connect(&autosave_timer_, &QTimer::timeout, this, &ExplorerController::write_autosave);
}

ExplorerController::~ExplorerController() {
  if (cancel_) cancel_->store(true);
  if (compare_cancel_) compare_cancel_->store(true);
  load_watcher_.waitForFinished();
  plan_watcher_.waitForFinished();
  compare_watcher_.waitForFinished();
  export_watcher_.waitForFinished();
  export_check_watcher_.waitForFinished();
}

QStringList ExplorerController::algorithms() const {
  QStringList names;
  // A toolchain's own planner (TFLM's) only for that toolchain's inputs.
  for (const PlannerInfo& info : planner_catalog()) {
    if (planner_applies(info, has_input() ? input_->reference : std::string()))
      names << QString::fromStdString(info.name);
  }
  if (has_input() && input_->as_built) names << QString::fromLatin1(kAsBuilt);
  return names;
}

void ExplorerController::open_input(const QString& path, const QString& module, std::optional<SessionEdits> edits,
                                    const QString& session_path, SessionView view) {
  // A new input opens on the build its edits name (a session's), else on the default one: a build
  // chosen for the previous input never carries over silently.
  start_loading(path, module, std::move(edits), session_path, std::move(view));
}

void ExplorerController::start_loading(const QString& path, const QString& module, std::optional<SessionEdits> edits,
                                       const QString& session_path, SessionView view) {
  if (loading_) return;
  loading_ = true;
  pending_edits_ = std::move(edits);
  pending_view_ = std::move(view);
  session_path_ = session_path;
  emit loading_started(path);
  const std::string file = path.toStdString();
  load_watcher_.setProperty("path", path);
  load_watcher_.setProperty("module", module);
  const std::string kernels = pending_edits_ ? pending_edits_->runtime_kernels : std::string();
  const std::string target = pending_edits_ ? pending_edits_->runtime_target : std::string();
  const std::string version = pending_edits_ ? pending_edits_->runtime_version : std::string();
  load_watcher_.setProperty("kernels", QString::fromStdString(kernels));
  load_watcher_.setProperty("target", QString::fromStdString(target));
  load_watcher_.setProperty("version", QString::fromStdString(version));
  LoadOptions options;
  options.module = module.toStdString();
  options.runtime_kernels = kernels;
  options.runtime_target = target;
  options.runtime_version = version;
  load_watcher_.setFuture(QtConcurrent::run([file, options]() { return read_input(file, options); }));
}

void ExplorerController::finish_loading() {
  loading_ = false;
  std::shared_ptr<InputReading> result = load_watcher_.result();
  if (!result->input) {
    pending_keep_history_ = false;
    emit load_failed(result->error);
    return;
  }
  if (cancel_) cancel_->store(true);
  ++generation_;
  planning_ = false;
  input_ = std::move(result->input);
  source_ = std::move(result->source);
  reference_fidelity_ = result->fidelity;
  export_error_ = result->source_error;
  recovered_ = pending_recovered_;
  pending_recovered_ = false;
  loaded_kernels_ = load_watcher_.property("kernels").toString().toStdString();
  loaded_target_ = load_watcher_.property("target").toString().toStdString();
  loaded_version_ = load_watcher_.property("version").toString().toStdString();
  const bool keep_history = pending_keep_history_;
  pending_keep_history_ = false;
  view_ = std::move(pending_view_);
  pending_view_ = {};
  input_path_ = QFileInfo(load_watcher_.property("path").toString()).absoluteFilePath();
  module_ = load_watcher_.property("module").toString();
  comparison_.clear();
  reference_.reset();
  reference_label_.clear();
  unpinned_total_ = -1;
  planned_plan_ = Plan{};
  if (input_->as_built) {
    reference_ = *input_->as_built;
    reference_->algorithm = kAsBuilt;
    finish_plan(input_->problem, *reference_);
  } else {
    reference_ = std::move(result->runtime_plan);
  }
  // The reference plan, as `usmpx` defaults to it: TVM's or the model's own plan when the input
  // carries one, else the plan its toolchain makes (TFLM's for .tflite, TVM's greedy_by_size).
  reference_algorithm_ = reference_algorithm(*input_);
  reference_plan_text_ = QString::fromStdString(reference_description(*input_));
  reference_plan_bytes_ = reference_ ? reference_->total_size() : -1;
  SessionEdits initial = initial_edits(input_->problem, reference_algorithm_);
  if (pending_edits_) {
    try {
      apply_edits(input_->problem, *pending_edits_);
      initial = *pending_edits_;
    } catch (const ConfigError& e) {
      emit edit_rejected(tr("The session's edits no longer fit the input (%1); starting from the input as it is.")
                             .arg(QString::fromStdString(e.what())));
    }
  }
  pending_edits_.reset();
  if (!keep_history) history_.reset(initial);
  set_problem_from_edits();
  emit input_loaded();
  emit history_changed();
  start_planning();
}

void ExplorerController::set_problem_from_edits() {
  problem_ = apply_edits(input_->problem, history_.current());
  conflict_counts_ = count_conflicts(problem_);
  plan_ = Plan{};
  plan_.allocations.assign(problem_.buffers.size(), Allocation{});
  compute_pool_sizes(problem_, plan_);
}

bool ExplorerController::apply_edit(const QString& description, SessionEdits next) {
  if (!has_input()) return false;
  // TVM's plan holds only for the input's own pools and no pins: the first edit of it plans with
  // the default planner, and TVM's plan stays on as the reference.
  const SessionEdits unedited = initial_edits(input_->problem, kAsBuilt);
  if (history_.current().algorithm == kAsBuilt && next.algorithm == kAsBuilt &&
      (next.pools != unedited.pools || next.pins != unedited.pins)) {
    next.algorithm = kDefaultAlgorithm;
    emit notice(tr("Planning with %1: TVM's plan holds only for the input's own pools. TVM's plan stays as the "
                   "reference (View ▸ Show TVM's Plan).")
                    .arg(QString::fromLatin1(kDefaultAlgorithm)));
  }
  try {
    apply_edits(input_->problem, next);
  } catch (const ConfigError& e) {
    emit edit_rejected(QString::fromStdString(e.what()));
    return false;
  }
  history_.push(description.toStdString(), std::move(next));
  set_problem_from_edits();
  emit problem_changed();
  emit history_changed();
  autosave_timer_.start();
  start_planning();
  return true;
}

void ExplorerController::undo() {
  if (!history_.can_undo() || loading_) return;
  history_.undo();
  emit history_changed();
  autosave_timer_.start();
  follow_history();
}

void ExplorerController::redo() {
  if (!history_.can_redo() || loading_) return;
  history_.redo();
  emit history_changed();
  autosave_timer_.start();
  follow_history();
}

void ExplorerController::replan() {
  if (has_input()) start_planning();
}

void ExplorerController::cancel_planning() {
  if (cancel_) cancel_->store(true);
}

void ExplorerController::start_planning() {
  if (cancel_) cancel_->store(true);
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  const uint64_t generation = ++generation_;
  const std::string algorithm = history_.current().algorithm;
  planning_ = true;
  export_checking_ = false;  // a check of an older plan answers nothing now
  first_pass_ = false;
  emit planning_started(QString::fromStdString(algorithm));
  PlanningJob job;
  // Shared, not copied into the task: a 20,000-buffer problem takes milliseconds to copy.
  job.problem = std::make_shared<const Problem>(problem_);
  job.algorithm = algorithm;
  const SessionEdits unedited = initial_edits(input_->problem, algorithm);
  job.unedited_pools = history_.current().pools == unedited.pools && history_.current().pins.empty();
  job.as_built_wanted = algorithm == kAsBuilt;
  if (job.as_built_wanted && input_->as_built) job.as_built = std::make_shared<const Plan>(*input_->as_built);
  job.time_limit_seconds = history_.current().time_limit_seconds;
  for (const PlannerInfo& entry : planner_catalog()) {
    if (entry.name == algorithm) job.info = &entry;
  }
  // Pools the edit did not change keep their placement, unless the planner must reproduce TVM.
  if (job.info && !job.info->tvm_compatible && planned_plan_.algorithm == algorithm &&
      planned_time_limit_ == job.time_limit_seconds) {
    job.keep = unchanged_pools(planned_problem_, planned_plan_, *job.problem);
    if (std::none_of(job.keep.begin(), job.keep.end(), [](bool k) { return k; })) job.keep.clear();
  }
  job.previous = std::make_shared<const Plan>(job.keep.empty() ? Plan{} : planned_plan_);
  job.cancel = cancel_;
  QPointer<ExplorerController> self(this);
  job.first_pass = [self, generation](Plan first) {
    QMetaObject::invokeMethod(
        self.data(),
        [self, generation, first = std::move(first)]() mutable {
          if (self) self->take_first_pass(generation, std::move(first));
        },
        Qt::QueuedConnection);
  };
  job.progress = [self, generation](const PlannerProgress& progress) {
    const double fraction = progress.fraction;
    const qint64 best = progress.best_total_bytes;
    // Copied here: the message lives only during the call.
    const QString what = QString::fromUtf8(progress.message.data(), static_cast<qsizetype>(progress.message.size()));
    QMetaObject::invokeMethod(
        self.data(),
        [self, generation, fraction, best, what] {
          if (self && self->generation_ == generation) emit self->planning_progress(fraction, best, what);
        },
        Qt::QueuedConnection);
  };
  plan_watcher_.setProperty("generation", QVariant::fromValue<qulonglong>(generation));
  plan_watcher_.setFuture(QtConcurrent::run([job = std::move(job)]() { return run_planning_job(job); }));
}

void ExplorerController::start_export_check(uint64_t generation) {
  export_checking_ = false;
  if (!source_ || !plan_fits(problem_, plan_) || plan_.has_errors()) return;
  // The export, dry, on a thread of its own once the plan is shown: what it would refuse is known
  // before the user asks for it, and a slow export (libclang on a large tree) never delays the plan.
  export_checking_ = true;
  const auto problem = std::make_shared<const Problem>(problem_);
  const auto plan = std::make_shared<const Plan>(plan_);
  const std::shared_ptr<const ModelExporter> source = source_;
  export_check_watcher_.setProperty("generation", QVariant::fromValue<qulonglong>(generation));
  export_check_watcher_.setFuture(QtConcurrent::run([problem, plan, source]() -> QString {
    try {
      source->export_plan(*problem, *plan, ExportOptions{});
    } catch (const std::exception& e) {
      return QString::fromStdString(e.what());
    }
    return {};
  }));
}

void ExplorerController::take_first_pass(uint64_t generation, Plan plan) {
  if (generation != generation_ || !planning_) return;  // outdated, or the search was faster
  plan_ = std::move(plan);
  first_pass_ = true;
  emit plan_ready();
}

QString ExplorerController::reference_name() const {
  // A reference that is the toolchain's planner run here (TVM's greedy_by_size for USMP-off
  // output) is named by that planner: "-7.9 KiB vs greedy_by_size".
  if (!reference_label_.isEmpty()) return reference_label_;
  return input_ ? QString::fromStdString(input_->reference) : QStringLiteral("TVM");
}

void ExplorerController::take_reference_and_unpinned(const Plan& plan) {
  const SessionEdits& edits = history_.current();
  const bool own_pools = edits.pools == initial_edits(input_->problem, "").pools;
  const bool fits = plan_fits(problem_, plan) && !plan.has_errors();
  // The reference plan's bytes, from its own run on the input as it is; where the input carries
  // no plan and its frontend names none, that run is the reference every other plan is measured against.
  if (reference_plan_bytes_ < 0 && plan.algorithm == reference_algorithm_ && own_pools && edits.pins.empty()) {
    reference_plan_bytes_ = plan.total_size();
    if (!reference_ && fits) {
      reference_ = plan;
      reference_label_ = QString::fromStdString(plan.algorithm);
    }
  }
  // What pins cost: the same planner and pools without them, remembered while there are none.
  if (edits.pins.empty() && fits) {
    unpinned_total_ = plan.total_size();
    unpinned_algorithm_ = plan.algorithm;
    unpinned_pools_ = edits.pools;
  }
}

std::optional<qint64> ExplorerController::pin_cost() const {
  const SessionEdits& edits = history_.current();
  if (!has_input() || edits.pins.empty() || unpinned_total_ < 0 || planning_) return std::nullopt;
  if (plan_.algorithm != unpinned_algorithm_ || edits.pools != unpinned_pools_) return std::nullopt;
  if (!plan_fits(problem_, plan_) || plan_.has_errors()) return std::nullopt;
  return plan_.total_size() - unpinned_total_;
}

std::vector<qint64> ExplorerController::reference_pool_bytes() const {
  std::vector<qint64> bytes(problem_.pools.size(), -1);
  if (!reference_) return bytes;
  const std::vector<PoolSetting>& pools = history_.current().pools;
  for (size_t p = 0; p < pools.size() && p < bytes.size(); ++p) {
    const std::optional<int> base = input_->problem.find_pool(pools[p].base);
    if (base && static_cast<size_t>(*base) < reference_->pool_sizes.size())
      bytes[p] = reference_->pool_sizes[static_cast<size_t>(*base)];
  }
  return bytes;
}

std::vector<Allocation> ExplorerController::reference_allocations() const {
  std::vector<Allocation> mapped(problem_.buffers.size(), Allocation{});
  if (!reference_) return mapped;
  std::vector<int> current_of_base(input_->problem.pools.size(), -1);
  const std::vector<PoolSetting>& pools = history_.current().pools;
  for (size_t p = 0; p < pools.size(); ++p) {
    if (const std::optional<int> base = input_->problem.find_pool(pools[p].base))
      current_of_base[static_cast<size_t>(*base)] = static_cast<int>(p);
  }
  for (size_t b = 0; b < mapped.size() && b < reference_->allocations.size(); ++b) {
    const Allocation& a = reference_->allocations[b];
    if (a.placed() && static_cast<size_t>(a.pool) < current_of_base.size() &&
        current_of_base[static_cast<size_t>(a.pool)] >= 0)
      mapped[b] = Allocation{current_of_base[static_cast<size_t>(a.pool)], a.offset};
  }
  return mapped;
}

std::optional<qint64> ExplorerController::difference_to_reference() const {
  if (!reference_ || plan_.algorithm == kAsBuilt || !plan_fits(problem_, plan_)) return std::nullopt;
  return plan_.total_size() - reference_->total_size();
}

void ExplorerController::announce_compared_plan(QPointer<ExplorerController> self,
                                                const std::shared_ptr<std::atomic<bool>>& run, int index,
                                                const Plan& plan) {
  QMetaObject::invokeMethod(
      self.data(),
      [self, run, index, plan] {
        // Only for the comparison still running (a newer one replaces compare_cancel_).
        if (self && self->compare_cancel_ == run) emit self->comparison_plan_ready(index, plan);
      },
      Qt::QueuedConnection);
}

void ExplorerController::compare(const QStringList& algorithms) {
  if (!has_input()) return;
  const Problem problem = problem_;
  const std::optional<Plan> as_built = input_->as_built;
  const bool unedited =
      history_.current().pools == initial_edits(input_->problem, "").pools && history_.current().pins.empty();
  const double time_limit = history_.current().time_limit_seconds;
  std::vector<std::string> names;
  for (const QString& name : algorithms)
    names.push_back(name.toStdString());
  if (compare_cancel_) compare_cancel_->store(true);
  compare_cancel_ = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<std::atomic<bool>> cancel = compare_cancel_;
  QPointer<ExplorerController> self(this);
  pending_comparison_problem_ = problem;
  pending_comparison_time_limit_ = time_limit;
  compare_watcher_.setFuture(QtConcurrent::run([=]() {
    std::vector<Plan> plans;
    const int total = static_cast<int>(names.size());
    // Each plan is shown as it is made (Compare fills its row at once), then kept for the result.
    auto keep = [&](int k, Plan plan) {
      announce_compared_plan(self, cancel, k, plan);
      plans.push_back(std::move(plan));
    };
    for (int k = 0; k < total && !cancel->load(); ++k) {
      const std::string& name = names[static_cast<size_t>(k)];
      const QString running = QString::fromStdString(name);
      QMetaObject::invokeMethod(
          self.data(),
          [self, k, total, running] {
            if (self) emit self->comparison_progress(k, total, running);
          },
          Qt::QueuedConnection);
      if (name == kAsBuilt) {
        if (!as_built) continue;
        if (!unedited) {
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
          keep(k, std::move(refused));
          continue;
        }
        Plan plan = *as_built;
        plan.algorithm = kAsBuilt;
        finish_plan(problem, plan);
        keep(k, std::move(plan));
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

bool ExplorerController::comparison_current() const {
  return has_input() && !comparison_.empty() && comparison_problem_ == problem_ &&
         comparison_time_limit_ == history_.current().time_limit_seconds;
}

void ExplorerController::cancel_comparison() {
  if (compare_cancel_) compare_cancel_->store(true);
}

void ExplorerController::wait_idle() {
  while (loading_ || planning_ || exporting_ || export_checking_ || compare_watcher_.isRunning()) {
    load_watcher_.waitForFinished();
    plan_watcher_.waitForFinished();
    compare_watcher_.waitForFinished();
    export_watcher_.waitForFinished();
    export_check_watcher_.waitForFinished();
    QCoreApplication::processEvents();
  }
}

}  // namespace usmpx::app

namespace usmpx::app {

bool ExplorerController::can_export_sources(QString* why) const {
  auto fail = [why](const QString& reason) {
    if (why) *why = reason;
    return false;
  };
  if (!has_input()) return fail(tr("Nothing is open."));
  if (!source_)
    return fail(tr("Sources are exported for Model Library Format inputs, TIR dumps, TFLite models, ExecuTorch "
                   "programs and firmware files; %1")
                    .arg(QString::fromStdString(export_refusal(*input_))));
  if (planning_) return fail(tr("Planning is still running."));
  if (export_checking_) return fail(tr("Checking that the export succeeds…"));
  if (!plan_fits(problem_, plan_) || plan_.has_errors())
    return fail(tr("The plan does not fit or is invalid; see the diagnostics."));
  if (!export_error_.isEmpty()) return fail(tr("The export would fail: %1").arg(export_error_));
  return true;
}

void ExplorerController::export_sources(const QString& target, bool harness, bool force) {
  QString why;
  if (exporting_) return;
  if (!can_export_sources(&why)) {
    emit export_finished(false, why);
    return;
  }
  exporting_ = true;
  const std::string input = input_path_.toStdString();
  const std::string out = target.toStdString();
  const Problem problem = problem_;
  const Plan plan = plan_;
  const std::shared_ptr<const ModelExporter> source = source_;
  export_watcher_.setFuture(QtConcurrent::run([=]() -> QPair<bool, QString> {
    try {
      // The input as read at load time, with its code: its buffers match the problem's one to one.
      ExportOptions options;
      options.harness = harness;
      // A model file's export: its copy alone when the target names one, else a folder with the
      // copy and what a firmware compiles of it (as `usmpx export`).
      options.firmware_sources = !names_model_copy(out, input);
      const ExportBundle bundle = source->export_plan(problem, plan, options);
      write_bundle(bundle, out, {force}, input);
      // What was written, where: one file is the target itself; a folder or archive lists its
      // changed files under it (never the input's name for a file it did not write).
      QString summary;
      if (bundle.single_file) {
        summary = tr("Wrote %1: 1 file.").arg(QString::fromStdString(out));
      } else {
        const size_t files = bundle.files.size();
        summary = tr("Wrote %1: %2 %3, %4 changed or new.")
                      .arg(QString::fromStdString(out))
                      .arg(files)
                      .arg(files == 1 ? tr("file") : tr("files"))
                      .arg(bundle.changed.size());
        for (const std::string& path : bundle.changed)
          summary += QStringLiteral("\n  ") + QString::fromStdString(out + "/" + path);
      }
      for (const Diagnostic& d : bundle.notes)
        summary += QStringLiteral("\n") + QString::fromStdString(d.message);
      return {true, summary};
    } catch (const std::exception& e) {
      return {false, QString::fromStdString(e.what())};
    }
  }));
}

}  // namespace usmpx::app
