#include <QApplication>
#include <QCommandLineParser>
#include <QPixmap>
#include <QTimer>

#include "main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("USMP Explorer"));
  QApplication::setOrganizationName(QStringLiteral("usmpx"));
  QApplication::setApplicationVersion(QStringLiteral(USMPX_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Explore and edit static memory plans of TVM models."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("input"), QStringLiteral("Model or problem file to open."));
  QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                QStringLiteral("Render the main window offscreen, save it as PNG and exit."),
                                QStringLiteral("png"));
  parser.addOption(screenshot);
  parser.process(app);

  usmpx::app::MainWindow window;
  const QStringList inputs = parser.positionalArguments();
  window.set_batch_mode(parser.isSet(screenshot));
  bool loaded = true;
  if (!inputs.isEmpty()) loaded = window.open_input(inputs.first());
  if (parser.isSet(screenshot)) {
    window.show();
    QApplication::processEvents();
    const bool saved = window.grab().save(parser.value(screenshot), "PNG");
    return saved && loaded ? 0 : 1;
  }
  window.show();
  return QApplication::exec();
}
