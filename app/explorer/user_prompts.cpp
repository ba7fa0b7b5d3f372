#include "user_prompts.h"

#include <QMessageBox>
#include <iostream>

namespace usmpx::app {

void UserPrompts::error(const QString& title, const QString& message) const {
  if (batch_) {
    std::cerr << title.toStdString() << ": " << message.toStdString() << "\n";
    return;
  }
  QMessageBox::critical(window_, title, message);
}

}  // namespace usmpx::app
