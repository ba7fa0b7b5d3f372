#pragma once

#include <QObject>
#include <QString>
#include <functional>

namespace usmpx::views {
class PoolChartWidget;
}

namespace usmpx::app {

class ExplorerController;
class StatusSummary;
class UserPrompts;

// File ▸ Export Sources and Export Report: the dialogs, the question before a non-empty target
// is replaced, and how each export ended, said in the status bar (and a dialog).
class ExportCommands : public QObject {
  Q_OBJECT

 public:
  ExportCommands(ExplorerController* controller, views::PoolChartWidget* chart, StatusSummary* status,
                 const UserPrompts* prompts);

  void export_sources();
  // Exports to `target` (asking before replacing a non-empty one); what Export Sources does after its dialog.
  void start_export(const QString& target, bool harness);
  void export_report();
  // Picks Export Report's folder instead of the file dialog (tests); may name one that does not exist.
  void set_report_folder_chooser(std::function<QString()> chooser) { report_folder_chooser_ = std::move(chooser); }

 private:
  void on_export_finished(bool ok, const QString& summary);

  ExplorerController* controller_;
  views::PoolChartWidget* chart_;
  StatusSummary* status_;
  const UserPrompts* prompts_;
  std::function<QString()> report_folder_chooser_;
};

}  // namespace usmpx::app
