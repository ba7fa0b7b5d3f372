#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace usmpx::app {

class ExplorerController;

// Where export dialogs start: the folder of the last export (sources or report), else the home
// folder; never the input's own folder, often read-only or a checkout.
QString export_folder();
// Remembers the folder `target` (a file, folder or archive just written) lies in.
void remember_export(const QString& target);

// Asks where and how to export the firmware sources of the current plan: a folder or a .tar /
// .tar.gz archive, with or without the test harness. Shows the pools that will be written, with
// their sizes, whether the application passes them in, and their linker sections (edited in the
// Pools panel).
class ExportDialog : public QDialog {
  Q_OBJECT

 public:
  ExportDialog(const ExplorerController& controller, QWidget* parent = nullptr);

  QString target() const;
  bool harness() const;
  void set_target(const QString& path);
  void set_harness(bool on);
  QTableWidget* pools_table() const { return pools_; }
  QLabel* note() const { return note_; }

 private:
  void browse();
  void fit_suffix();

  QLineEdit* path_;
  QComboBox* format_;
  QCheckBox* harness_;
  QTableWidget* pools_;
  QLabel* note_;
  QString file_filter_;  // the file dialog's filter when the export is one file ("" otherwise)
};

}  // namespace usmpx::app
