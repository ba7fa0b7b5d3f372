#pragma once

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QObject>
#include <QTableWidget>
#include <QtTest>
#include <memory>

#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "explorer_controller.h"
#include "main_window.h"
#include "panels/pool_editor_widget.h"
#include "report_writer.h"

// The main window as the explorer's workflow tests drive it: made at a size, an input opened and
// planned, an algorithm chosen, a widget kept among the test artefacts to be looked at. Test
// classes derive from it and add their slots.
class ExplorerWindowFixture : public QObject {
 protected:
  std::unique_ptr<usmpx::app::MainWindow> window_;
  usmpx::app::ExplorerController* controller() { return window_->controller(); }

  // width < 0: the size the window gives itself (first start or saved geometry). `active`: the
  // window also takes the keyboard focus, for tests that type.
  void make_window(int width = 1600, int height = 1000, bool active = false) {
    window_ = std::make_unique<usmpx::app::MainWindow>();
    window_->set_batch_mode(true);
    if (width > 0) window_->resize(width, height);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    if (!active) return;
    window_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window_.get()));
  }

  void open(const QString& path) {
    QVERIFY(window_->open_path(path));
    controller()->wait_idle();
    QVERIFY(controller()->has_input());
    window_->chart()->plot()->replot();
  }

  void use_algorithm(const char* name) {
    usmpx::SessionEdits next = controller()->edits();
    next.algorithm = name;
    QVERIFY(controller()->apply_edit(QStringLiteral("algorithm"), next));
    controller()->wait_idle();
    window_->chart()->plot()->replot();
  }

  // Types `text` into a pool editor cell as a user does: double-click, type, Enter.
  void type_into_pool_cell(int row, int column, const QString& text) {
    QTableWidget* table = window_->pool_editor()->table();
    const QRect cell = table->visualItemRect(table->item(row, column));
    table->scrollToItem(table->item(row, column));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    // Double-click opens the editor (mouseDClick sends press, release, double-click, release).
    QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    QTRY_VERIFY(table->findChild<QLineEdit*>() && table->findChild<QLineEdit*>()->isVisible());
    QLineEdit* editor = table->findChild<QLineEdit*>();
    QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(editor, text);
    QTest::keyClick(editor, Qt::Key_Return);  // the delegate commits on the next event loop turn
    QTRY_VERIFY(!table->findChild<QLineEdit*>() || !table->findChild<QLineEdit*>()->isVisible());
  }

  // Plan ▸ TFLM Build's action whose text starts with `starts_with` ("x86-64", "CMSIS-NN").
  QAction* tflm_build_action(const QString& starts_with) {
    auto* menu = window_->findChild<QMenu*>(QStringLiteral("tflmBuildMenu"));
    if (!menu) return nullptr;
    for (QAction* a : menu->actions()) {
      if (a->text().remove(QLatin1Char('&')).startsWith(starts_with)) return a;
    }
    return nullptr;
  }

  // Export Report into the artefacts folder `name`; the HTML review's text, or the error.
  QString write_report(const QString& name) {
    const QString folder = QStringLiteral(USMPX_ARTEFACTS_DIR "/") + name;
    QDir(folder).removeRecursively();
    QString error;
    if (usmpx::app::write_review_report(*controller(), *window_->chart(), folder, &error).isEmpty()) return error;
    QFile html(QDir(folder).filePath(QStringLiteral("report.html")));
    if (!html.open(QIODevice::ReadOnly)) return QStringLiteral("no report.html");
    return QString::fromUtf8(html.readAll());
  }

  void save_artefact(QWidget* widget, const QString& name) {
    QDir().mkpath(QStringLiteral(USMPX_ARTEFACTS_DIR));
    QTest::qWait(100);
    for (QCustomPlot* plot : widget->findChildren<QCustomPlot*>())
      plot->replot();
    widget->grab().save(QStringLiteral(USMPX_ARTEFACTS_DIR "/") + name);
  }
};
