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

  pools_ = new QTableWidget(this);
  pools_->setColumnCount(4);
  pools_->setHorizontalHeaderLabels({tr("Pool"), tr("Size"), tr("Defined by"), tr("Linker section")});
  pools_->verticalHeader()->hide();
  pools_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  const std::vector<ExportedPool> pools = controller.exported_pools();
  pools_->setRowCount(static_cast<int>(pools.size()));
  for (int r = 0; r < static_cast<int>(pools.size()); ++r) {
    const ExportedPool& p = pools[static_cast<size_t>(r)];
    pools_->setItem(r, 0, new QTableWidgetItem(QString::fromStdString(p.name)));
    pools_->setItem(r, 1, new QTableWidgetItem(QLocale().toString(static_cast<qlonglong>(p.size_bytes))));
    pools_->setItem(r, 2, new QTableWidgetItem(p.defined_by_code ? tr("the generated code") : tr("the application")));
    pools_->setItem(r, 3, new QTableWidgetItem(QString::fromStdString(p.section)));
  }
  pools_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  pools_->horizontalHeader()->setStretchLastSection(true);

  // A TFLite model gets its plan inside a copy of itself: one file, no C, no harness.
  const bool executorch = controller.input().format == InputFormat::kExecuTorch;
  const bool model_file = controller.input().format == InputFormat::kTflite || executorch;
  const bool firmware = controller.input().format == InputFormat::kFirmware;  // several models
  const QString what =
      executorch
          ? tr("The %2 plan is written into a copy of %1: new tensor offsets and planned buffer sizes, which "
               "ExecuTorch's runtime uses unchecked (this tool checks the plan first); the input is not changed.")
      : model_file ? tr("The %2 plan is written into a copy of %1 as its OfflineMemoryAllocation metadata, which TFLM "
                        "uses as given; the input is not changed.")
      : firmware   ? tr("Every model of %1 is written back with its part of the %2 plan, each in a folder named after "
                          "it, with usmpx_firmware.h giving the shared pools' sizes (and the TFLite Micro interpreters' "
                          "creation order); the inputs are not changed.")
      : controller.input().format == InputFormat::kMlf
          ? tr("The generated C of %1 is rewritten for the %2 plan; everything else is copied.")
          : tr("C is generated from the TIR of %1 with the %2 plan, as a Model Library Format module.");
  note_ = new QLabel(
      what.arg(QFileInfo(controller.input_path()).fileName(), QString::fromStdString(controller.plan().algorithm)) +
          (model_file ? QString()
                      : QLatin1Char(' ') + tr("Sections and internal/external are set in the Pools panel.")),
      this);
  note_->setWordWrap(true);

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
  const QFileInfo input(controller.input_path());
  if (model_file) {
    pools_->hide();  // the arena is the model's own; no linker sections, no code defining pools
    format_->setEnabled(false);
    form->setRowVisible(format_, false);
    harness_->setChecked(false);
    harness_->hide();
    path_->setText(QDir(export_folder())
                       .filePath(input.completeBaseName() +
                                 (executorch ? QStringLiteral("_planned.pte") : QStringLiteral("_planned.tflite"))));
  } else if (firmware) {
    // A folder per model (no pools the dialog can list: each model's exporter writes its own).
    if (pools.empty()) pools_->hide();
    QString name = input.fileName();
    for (const QString& s : {QStringLiteral(".usmpx-firmware.json"), QStringLiteral(".json")}) {
      if (name.endsWith(s)) name.chop(s.size());
    }
    set_target(QDir(export_folder()).filePath(name + QStringLiteral("_replanned")));
  } else {
    set_target(QDir(export_folder()).filePath(without_suffix(input.fileName()) + QStringLiteral("_replanned")));
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
  if (!format_->isEnabled()) {  // one model file
    chosen = QFileDialog::getSaveFileName(
        this, tr("Write the planned model"), target(),
        target().endsWith(QStringLiteral(".pte")) ? tr("ExecuTorch programs (*.pte)") : tr("TFLite models (*.tflite)"));
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
