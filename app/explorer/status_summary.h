#pragma once

#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QStatusBar;
class QToolButton;

namespace usmpx::app {

class ExplorerController;

// The window's status bar: the plan's summary on the right, fitted to the bar by dropping its
// least important parts whole; passing messages on the left that never run into it; the
// progress bar and Cancel while the controller loads or plans.
class StatusSummary : public QObject {
  Q_OBJECT

 public:
  StatusSummary(ExplorerController* controller, QStatusBar* bar);

  QLabel* totals() const { return totals_; }
  // Shows the current plan's summary, as much of it as fits.
  void update();
  // The summary's tooltip: the firmware's figure, the reference plan and its fidelity check.
  QString tooltip() const;
  // A passing message left of the summary: whole when it fits beside it, else cut after a word
  // with "…" and whole in the status bar's tooltip; never drawn under the summary.
  void show_message(const QString& message, int timeout_ms = 0);
  // The message only when it fits whole beside the summary; else the bar shows none.
  void show_message_if_whole(const QString& message, int timeout_ms);
  // An input was read: the previous input's summary stays until the new one's first plan.
  void hold(bool held) { held_ = held; }
  // Busy without a known end (reading, planning); `cancellable` shows Cancel beside it.
  void show_busy(bool cancellable);
  // How far the work is (0..1); negative when not known.
  void show_progress(double fraction);
  void hide_busy();

 private:
  // The bar's width left for the summary beside the progress bar, Cancel and `taken` pixels.
  int room_beside(int taken) const;

  ExplorerController* controller_;
  QStatusBar* bar_;
  QLabel* totals_;
  QProgressBar* progress_;
  QToolButton* cancel_button_;
  QString whole_html_;    // the whole summary, before parts were dropped to fit
  int message_room_ = 0;  // what the message takes from the summary's room, in pixels
  bool held_ = false;
};

}  // namespace usmpx::app
