#pragma once

#include <QObject>
#include <QString>
#include <functional>

class QDialog;
class QMainWindow;

namespace usmpx::app {

// Help ▸ Getting Started, Keyboard Shortcuts (read from the window's menus, so never out of date)
// and About, each text in a dialog that scrolls and fits the screen.
class HelpMenu : public QObject {
  Q_OBJECT

 public:
  // Adds the Help menu to `window`'s menu bar (after the menus it has).
  explicit HelpMenu(QMainWindow* window);

  QString getting_started_html() const;
  QString shortcuts_html() const;
  // Called with each help dialog just before it runs (tests look at it and close it).
  void set_observer(std::function<void(QDialog*)> observer) { shown_ = std::move(observer); }

 private:
  void show(const QString& title, const QString& html);

  QMainWindow* window_;
  std::function<void(QDialog*)> shown_;
};

}  // namespace usmpx::app
