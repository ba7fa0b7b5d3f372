// Edits from gestures: pins from chart drags and the context menu, pool resizes from the
// size-hint line and the Pools panel, the planner and its time limit.
#include "edit_commands.h"

#include <QMenu>
#include <algorithm>

#include "chart/byte_ticker.h"
#include "explorer_controller.h"

namespace usmpx::app {

EditCommands::EditCommands(ExplorerController* controller, QObject* parent)
    : QObject(parent), controller_(controller) {}

void EditCommands::pin(int buffer, const QString& pool, std::optional<qint64> offset, const QString& description) {
  const std::string name = controller_->problem().buffers.at(static_cast<size_t>(buffer)).name;
  std::optional<int64_t> at;
  if (offset) at = *offset;
  controller_->apply_edit(description, with_pin(controller_->edits(), name, PinSpec{name, pool.toStdString(), at}));
}

void EditCommands::unpin(const std::vector<int>& buffers) {
  SessionEdits next = controller_->edits();
  for (int b : buffers)
    next = with_pin(next, controller_->problem().buffers.at(static_cast<size_t>(b)).name, std::nullopt);
  controller_->apply_edit(
      buffers.size() == 1
          ? tr("Unpin %1")
                .arg(QString::fromStdString(controller_->problem().buffers[static_cast<size_t>(buffers[0])].name))
          : tr("Unpin %1 buffers").arg(buffers.size()),
      next);
}

void EditCommands::pin_requested(int buffer, int pool, qint64 offset) {
  const Problem& problem = controller_->problem();
  const Buffer& b = problem.buffers.at(static_cast<size_t>(buffer));
  const Pool& target = problem.pools.at(static_cast<size_t>(pool));
  if ((b.kind == BufferKind::kConstant) != (target.kind == PoolKind::kConstant)) {
    // The reason in full where it can be read: the Diagnostics panel.
    const bool constant = b.kind == BufferKind::kConstant;
    emit refused(tr("%1 cannot go into %2 pool %3: %4")
                     .arg(QString::fromStdString(b.name), QString::fromStdString(std::string(to_string(target.kind))),
                          QString::fromStdString(target.name),
                          constant ? tr("it is a constant, and constants go only into constant (read-only) pools")
                                   : tr("it is written at run time, and a constant pool is read-only")));
    return;
  }
  const QString name = QString::fromStdString(b.name);
  const QString pool_name = QString::fromStdString(target.name);
  if (offset < 0) {
    pin(buffer, pool_name, std::nullopt, tr("Move %1 to %2").arg(name, pool_name));
    return;
  }
  const qint64 aligned = offset / std::max<qint64>(1, b.alignment) * std::max<qint64>(1, b.alignment);
  pin(buffer, pool_name, aligned, tr("Pin %1 at %2 in %3").arg(name).arg(aligned).arg(pool_name));
}

void EditCommands::size_hint_requested(int pool, qint64 bytes) {
  SessionEdits next = controller_->edits();
  if (pool < 0 || static_cast<size_t>(pool) >= next.pools.size()) return;
  next.pools[static_cast<size_t>(pool)].pool.size_hint_bytes = bytes;
  controller_->apply_edit(tr("Resize %1 to %2")
                              .arg(QString::fromStdString(next.pools[static_cast<size_t>(pool)].pool.name),
                                   views::format_byte_count(bytes)),
                          next);
}

void EditCommands::unpin_all() {
  SessionEdits next = controller_->edits();
  next.pins.clear();
  controller_->apply_edit(tr("Unpin all"), next);
}

void EditCommands::set_pools(const std::vector<PoolSetting>& pools, const QString& description) {
  SessionEdits next = controller_->edits();
  next.pools = pools;
  controller_->apply_edit(description, next);
}

void EditCommands::use_algorithm(const QString& algorithm) {
  SessionEdits next = controller_->edits();
  next.algorithm = algorithm.toStdString();
  controller_->apply_edit(tr("Use %1").arg(algorithm), next);
}

void EditCommands::set_time_limit(double seconds) {
  SessionEdits next = controller_->edits();
  next.time_limit_seconds = seconds;
  controller_->apply_edit(tr("Set time limit"), next);
}

QMenu* EditCommands::build_buffer_menu(int buffer, QWidget* parent) {
  auto* menu = new QMenu(parent);
  const Problem& problem = controller_->problem();
  const Buffer& b = problem.buffers.at(static_cast<size_t>(buffer));
  const Allocation& a = controller_->plan().allocations.at(static_cast<size_t>(buffer));
  const QString name = QString::fromStdString(b.name);
  menu->setTitle(name);
  if (a.placed()) {
    const QString pool = QString::fromStdString(problem.pools[static_cast<size_t>(a.pool)].name);
    menu->addAction(tr("Pin at offset %1 in %2").arg(a.offset).arg(pool), this,
                    [=, this] { pin(buffer, pool, a.offset, tr("Pin %1 at %2").arg(name).arg(a.offset)); });
    menu->addAction(tr("Pin to %1 (any offset)").arg(pool), this,
                    [=, this] { pin(buffer, pool, std::nullopt, tr("Pin %1 to %2").arg(name, pool)); });
  }
  QAction* unpin_one = menu->addAction(tr("Unpin"), this, [=, this] { unpin({buffer}); });
  unpin_one->setEnabled(find_pin(controller_->edits(), b.name) != nullptr);
  QMenu* move = menu->addMenu(tr("Move to Pool"));
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    const Pool& pool = problem.pools[p];
    if ((pool.kind == PoolKind::kConstant) != (b.kind == BufferKind::kConstant) || static_cast<int>(p) == a.pool)
      continue;
    const QString pool_name = QString::fromStdString(pool.name);
    move->addAction(pool_name, this,
                    [=, this] { pin(buffer, pool_name, std::nullopt, tr("Move %1 to %2").arg(name, pool_name)); });
  }
  move->setEnabled(!move->isEmpty());
  menu->addSeparator();
  menu->addAction(tr("Select Conflicts"), this, [=, this] {
    std::vector<int> with = controller_->conflicts_of(buffer);
    with.push_back(buffer);
    std::sort(with.begin(), with.end());
    with.erase(std::unique(with.begin(), with.end()), with.end());
    emit selection_requested(with);
  });
  return menu;
}

}  // namespace usmpx::app
