#pragma once

#include <QWidget>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

class QAction;
class QLineEdit;
class QTableView;

namespace usmpx::views {
class BufferFilterProxy;
class BufferTableModel;
}  // namespace usmpx::views

namespace usmpx::app {

// The Buffers dock: the filter line (with its exact-name switch) over the table of buffers. It
// says which buffers the filter matches, which rows the user selected and which column widths the
// user chose; the window decides what follows.
class BufferTablePanel : public QWidget {
  Q_OBJECT

 public:
  explicit BufferTablePanel(QWidget* parent = nullptr);

  QTableView* table() const { return table_; }
  QLineEdit* filter() const { return filter_; }
  views::BufferTableModel* model() const { return model_; }

  // A new input: no filter, not exact, scrolled to the top.
  void reset_filter();
  // Ctrl+F: the filter takes the focus, its text selected so typing replaces it.
  void focus_filter();
  // Only these buffers are listed (one model of several); nullopt lists all.
  void show_only(std::optional<std::unordered_set<int>> buffers);
  // Selects the buffers' rows (the last one scrolled into view) without saying so.
  void show_selection(const std::vector<int>& buffers);
  // Each column as wide as its content, then as wide as the session saved it (`saved`: by title).
  void size_columns(const std::vector<std::pair<std::string, int>>& saved);
  // Applies the filter's text and switch to the rows; says what matches.
  void apply_filter();

 signals:
  // The user selected these rows.
  void rows_selected(const std::vector<int>& buffers);
  // What the filter matches (nullopt: no filter); the charts draw the rest faint.
  void matches_changed(const std::optional<std::unordered_set<int>>& buffers);
  // The exact filter found one buffer.
  void exact_match(int buffer);
  // The user set a column's width (the last column stretches with the window: never said).
  void column_resized(const QString& title, int width);

 private:
  views::BufferTableModel* model_;
  views::BufferFilterProxy* proxy_;
  QTableView* table_;
  QLineEdit* filter_;
  QAction* exact_ = nullptr;
  bool syncing_selection_ = false;
  bool sizing_columns_ = false;  // the columns are being sized by the program, not the user
};

}  // namespace usmpx::app
