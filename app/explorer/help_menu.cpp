// Help ▸ Getting Started, Keyboard Shortcuts and About.
#include "help_menu.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "window_fit.h"

namespace usmpx::app {

HelpMenu::HelpMenu(QMainWindow* window) : QObject(window), window_(window) {
  QMenu* help = window_->menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Getting Started"), QKeySequence::HelpContents, this,
                  [this] { show(tr("Getting started"), getting_started_html()); });
  help->addAction(tr("&Keyboard Shortcuts"), this, [this] { show(tr("Keyboard shortcuts"), shortcuts_html()); });
  help->addSeparator();
  help->addAction(tr("&About"), this, [this] {
    QMessageBox::about(window_, tr("About USMP Explorer"),
                       tr("<b>USMP Explorer %1</b><p>See and edit the static memory plans of TVM output, TFLite "
                          "Micro models and ExecuTorch programs: their toolchains' planners reproduced exactly, "
                          "stronger planners, pools you can resize and buffers you can repin.</p><p>Drag a buffer to "
                          "another pool to repin it, or up and down to pin its offset; "
                          "drag a pool's red size-hint line to resize it. Ctrl+Z undoes.</p>")
                           .arg(QApplication::applicationVersion()));
  });
}

QString HelpMenu::getting_started_html() const {
  return tr(
      "<h3>Getting started</h3><ol>"
      "<li><b>Open</b> a model: a TFLite Micro model (<code>.tflite</code>), an ExecuTorch program "
      "(<code>.pte</code>), a TVM MLF tarball or folder, a firmware tree holding TVM's generated sources (File ▸ "
      "Open Folder…), a TIR dump, or a problem file (JSON, MiniMalloc CSV). Dropping it on the window works "
      "too.</li>"
      "<li>Each pool is a chart: time runs left to right, addresses bottom to top; each box is a buffer, "
      "live for its ticks, at its offset. Constants are drawn across the whole run, since they stay in "
      "memory. The status bar gives the total, the lower bound and the gap between them.</li>"
      "<li>A model opens on its reference plan, what its firmware does today (the status bar names it with its "
      "bytes): the plan it carries (<i>as-built</i>: TVM's, a .tflite's offline plan or a .pte's own), else "
      "TFLM's plan for a .tflite, else TVM's <i>greedy_by_size</i>. After an edit of TVM's plan the explorer plans "
      "with <i>best</i> "
      "and keeps the reference: \"−6 KiB vs TVM\" per pool, and View ▸ Show TVM's Plan draws it as outlines.</li>"
      "<li><b>Edit</b>: drag a box up or down to pin its offset, or onto another pool to move it there; "
      "drag a pool's red dashed line, or type in the Pools panel, to set its size. Each edit re-plans the "
      "pools it changes; Ctrl+Z undoes.</li>"
      "<li>Plan ▸ Compare Algorithms runs every planner on the same pools. File ▸ Export Sources writes "
      "the firmware sources for the plan; File ▸ Export Report writes an HTML report and a PDF.</li>"
      "<li>Diagnostics lists the plan's errors first (why it does not fit), then what reading the input "
      "noticed. Click one to select the buffers it names.</li></ol>");
}

QString HelpMenu::shortcuts_html() const {
  // Read from the actions themselves, so the list is never out of date.
  QString rows;
  for (QAction* menu_action : window_->menuBar()->actions()) {
    QMenu* menu = menu_action->menu();
    if (!menu) continue;
    for (QAction* a : menu->actions()) {
      if (a->shortcut().isEmpty()) continue;
      rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td style='color:#666'>%3</td></tr>")
                  .arg(a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                       QString(a->text()).remove(QLatin1Char('&')).toHtmlEscaped(),
                       QString(menu->title()).remove(QLatin1Char('&')));
    }
  }
  rows +=
      tr("<tr><td><b>Ctrl+click</b></td><td>Add a buffer to the selection</td><td style='color:#666'>Charts</td>"
         "</tr><tr><td><b>Wheel, drag</b></td><td>Zoom, pan (empty space)</td><td style='color:#666'>Charts</td>"
         "</tr>");
  return tr("<h3>Keyboard shortcuts</h3><table cellspacing=4>%1</table>").arg(rows);
}

void HelpMenu::show(const QString& title, const QString& html) {
  // A text that scrolls, in a dialog that fits the screen (a message box grows with its text).
  QDialog dialog(window_);
  dialog.setObjectName(QStringLiteral("helpDialog"));
  dialog.setWindowTitle(title);
  auto* text = new QTextBrowser;
  text->setOpenExternalLinks(true);
  text->setHtml(html);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  auto* layout = new QVBoxLayout(&dialog);
  layout->addWidget(text);
  layout->addWidget(buttons);
  fit_window(&dialog, QSize(640, 560));
  if (shown_) shown_(&dialog);
  dialog.exec();
}

}  // namespace usmpx::app
