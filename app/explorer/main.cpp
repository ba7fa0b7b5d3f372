#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <iostream>

#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "explorer_command_line.h"
#include "explorer_controller.h"
#include "main_window.h"

int main(int argc, char** argv) {
  // --help and --version need no display: answered before the QApplication opens one.
  if (const std::optional<int> code = usmpx::app::answer_without_display(argc, argv, std::cout)) return *code;
  QApplication app(argc, argv);
  Q_INIT_RESOURCE(resources);  // the resources live in the usmpx_explorer static library
  QApplication::setApplicationName(QStringLiteral("USMP Explorer"));
  QApplication::setOrganizationName(QStringLiteral("usmpx"));
  QApplication::setApplicationVersion(QStringLiteral(USMPX_VERSION));
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/usmp-explorer.svg")));

  QCommandLineParser parser;
  parser.addPositionalArgument(QStringLiteral("input"), QStringLiteral("see --help for the kinds of input"));
  QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                QStringLiteral("Render the main window offscreen, save it as PNG and exit."),
                                QStringLiteral("png"));
  parser.addOption(screenshot);
  QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size of --screenshot (default 1500x900)."),
                          QStringLiteral("WxH"), QStringLiteral("1500x900"));
  parser.addOption(size);
  parser.process(app);

  usmpx::app::MainWindow window;
  const bool batch = parser.isSet(screenshot);
  window.set_batch_mode(batch);
  const QStringList inputs = parser.positionalArguments();
  bool ok = true;
  if (!inputs.isEmpty()) ok = window.open_path(inputs.first());
  if (batch) {
    bool failed = false;
    QObject::connect(window.controller(), &usmpx::app::ExplorerController::load_failed, [&failed] { failed = true; });
    const QStringList wh = parser.value(size).split(QLatin1Char('x'));
    window.resize(wh.value(0).toInt() > 0 ? wh.value(0).toInt() : 1500,
                  wh.value(1).toInt() > 0 ? wh.value(1).toInt() : 900);
    window.show();
    window.controller()->wait_idle();
    QApplication::processEvents();
    window.chart()->plot()->replot();
    const bool saved = window.grab().save(parser.value(screenshot), "PNG");
    return saved && ok && !failed ? 0 : 1;
  }
  window.show();
  QTimer::singleShot(0, &window, &usmpx::app::MainWindow::offer_autosave_restore);
  return QApplication::exec();
}
