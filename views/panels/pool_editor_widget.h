#pragma once

#include <QWidget>
#include <vector>

#include "session/session_edits.h"

class QTableWidget;
class QPushButton;

namespace usmpx::views {

// Edits the pool list of a session: add (workspace or constant), remove, reorder (order is the
// candidate preference), and per pool its name, size hint ("256k", "1M", empty = unlimited),
// alignment, linker section and whether the generated code defines it (internal). Every change
// is reported as a whole new pool list, so the caller can re-plan and record an undo step.
class PoolEditorWidget : public QWidget {
  Q_OBJECT

 public:
  explicit PoolEditorWidget(QWidget* parent = nullptr);

  // `default_sections`, per pool (may be shorter): the section an export puts a pool without one
  // into (TVM's .bss.noinit.tvm), shown greyed in its Section cell ("" = none).
  void set_pools(const std::vector<PoolSetting>& pools, const std::vector<int64_t>& used_bytes,
                 const std::vector<QString>& default_sections = {});
  const std::vector<PoolSetting>& pools() const { return pools_; }
  QTableWidget* table() const { return table_; }
  void select_pool(int row);
  // No pool selected (a new input starts without one).
  void clear_selection();

 signals:
  void pools_edited(const std::vector<PoolSetting>& pools, const QString& description);
  void message(const QString& text);

 private:
  enum Column { kName, kKind, kSizeHint, kUsed, kAlignment, kSection, kInternal, kColumnCount };
  void cell_changed(int row, int column);
  void add_pool(PoolKind kind);
  void remove_selected();
  void move_selected(int delta);
  void refresh();

  QTableWidget* table_;
  QPushButton* remove_;
  QPushButton* up_;
  QPushButton* down_;
  std::vector<PoolSetting> pools_;
  std::vector<int64_t> used_;
  std::vector<QString> default_sections_;
  QString default_section(size_t pool) const;
  bool filling_ = false;
};

}  // namespace usmpx::views
