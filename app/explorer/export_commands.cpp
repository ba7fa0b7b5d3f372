// File ▸ Export Sources and Export Report.
#include "export_commands.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

#include "chart/pool_chart_widget.h"
#include "explorer_controller.h"
#include "export_dialog.h"
#include "report_writer.h"
#include "status_summary.h"
#include "user_prompts.h"

namespace usmpx::app {

ExportCommands::ExportCommands(ExplorerController* controller, views::PoolChartWidget* chart, StatusSummary* status,
                               const UserPrompts* prompts)
    : QObject(prompts->window()), controller_(controller), chart_(chart), status_(status), prompts_(prompts) {
  connect(controller_, &ExplorerController::export_finished, this, &ExportCommands::on_export_finished);
}

void ExportCommands::export_report() {
  if (!controller_->has_input()) return;
  // A folder that exists or one to create (typed as a name): the report makes it.
  const QFileInfo input(controller_->input_path());
  QString folder = report_folder_chooser_
                       ? report_folder_chooser_()
                       : QFileDialog::getSaveFileName(
                             prompts_->window(), tr("Export report into folder (an existing one, or a new name)"),
                             QDir(export_folder()).filePath(input.completeBaseName() + QStringLiteral("_report")),
                             QString(), nullptr, QFileDialog::ShowDirsOnly | QFileDialog::DontConfirmOverwrite);
  if (folder.isEmpty()) return;
  QString error;
  status_->show_message(tr("Writing the report into %1…").arg(folder));
  const QStringList files = write_review_report(*controller_, *chart_, folder, &error);
  if (files.isEmpty()) {
    status_->show_message(tr("Report not written: %1").arg(error), 10000);
    prompts_->error(tr("Cannot export report"), error);
    return;
  }
  remember_export(QDir(folder).absolutePath());
  status_->show_message(tr("Report written: %1").arg(files.join(QStringLiteral(", "))), 6000);
}

void ExportCommands::export_sources() {
  QString why;
  if (!controller_->can_export_sources(&why)) {
    status_->show_message(tr("Sources not exported: %1").arg(why), 10000);
    prompts_->error(tr("Cannot export sources"), why);
    return;
  }
  ExportDialog dialog(*controller_, prompts_->window());
  if (dialog.exec() != QDialog::Accepted) {
    status_->show_message(tr("Export cancelled"), 5000);
    return;
  }
  start_export(dialog.target(), dialog.harness());
}

void ExportCommands::start_export(const QString& target, bool harness) {
  const QFileInfo info(target);
  bool force = false;
  if (info.exists() && !(info.isDir() && QDir(target).isEmpty())) {
    if (prompts_->batch_mode()) {
      status_->show_message(tr("Sources not exported: %1 exists and is not empty").arg(target), 10000);
      prompts_->error(tr("Cannot export sources"), tr("%1 exists and is not empty.").arg(target));
      return;
    }
    const auto answer = QMessageBox::question(prompts_->window(), tr("Replace?"),
                                              tr("%1 exists and is not empty. Replace it with the export?").arg(target),
                                              QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes) {
      status_->show_message(tr("Export cancelled"), 5000);
      return;
    }
    force = true;
  }
  remember_export(target);  // the next export dialog starts there
  status_->show_message(tr("Exporting sources to %1…").arg(target));
  controller_->export_sources(target, harness, force);
}

void ExportCommands::on_export_finished(bool ok, const QString& summary) {
  // Every export ends with a status saying how it ended, never "Exporting…" left behind.
  if (!ok) {
    status_->show_message(tr("Export failed: %1").arg(summary.section(QLatin1Char('\n'), 0, 0)), 15000);
    prompts_->error(tr("Export failed"), summary);
    return;
  }
  status_->show_message(summary.section(QLatin1Char('\n'), 0, 0), 8000);
  if (!prompts_->batch_mode()) QMessageBox::information(prompts_->window(), tr("Sources exported"), summary);
}

}  // namespace usmpx::app
