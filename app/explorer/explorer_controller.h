#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <optional>

#include "comparison_runner.h"
#include "export_runner.h"
#include "inputs/input_file.h"
#include "model/conflict_graph.h"
#include "reference_plans.h"
#include "session/edit_history.h"
#include "session/session_file.h"
#include "session_store.h"

namespace usmpx::app {

struct InputReading;

// The explorer's state and work, without widgets: the loaded input, the edits on top of it (with
// undo), the problem they give, and the current plan. Loading and planning run on worker threads;
// a plan that arrives for an outdated problem is dropped, and starting a new plan cancels the
// running one. Its parts: the session file and autosave (SessionStore), Compare (ComparisonRunner),
// the reference plans (ReferencePlans) and the exports (ExportRunner).
class ExplorerController : public QObject {
  Q_OBJECT

 public:
  explicit ExplorerController(QObject* parent = nullptr);
  ~ExplorerController() override;

  // Starts loading; ends with input_loaded or load_failed. `edits`, when given, are applied to the
  // loaded input (a reopened session) instead of the initial edits.
  void open_input(const QString& path, const QString& module = {}, std::optional<SessionEdits> edits = std::nullopt,
                  const QString& session_path = {}, SessionView view = {});
  // Reads a .usmpx.json file and opens its input with its edits. Returns false with `error` set.
  bool open_session(const QString& path, QString* error);
  // Opens what the autosave file holds (after a crash). The state counts as unsaved; Save goes to
  // the session file the user had open then, or, when there was none, asks for one (never to the
  // autosave file).
  bool restore_autosave(QString* error);
  bool save_session(const QString& path, QString* error);
  // Waits for a running load or plan (tests and batch mode).
  void wait_idle();

  // Validates `next` against the input, records it as one undo step and re-plans.
  bool apply_edit(const QString& description, SessionEdits next);
  void undo();
  void redo();
  void replan();
  void cancel_planning();
  // Runs several algorithms on the current problem on a worker thread, reporting each as it starts
  // (comparison_progress) and each plan as soon as it is made (comparison_plan_ready); ends with
  // comparison_ready, also when cancelled (with the plans made).
  void compare(const QStringList& algorithms);
  void cancel_comparison();
  bool comparing() const { return comparison_runner_.running(); }
  // Whether the current input and plan can be exported as firmware sources; `why` says why not.
  // Each final plan is exported in memory on the planning thread, so a plan the export would refuse
  // (code the reader could not read, constants without data) is known before anyone clicks.
  bool can_export_sources(QString* why = nullptr) const;
  // The pools an export of the current plan writes out as code (the export dialog's table).
  std::vector<ExportedPool> exported_pools() const {
    return has_input() ? exports_.exported_pools(problem_, plan_) : std::vector<ExportedPool>{};
  }
  // Writes the sources for the current plan (an MLF folder or .tar/.tar.gz, see export_mlf) on a
  // worker thread; ends with export_finished. `force` replaces an existing non-empty target.
  void export_sources(const QString& target, bool harness, bool force);
  bool exporting() const { return exports_.exporting(); }

  bool has_input() const { return input_ != nullptr; }
  const LoadedInput& input() const { return *input_; }
  const Problem& problem() const { return problem_; }
  const Plan& plan() const { return plan_; }
  // How many buffers each buffer conflicts with (both directions), and one buffer's conflicts,
  // computed on demand: the full lists are quadratic when constants live throughout.
  const std::vector<int>& conflict_counts() const { return conflict_counts_; }
  std::vector<int> conflicts_of(int buffer) const;
  const EditHistory& history() const { return history_; }
  const SessionEdits& edits() const { return history_.current(); }
  const std::vector<Plan>& comparison() const { return comparison_runner_.plans(); }
  // Whether the last comparison was made on the problem as it is now (same pools, pins and time
  // limit); after an edit its plans describe another model and reports leave them out.
  bool comparison_current() const;
  QString input_path() const { return input_path_; }
  QString module() const { return module_; }
  QString session_path() const { return session_store_.path(); }
  // How the input is looked at (column widths), saved with the session; not an edit.
  const SessionView& session_view() const { return view_; }
  void set_session_view(SessionView view) { view_ = std::move(view); }
  bool modified() const { return has_input() && (session_store_.recovered() || !history_.is_clean()); }
  // The runtime build memory figures are for (TFLite: TFLM's kernel set and target; "" = default).
  // An undoable edit: changing it reads the input again with the other edits and the history
  // kept; it is saved in the session. A newly opened input starts on the default build.
  void set_runtime_build(const QString& kernels, const QString& target);
  void set_runtime_build(const QString& kernels, const QString& target, const QString& version);
  // The runtime's version the figures are for ("" = the default), an undoable edit like the build.
  void set_runtime_version(const QString& version);
  QString runtime_kernels() const { return QString::fromStdString(history_.current().runtime_kernels); }
  QString runtime_target() const { return QString::fromStdString(history_.current().runtime_target); }
  QString runtime_version() const { return QString::fromStdString(history_.current().runtime_version); }
  // Whether the figures are for the input's default build (none to choose counts as default).
  bool default_runtime_build() const;
  // The build the figures are for, in words ("" when they do not depend on one).
  QString runtime_build_text() const;
  // What the firmware needs beyond the plan's pools, for the status bar ("" when the input says nothing).
  QString runtime_status() const;
  QString runtime_memory_text() const;  // the same in full (TFLM's kTensorArenaSize line)
  bool busy() const { return loading_ || planning_; }
  bool planning() const { return planning_; }
  // The shown plan is the instant first pass; the searching planner is still improving it.
  bool plan_is_first_pass() const { return first_pass_; }

  // TVM's own plan (as-built) when the input carries one: the reference every other plan is
  // compared with, also after edits. Pool sizes per current pool (-1 where a pool has no
  // counterpart in the input), allocations per buffer with pools mapped to the current pools.
  bool has_reference() const { return references_.has_plan(); }
  const Plan& reference() const { return references_.plan(); }
  std::vector<qint64> reference_pool_bytes() const;
  std::vector<Allocation> reference_allocations() const;
  // Current total minus TVM's (nullopt without a reference, or while the plan is TVM's own).
  std::optional<qint64> difference_to_reference() const;
  // The fidelity check of TVM's plan as read: which of TVM's algorithms, re-run on the analysed
  // problem, reproduces its offsets, e.g. "greedy_by_size reproduces 73 of 73 offsets" (empty
  // without a reference).
  QString reference_fidelity() const { return references_.fidelity(); }
  // Whose plan the reference is: "TVM" (the plan the input carries) or, for inputs whose runtime
  // plans by itself (TFLite Micro), that runtime's name.
  QString reference_name() const { return references_.name(input_.get()); }
  // Algorithms offered: the planner catalog (a toolchain's own planner only for its inputs), plus
  // as-built when the input has a plan.
  QStringList algorithms() const;
  // The input's reference plan (inputs/reference_plan.h), the one it opens on, in words
  // ("as-built (the plan the input carries)"), and its total bytes (-1 until it was planned).
  QString reference_plan_text() const { return references_.plan_text(); }
  qint64 reference_plan_bytes() const { return references_.plan_bytes(); }
  // What the pins cost: the current plan's total less the same planner's on the same pools
  // without pins (nullopt without pins, or when that plan is not known or this one does not fit).
  std::optional<qint64> pin_cost() const;

  // Where the crash-safe copy of unsaved edits lives.
  static QString autosave_path() { return SessionStore::autosave_path(); }
  // Beside the autosave file: the session file the autosaved edits belong to (may be empty).
  static QString autosave_origin_path() { return SessionStore::autosave_origin_path(); }
  void remove_autosave() const { SessionStore::remove_autosave(); }

 signals:
  void loading_started(const QString& path);
  void input_loaded();
  void load_failed(const QString& message);
  void problem_changed();
  void plan_ready();
  void planning_started(const QString& algorithm);
  // `what` names what is being searched (e.g. "pool 'sram'"); `best_bytes` is its best size so
  // far (-1 when unknown).
  void planning_progress(double fraction, qint64 best_bytes, const QString& what);
  void planning_finished();
  void comparison_progress(int done, int total, const QString& running);
  // One algorithm's plan, as soon as it is made (`index` into the algorithms given to compare).
  void comparison_plan_ready(int index, const usmpx::Plan& plan);
  void comparison_ready();
  void export_finished(bool ok, const QString& summary);
  // The dry export of the current plan is done (can_export_sources knows its answer).
  void export_check_finished();
  void edit_rejected(const QString& message);
  void history_changed();
  // Something the user should know that is not an error (e.g. the planner was switched).
  void notice(const QString& message);

 private:
  void start_loading(const QString& path, const QString& module, std::optional<SessionEdits> edits,
                     const QString& session_path, SessionView view);
  // After the history moved: reads the input again when the build changed, else re-plans.
  void follow_history();
  // Pushes a change of the runtime build (`what` in words) as an undoable edit and reads the input again.
  void push_runtime_edit(const QString& what, SessionEdits next);
  void finish_loading();
  void finish_planning();
  void set_problem_from_edits();
  void start_planning();
  void take_first_pass(uint64_t generation, Plan plan);
  SessionFile session_file() const;

  std::unique_ptr<LoadedInput> input_;
  // The build the loaded input was read for; a reload for another keeps the history.
  std::string loaded_kernels_;
  std::string loaded_target_;
  std::string loaded_version_;
  bool pending_keep_history_ = false;
  Problem problem_;
  Plan plan_;
  bool first_pass_ = false;
  // The last complete plan and the problem it was made for: pools an edit leaves unchanged keep it.
  Problem planned_problem_;
  Plan planned_plan_;
  double planned_time_limit_ = 0;
  std::vector<int> conflict_counts_;
  EditHistory history_;
  QString input_path_;
  QString module_;
  SessionView view_;
  SessionView pending_view_;
  std::optional<SessionEdits> pending_edits_;
  bool loading_ = false;
  bool planning_ = false;
  uint64_t generation_ = 0;
  std::shared_ptr<std::atomic<bool>> cancel_;
  QFutureWatcher<std::shared_ptr<InputReading>> load_watcher_;
  QFutureWatcher<Plan> plan_watcher_;
  SessionStore session_store_;
  ReferencePlans references_;
  ComparisonRunner comparison_runner_;
  ExportRunner exports_;
};

}  // namespace usmpx::app
