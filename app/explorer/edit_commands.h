#pragma once

#include <QObject>
#include <QString>
#include <optional>
#include <vector>

#include "session/session_edits.h"

class QMenu;
class QWidget;

namespace usmpx::app {

class ExplorerController;

// The user's gestures turned into edits of the controller (each one undo step): pins from chart
// drags and the buffer's context menu, pool sizes from the size-hint line and the Pools panel,
// the planner and its time limit. A gesture the plan cannot take is refused with its reason.
class EditCommands : public QObject {
  Q_OBJECT

 public:
  EditCommands(ExplorerController* controller, QObject* parent);

  // A buffer dropped on `pool` at `offset` (negative: anywhere in it).
  void pin_requested(int buffer, int pool, qint64 offset);
  void size_hint_requested(int pool, qint64 bytes);
  void unpin(const std::vector<int>& buffers);
  void unpin_all();
  void set_pools(const std::vector<PoolSetting>& pools, const QString& description);
  void use_algorithm(const QString& algorithm);
  void set_time_limit(double seconds);
  // Actions of the chart's context menu, built for a buffer (also used by tests).
  QMenu* build_buffer_menu(int buffer, QWidget* parent);

 signals:
  // A gesture that was not applied, with the reason in full.
  void refused(const QString& reason);
  // Buffers the user asked to select (a buffer's conflicts).
  void selection_requested(const std::vector<int>& buffers);

 private:
  void pin(int buffer, const QString& pool, std::optional<qint64> offset, const QString& description);

  ExplorerController* controller_;
};

}  // namespace usmpx::app
