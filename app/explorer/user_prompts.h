#pragma once

#include <QString>

class QWidget;

namespace usmpx::app {

// Errors put to the user: a dialog over the window, or, in batch mode (screenshots, tests), a
// line on stderr. In batch mode no question is asked either: callers take the safe answer.
class UserPrompts {
 public:
  explicit UserPrompts(QWidget* window) : window_(window) {}

  void set_batch_mode(bool batch) { batch_ = batch; }
  bool batch_mode() const { return batch_; }
  QWidget* window() const { return window_; }
  void error(const QString& title, const QString& message) const;

 private:
  QWidget* window_;
  bool batch_ = false;
};

}  // namespace usmpx::app
