#include "explorer_controller.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

#include "base/config_error.h"
#include "input_reading.h"
#include "inputs/input_facts.h"
#include "inputs/reference_plan.h"
#include "planners/incremental.h"
#include "planners/registry.h"
#include "planning_job.h"

namespace usmpx::app {

namespace {

constexpr const char* kDefaultAlgorithm = "best";

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

ExplorerController::ExplorerController(QObject* parent)
    : QObject(parent), session_store_([this]() -> std::optional<SessionFile> {
        if (!modified()) return std::nullopt;
        return session_file();
      }) {
  connect(&load_watcher_, &QFutureWatcher<std::shared_ptr<InputReading>>::finished, this,
          &ExplorerController::finish_loading);
  connect(&plan_watcher_, &QFutureWatcher<Plan>::finished, this, &ExplorerController::finish_planning);
  connect(&comparison_runner_, &ComparisonRunner::progress, this, &ExplorerController::comparison_progress);
  connect(&comparison_runner_, &ComparisonRunner::plan_ready, this, &ExplorerController::comparison_plan_ready);
  connect(&comparison_runner_, &ComparisonRunner::ready, this, &ExplorerController::comparison_ready);
  connect(&exports_, &ExportRunner::check_finished, this, &ExplorerController::export_check_finished);
  connect(&exports_, &ExportRunner::finished, this, &ExplorerController::export_finished);
}

ExplorerController::~ExplorerController() {
  if (cancel_) cancel_->store(true);
  comparison_runner_.cancel();
  load_watcher_.waitForFinished();
  plan_watcher_.waitForFinished();
  comparison_runner_.wait();
  exports_.wait();
}

void ExplorerController::finish_planning() {
  const uint64_t generation = plan_watcher_.property("generation").toULongLong();
  if (generation != generation_) return;  // a newer plan is on its way
  plan_ = plan_watcher_.result();
  planning_ = false;
  first_pass_ = false;
  planned_problem_ = problem_;
  planned_plan_ = plan_;
  planned_time_limit_ = history_.current().time_limit_seconds;
  references_.take(*input_, problem_, history_.current(), plan_);
  emit plan_ready();
  emit planning_finished();
  exports_.start_check(generation, problem_, plan_);
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
  session_store_.set_path(session_path);
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
  exports_.reset(std::move(result->source), result->source_error);
  session_store_.loaded();
  loaded_kernels_ = load_watcher_.property("kernels").toString().toStdString();
  loaded_target_ = load_watcher_.property("target").toString().toStdString();
  loaded_version_ = load_watcher_.property("version").toString().toStdString();
  const bool keep_history = pending_keep_history_;
  pending_keep_history_ = false;
  view_ = std::move(pending_view_);
  pending_view_ = {};
  input_path_ = QFileInfo(load_watcher_.property("path").toString()).absoluteFilePath();
  module_ = load_watcher_.property("module").toString();
  comparison_runner_.clear();
  planned_plan_ = Plan{};
  references_.reset(*input_, std::move(result->runtime_plan), result->fidelity);
  SessionEdits initial = initial_edits(input_->problem, reference_algorithm(*input_));
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
  session_store_.schedule_autosave();
  start_planning();
  return true;
}

void ExplorerController::undo() {
  if (!history_.can_undo() || loading_) return;
  history_.undo();
  emit history_changed();
  session_store_.schedule_autosave();
  follow_history();
}

void ExplorerController::redo() {
  if (!history_.can_redo() || loading_) return;
  history_.redo();
  emit history_changed();
  session_store_.schedule_autosave();
  follow_history();
}

void ExplorerController::set_runtime_build(const QString& kernels, const QString& target) {
  set_runtime_build(kernels, target, runtime_version());
}

void ExplorerController::set_runtime_build(const QString& kernels, const QString& target, const QString& version) {
  if (!has_input() || loading_) return;
  SessionEdits next = history_.current();
  // Compared as the builds they name ("" is the default, the first of each list).
  const RuntimeBuilds builds = runtime_builds(*input_);
  const auto same = [](const QString& chosen, const std::string& was, const std::vector<std::string>& options) {
    const auto named = [&](const std::string& v) { return v.empty() && !options.empty() ? options.front() : v; };
    return named(chosen.toStdString()) == named(was);
  };
  const bool same_build =
      same(kernels, next.runtime_kernels, builds.kernels) && same(target, next.runtime_target, builds.targets);
  const bool same_version = same(version, next.runtime_version, builds.versions);
  if (same_build && same_version) return;
  next.runtime_kernels = kernels.toStdString();
  next.runtime_target = target.toStdString();
  next.runtime_version = version.toStdString();
  const QString shown_kernels = kernels.isEmpty() ? tr("default kernels") : kernels;
  const QString shown_target = target.isEmpty() ? tr("default target") : target;
  const QString shown_version = version.isEmpty() ? tr("default") : version;
  QString what = QStringLiteral("build: %1, %2").arg(shown_kernels, shown_target);
  if (same_build) what = QStringLiteral("version: %1").arg(shown_version);
  if (!same_build && !same_version) what += QStringLiteral(", %1").arg(shown_version);
  push_runtime_edit(what, std::move(next));
}

void ExplorerController::set_runtime_version(const QString& version) {
  set_runtime_build(runtime_kernels(), runtime_target(), version);
}

void ExplorerController::push_runtime_edit(const QString& what, SessionEdits next) {
  const QString words = QString::fromStdString(runtime_builds(*input_).runtime) + QLatin1Char(' ') + what;
  history_.push(words.toStdString(), std::move(next));
  emit history_changed();
  session_store_.schedule_autosave();
  follow_history();
}

void ExplorerController::follow_history() {
  const SessionEdits& edits = history_.current();
  if (edits.runtime_kernels != loaded_kernels_ || edits.runtime_target != loaded_target_ ||
      edits.runtime_version != loaded_version_) {
    // The scratch buffers and the tail depend on the build: read the model again, history kept.
    session_store_.recover_on_load(session_store_.recovered());
    pending_keep_history_ = true;
    start_loading(input_path_, module_, edits, session_store_.path(), view_);
    return;
  }
  set_problem_from_edits();
  emit problem_changed();
  start_planning();
}

bool ExplorerController::default_runtime_build() const {
  return !has_input() || is_default_build(*input_, history_.current().runtime_kernels,
                                          history_.current().runtime_target, history_.current().runtime_version);
}

QString ExplorerController::runtime_build_text() const {
  return has_input() ? QString::fromStdString(usmpx::runtime_build_text(*input_)) : QString();
}

QString ExplorerController::runtime_status() const {
  if (!has_input() || !input_->details) return {};
  return QString::fromStdString(input_->details->status_text(problem(), plan()));
}

QString ExplorerController::runtime_memory_text() const {
  if (!has_input() || !input_->details) return {};
  // One short line per figure, the one to paste first (InputDetails::memory_rows, as `usmpx` has them).
  QStringList lines;
  for (const std::string& row : input_->details->memory_rows(problem(), plan()))
    lines << QString::fromStdString(row);
  return lines.join(QLatin1Char('\n'));
}

// What a session file holds of the current state.
SessionFile ExplorerController::session_file() const {
  return SessionStore::file_of(input_path_, module_, history_.current(), view_);
}

bool ExplorerController::open_session(const QString& path, QString* error) {
  SessionFile session;
  if (!SessionStore::read(path, &session, error)) return false;
  start_loading(QString::fromStdString(session.input), QString::fromStdString(session.module), std::move(session.edits),
                QFileInfo(path).absoluteFilePath(), session.view);
  return true;
}

bool ExplorerController::restore_autosave(QString* error) {
  const QString origin = SessionStore::autosave_origin();
  if (!open_session(SessionStore::autosave_path(), error)) return false;
  // Not the autosave file: Save must never write there silently.
  session_store_.set_path(origin);
  session_store_.recover_on_load(true);
  return true;
}

bool ExplorerController::save_session(const QString& path, QString* error) {
  if (!has_input()) return false;
  if (!session_store_.save(path, session_file(), error)) return false;
  history_.mark_saved();
  emit history_changed();
  return true;
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
  exports_.plan_started(generation);
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

void ExplorerController::take_first_pass(uint64_t generation, Plan plan) {
  if (generation != generation_ || !planning_) return;  // outdated, or the search was faster
  plan_ = std::move(plan);
  first_pass_ = true;
  emit plan_ready();
}

std::optional<qint64> ExplorerController::pin_cost() const {
  if (!has_input() || planning_) return std::nullopt;
  return references_.pin_cost(problem_, history_.current(), plan_);
}

std::vector<qint64> ExplorerController::reference_pool_bytes() const {
  if (!has_input()) return std::vector<qint64>(problem_.pools.size(), -1);
  return references_.pool_bytes(*input_, problem_, history_.current());
}

std::vector<Allocation> ExplorerController::reference_allocations() const {
  if (!has_input()) return std::vector<Allocation>(problem_.buffers.size(), Allocation{});
  return references_.allocations(*input_, problem_, history_.current());
}

std::optional<qint64> ExplorerController::difference_to_reference() const {
  return references_.difference(problem_, plan_);
}

void ExplorerController::compare(const QStringList& algorithms) {
  if (!has_input()) return;
  const bool unedited =
      history_.current().pools == initial_edits(input_->problem, "").pools && history_.current().pins.empty();
  comparison_runner_.compare(algorithms, problem_, input_->as_built, unedited, history_.current().time_limit_seconds);
}

bool ExplorerController::comparison_current() const {
  return has_input() && comparison_runner_.made_for(problem_, history_.current().time_limit_seconds);
}

void ExplorerController::cancel_comparison() {
  comparison_runner_.cancel();
}

void ExplorerController::wait_idle() {
  while (loading_ || planning_ || exports_.exporting() || exports_.checking() || comparison_runner_.running()) {
    load_watcher_.waitForFinished();
    plan_watcher_.waitForFinished();
    comparison_runner_.wait();
    exports_.wait();
    QCoreApplication::processEvents();
  }
}

bool ExplorerController::can_export_sources(QString* why) const {
  return exports_.can_export(input_.get(), problem_, plan_, planning_, why);
}

void ExplorerController::export_sources(const QString& target, bool harness, bool force) {
  QString why;
  if (exports_.exporting()) return;
  if (!can_export_sources(&why)) {
    emit export_finished(false, why);
    return;
  }
  exports_.start(input_path_, target, problem_, plan_, harness, force);
}

}  // namespace usmpx::app
