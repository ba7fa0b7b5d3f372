#include "export_runner.h"

#include <QVariant>
#include <QtConcurrent/QtConcurrentRun>
#include <string>

#include "export/bundle_writer.h"
#include "inputs/input_facts.h"

namespace usmpx::app {

namespace {

// What an export wrote, where: one file is the target itself; a folder or archive lists its
// changed files under it (never the input's name for a file it did not write).
QString export_summary(const ExportBundle& bundle, const std::string& out) {
  QString summary;
  if (bundle.single_file) {
    summary = ExportRunner::tr("Wrote %1: 1 file.").arg(QString::fromStdString(out));
  } else {
    const size_t files = bundle.files.size();
    summary = ExportRunner::tr("Wrote %1: %2 %3, %4 changed or new.")
                  .arg(QString::fromStdString(out))
                  .arg(files)
                  .arg(files == 1 ? ExportRunner::tr("file") : ExportRunner::tr("files"))
                  .arg(bundle.changed.size());
    for (const std::string& path : bundle.changed)
      summary += QStringLiteral("\n  ") + QString::fromStdString(out + "/" + path);
  }
  for (const Diagnostic& d : bundle.notes)
    summary += QStringLiteral("\n") + QString::fromStdString(d.message);
  return summary;
}

}  // namespace

ExportRunner::ExportRunner(QObject* parent) : QObject(parent) {
  connect(&check_watcher_, &QFutureWatcher<QString>::finished, this, [this] {
    if (check_watcher_.property("generation").toULongLong() != generation_) return;  // an older plan's
    checking_ = false;
    error_ = check_watcher_.result();
    emit check_finished();
  });
  connect(&export_watcher_, &QFutureWatcher<QPair<bool, QString>>::finished, this, [this] {
    exporting_ = false;
    const QPair<bool, QString> result = export_watcher_.result();
    emit finished(result.first, result.second);
  });
}

ExportRunner::~ExportRunner() {
  export_watcher_.waitForFinished();
  check_watcher_.waitForFinished();
}

void ExportRunner::reset(std::shared_ptr<const ModelExporter> source, QString error) {
  source_ = std::move(source);
  error_ = std::move(error);
}

bool ExportRunner::can_export(const LoadedInput* input, const Problem& problem, const Plan& plan, bool planning,
                              QString* why) const {
  auto fail = [why](const QString& reason) {
    if (why) *why = reason;
    return false;
  };
  if (!input) return fail(tr("Nothing is open."));
  if (!source_)
    return fail(tr("Sources are exported for Model Library Format inputs, TIR dumps, TFLite models, ExecuTorch "
                   "programs and firmware files; %1")
                    .arg(QString::fromStdString(export_refusal(*input))));
  if (planning) return fail(tr("Planning is still running."));
  if (checking_) return fail(tr("Checking that the export succeeds…"));
  if (!plan_ok(problem, plan)) return fail(tr("The plan does not fit or is invalid; see the diagnostics."));
  if (!error_.isEmpty()) return fail(tr("The export would fail: %1").arg(error_));
  return true;
}

std::vector<ExportedPool> ExportRunner::exported_pools(const Problem& problem, const Plan& plan) const {
  return source_ ? source_->exported_pools(problem, plan) : std::vector<ExportedPool>{};
}

void ExportRunner::plan_started(uint64_t generation) {
  generation_ = generation;
  checking_ = false;  // a check of an older plan answers nothing now
}

void ExportRunner::start_check(uint64_t generation, const Problem& problem, const Plan& plan) {
  checking_ = false;
  if (!source_ || !plan_ok(problem, plan)) return;
  // The export, dry, on a thread of its own once the plan is shown: what it would refuse is known
  // before the user asks for it, and a slow export (libclang on a large tree) never delays the plan.
  checking_ = true;
  const auto shared_problem = std::make_shared<const Problem>(problem);
  const auto shared_plan = std::make_shared<const Plan>(plan);
  const std::shared_ptr<const ModelExporter> source = source_;
  check_watcher_.setProperty("generation", QVariant::fromValue<qulonglong>(generation));
  check_watcher_.setFuture(QtConcurrent::run([shared_problem, shared_plan, source]() -> QString {
    try {
      source->export_plan(*shared_problem, *shared_plan, ExportOptions{});
    } catch (const std::exception& e) {
      return QString::fromStdString(e.what());
    }
    return {};
  }));
}

void ExportRunner::start(const QString& input_path, const QString& target, const Problem& problem, const Plan& plan,
                         bool harness, bool force) {
  exporting_ = true;
  const std::string input = input_path.toStdString();
  const std::string out = target.toStdString();
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
      return {true, export_summary(bundle, out)};
    } catch (const std::exception& e) {
      return {false, QString::fromStdString(e.what())};
    }
  }));
}

void ExportRunner::wait() {
  export_watcher_.waitForFinished();
  check_watcher_.waitForFinished();
}

}  // namespace usmpx::app
