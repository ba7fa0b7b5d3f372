#pragma once

#include <QMenu>
#include <QString>
#include <QStringList>

#include "frontends/frontend.h"

class QActionGroup;

namespace usmpx::app {

class ExplorerController;

// Plan ▸ <runtime> Build: the runtime builds the input's memory figures can be computed for
// (kernel sets, targets, versions), as the input's frontend lists them, and the reading of the
// version from the firmware's runtime source tree. A choice is an undoable edit of the
// controller; a kernel set that does not build for the chosen target (or the reverse) switches
// the other side and says so through notice().
class RuntimeBuildMenu : public QMenu {
  Q_OBJECT

 public:
  RuntimeBuildMenu(ExplorerController* controller, QWidget* parent);

  // Follows the input: rebuilds the choices when its builds differ and checks the current ones.
  void refresh();
  // What "Read Version from Tree…" does once a folder is chosen: the recognised version becomes
  // the current one (said through notice()); a tree whose version cannot be told is said and
  // leaves the version as it was. Returns the version read, or an empty string.
  QString read_version_from_tree(const QString& dir);

 signals:
  // A sentence to show once the input has been read again (or at once when nothing changes).
  void notice(const QString& text);

 private:
  void rebuild();
  void choose_kernels(const QString& kernels);
  void choose_target(const QString& target);
  void choose_version(const QString& version);
  void switch_kernels_if_needed(const QString& target, const QString& version);
  QString kernels_for(const QString& target, const QString& version) const;
  void choose_tree();
  QString current_kernels() const;
  QString current_target() const;
  QString current_version() const;

  ExplorerController* controller_;
  RuntimeBuilds builds_;  // the loaded input's, taken when it is read
  QStringList shown_;     // the option values the menu holds now (runtime, kernels, targets, versions)
  QActionGroup* kernels_ = nullptr;
  QActionGroup* targets_ = nullptr;
  QActionGroup* versions_ = nullptr;
};

}  // namespace usmpx::app
