#include "export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>

#include "explorer_controller.h"
#include "inputs/input_facts.h"
#include "window_fit.h"

namespace usmpx::app {
namespace {

const QStringList kSuffixes = {QString(), QStringLiteral(".tar"), QStringLiteral(".tar.gz")};

QString without_suffix(QString path) {
  for (const QString& s : {QStringLiteral(".tar.gz"), QStringLiteral(".tgz"), QStringLiteral(".tar")}) {
    if (path.endsWith(s)) return path.left(path.size() - s.size());
  }
  return path;
}

// The pools the export writes out as code: name, size, what defines them, their linker section.
QTableWidget* exported_pools_table(const std::vector<ExportedPool>& pools, QWidget* parent) {
  auto* table = new QTableWidget(parent);
  table->setColumnCount(4);
  table->setHorizontalHeaderLabels(
      {QObject::tr("Pool"), QObject::tr("Size"), QObject::tr("Defined by"), QObject::tr("Linker section")});
  table->verticalHeader()->hide();
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setRowCount(static_cast<int>(pools.size()));
  for (int r = 0; r < static_cast<int>(pools.size()); ++r) {
    const ExportedPool& p = pools[static_cast<size_t>(r)];
    table->setItem(r, 0, new QTableWidgetItem(QString::fromStdString(p.name)));
    table->setItem(r, 1, new QTableWidgetItem(QLocale().toString(static_cast<qlonglong>(p.size_bytes))));
    table->setItem(
        r, 2,
        new QTableWidgetItem(p.defined_by_code ? QObject::tr("the generated code") : QObject::tr("the application")));
    table->setItem(r, 3, new QTableWidgetItem(QString::fromStdString(p.section)));
  }
  table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table->horizontalHeader()->setStretchLastSection(true);
  return table;
}

// What is written and into what, and the build the memory figures are for.
QString export_note(const ExplorerController& controller, const ExportForm& form_of) {
  QString what = QString::fromStdString(form_of.what);
  what.replace(QStringLiteral("{input}"), QFileInfo(controller.input_path()).fileName());
  what.replace(QStringLiteral("{plan}"), QString::fromStdString(controller.plan().algorithm));
  if (form_of.pools_from_panel)
    what += QLatin1Char(' ') + QObject::tr("Sections and internal/external are set in the Pools panel.");
  // The build the memory figures written are for, always named (Plan ▸ TFLM Build chooses it).
  if (const QString build = controller.runtime_build_text(); !build.isEmpty()) {
    what +=
        QLatin1Char(' ') + (controller.default_runtime_build()
                                ? QObject::tr("Memory figures are for %1 (the default build).").arg(build)
                                : QObject::tr("<b>Memory figures are for %1</b>, not the default build.").arg(build));
  }
  return what;
}

}  // namespace

ExportDialog::ExportDialog(const ExplorerController& controller, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Export Sources"));
  path_ = new QLineEdit(this);
  path_->setObjectName(QStringLiteral("exportPath"));
  auto* browse = new QPushButton(tr("Browse…"), this);
  connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
  auto* path_row = new QHBoxLayout;
  path_row->addWidget(path_, 1);
  path_row->addWidget(browse);
  format_ = new QComboBox(this);
  format_->addItems({tr("Folder"), tr("Tar archive (.tar)"), tr("Compressed tar archive (.tar.gz)")});
  connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::fit_suffix);
  harness_ = new QCheckBox(tr("Add a test harness (harness/: main.c and a Makefile for this machine and for "
                              "Cortex-M4/M7 on qemu)"),
                           this);
  harness_->setObjectName(QStringLiteral("exportHarness"));

  const std::vector<ExportedPool> pools = controller.exported_pools();
  pools_ = exported_pools_table(pools, this);

  // What is written and into what: the input's family says (ExportForm), the dialog only shows it.
  const ExportForm form_of = export_form(controller.input());
  note_ = new QLabel(export_note(controller, form_of), this);
  note_->setObjectName(QStringLiteral("exportNote"));
  note_->setWordWrap(true);
  file_filter_ = QString::fromStdString(form_of.file_filter);

  auto* form = new QFormLayout;
  form->addRow(tr("Write to:"), path_row);
  form->addRow(tr("Format:"), format_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  // The dialog says so, with the reason, when the export cannot succeed.
  QString why;
  const bool can_export = controller.can_export_sources(&why);
  if (!can_export) {
    note_->setText(tr("<b>Cannot export:</b> %1").arg(why.toHtmlEscaped()));
    buttons->button(QDialogButtonBox::Ok)->setToolTip(why);
  }
  connect(path_, &QLineEdit::textChanged, this, [this, buttons, can_export] {
    buttons->button(QDialogButtonBox::Ok)->setEnabled(can_export && !path_->text().trimmed().isEmpty());
  });
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(note_);
  layout->addLayout(form);
  layout->addWidget(harness_);
  layout->addWidget(pools_, 1);
  layout->addWidget(buttons);
  const QString proposed =
      QDir(export_folder())
          .filePath(QString::fromStdString(proposed_export_name(controller.input_path().toStdString(), form_of)));
  if (pools.empty() || !form_of.pools_from_panel) pools_->hide();  // no pools the dialog can list
  if (!form_of.archives) {
    format_->setEnabled(false);
    form->setRowVisible(format_, false);
  }
  if (!form_of.harness) {
    harness_->setChecked(false);
    harness_->hide();
  }
  if (form_of.one_file) {
    path_->setText(proposed);
  } else {
    set_target(proposed);
  }
  fit_window(this, QSize(640, 360));
}

QString export_folder() {
  const QString last = QSettings().value(QStringLiteral("lastExportDir")).toString();
  return !last.isEmpty() && QFileInfo(last).isDir() ? last : QDir::homePath();
}

void remember_export(const QString& target) {
  QSettings().setValue(QStringLiteral("lastExportDir"), QFileInfo(target).absolutePath());
}

QString ExportDialog::target() const {
  return path_->text().trimmed();
}

bool ExportDialog::harness() const {
  return harness_->isChecked();
}

void ExportDialog::set_target(const QString& path) {
  path_->setText(path);
  format_->blockSignals(true);
  format_->setCurrentIndex(path.endsWith(QStringLiteral(".tar.gz")) || path.endsWith(QStringLiteral(".tgz")) ? 2
                           : path.endsWith(QStringLiteral(".tar"))                                           ? 1
                                                                                                             : 0);
  format_->blockSignals(false);
}

void ExportDialog::set_harness(bool on) {
  harness_->setChecked(on);
}

void ExportDialog::fit_suffix() {
  path_->setText(without_suffix(target()) + kSuffixes[format_->currentIndex()]);
}

void ExportDialog::browse() {
  QString chosen;
  if (!file_filter_.isEmpty()) {  // one model file
    chosen = QFileDialog::getSaveFileName(this, tr("Write the planned model"), target(), file_filter_);
  } else if (format_->currentIndex() == 0) {
    chosen = QFileDialog::getSaveFileName(this, tr("Export into folder"), target(), QString(), nullptr,
                                          QFileDialog::ShowDirsOnly);
  } else {
    chosen =
        QFileDialog::getSaveFileName(this, tr("Export archive"), target(), tr("MLF archives (*.tar *.tar.gz *.tgz)"));
  }
  if (!chosen.isEmpty()) set_target(chosen);
}

}  // namespace usmpx::app
