#pragma once

#include <QMainWindow>
#include <functional>
#include <vector>

#include "user_prompts.h"

class QAction;
class QComboBox;
class QDialog;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListView;
class QMenu;
class QTableView;

class QDockWidget;

namespace usmpx::views {
class ModelsPanel;
class DiagnosticsModel;
class InspectorWidget;
class PoolChartWidget;
class PoolEditorWidget;
}  // namespace usmpx::views

namespace usmpx::app {

class ExplorerController;
class RuntimeBuildMenu;
class StatusSummary;
class HelpMenu;
class BufferTablePanel;
class InputFiles;
class ExportCommands;
class EditCommands;

// The explorer's main window: pool charts in the centre; buffer table, inspector, pool editor and
// diagnostics around them; algorithm choice, re-plan, compare and export in the toolbar. All state
// and work lives in ExplorerController; this class builds the menus and docks and wires them:
// files opened and saved (InputFiles), exports (ExportCommands), gestures turned into edits
// (EditCommands), the status bar (StatusSummary), the buffer table (BufferTablePanel), Help.
class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens a model, problem or session file. Returns false when it could not start.
  bool open_path(const QString& path);
  // In batch mode (screenshots, tests) errors go to stderr instead of dialogs.
  void set_batch_mode(bool batch) { prompts_.set_batch_mode(batch); }
  // Picks one of several MLF modules; by default a dialog. Returns empty to cancel.
  void set_module_chooser(std::function<QString(const QStringList&)> chooser);
  // Offers to restore edits an earlier run left unsaved (after a crash); see InputFiles.
  void offer_autosave_restore();
  QString autosave_prompt() const;
  bool restore_autosave();

  ExplorerController* controller() const { return controller_; }
  views::PoolChartWidget* chart() const { return chart_; }
  QTableView* buffer_table() const;
  views::ModelsPanel* models_panel() const { return models_panel_; }
  QDockWidget* models_dock() const { return models_dock_; }
  views::PoolEditorWidget* pool_editor() const { return pool_editor_; }
  QListView* diagnostics_view() const { return diagnostics_view_; }
  views::InspectorWidget* inspector() const { return inspector_; }
  QComboBox* algorithm_box() const { return algorithm_box_; }
  QLineEdit* filter_box() const;
  QLabel* status_totals() const;
  QAction* export_action() const { return export_action_; }
  QDoubleSpinBox* time_limit_box() const { return time_limit_box_; }
  std::vector<int> selected_buffers() const { return selection_; }
  void select_buffers(const std::vector<int>& buffers, bool reveal);

  // Called with each help dialog just before it runs (tests look at it and close it).
  // Picks Export Report's folder instead of the file dialog (tests); may name one that does not exist.
  void set_report_folder_chooser(std::function<QString()> chooser);
  void set_help_observer(std::function<void(QDialog*)> observer);

  // Actions of the chart's context menu, built for a buffer (also used by tests).
  QMenu* build_buffer_menu(int buffer, QWidget* parent);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void create_actions();
  void create_docks();
  void create_toolbar();
  // The views follow the controller's loading, planning and history.
  void follow_controller();
  void on_planning_finished();
  // Clicks, drags and the context menu of the charts.
  void follow_chart();
  // The window's geometry and dock layout, and the time limit, as the last run left them.
  void restore_settings();

 public:
  // Help ▸ Getting Started and Help ▸ Keyboard Shortcuts (the latter read from the menus' actions).
  QString getting_started_html() const;
  QString shortcuts_html() const;

 private:
  void on_input_loaded();
  // Switches every view to the loaded input (title, table, panels), with its first plan.
  void show_new_input();
  void on_problem_changed();
  void on_plan_ready();
  // The buffer table's columns: sized to content, then to the widths the session saved.
  void size_columns();
  void record_column_width(const QString& title, int width);
  // Something the user asked for and the explorer refused: the reason in full at the top of the
  // Diagnostics panel (until the next edit), its first words in the status bar.
  void show_refusal(const QString& message);
  void update_title();
  // " (figures for TFLM …, x86-64)" when the figures are for a build other than the input's default.
  QString non_default_build_words() const;
  void update_actions();
  void refresh_algorithms();
  void show_compare();
  // A firmware file's models: the Models panel, shown for such inputs only.
  QWidget* create_models_panel();
  void reset_models_panel();     // a new input: all models shown, the panel only when it has several
  void update_models_figures();  // the plan's figures (per model, shared, the saving)
  void show_model(int model);    // -1: all models

 public:
  // Exports to `target` (asking before replacing a non-empty one); what Export Sources does after its dialog.
  void start_export(const QString& target, bool harness);

 private:
  ExplorerController* controller_;
  views::PoolChartWidget* chart_;
  BufferTablePanel* buffers_;
  views::InspectorWidget* inspector_;
  views::PoolEditorWidget* pool_editor_;
  views::DiagnosticsModel* diagnostics_model_;
  QListView* diagnostics_view_;
  QComboBox* algorithm_box_;
  QDoubleSpinBox* time_limit_box_;
  StatusSummary* status_;
  UserPrompts prompts_;
  InputFiles* files_;
  ExportCommands* exports_;
  EditCommands* edits_;
  QAction* undo_action_;
  QAction* redo_action_;
  QAction* save_action_;
  QAction* replan_action_;
  QAction* compare_action_;
  // Plan ▸ TFLM Build: the kernels and target a .tflite's arena figures are for.
  RuntimeBuildMenu* build_menu_ = nullptr;
  QAction* report_action_;
  QAction* export_action_;
  QAction* unpin_action_;
  QAction* reference_action_;
  views::ModelsPanel* models_panel_ = nullptr;
  QDockWidget* models_dock_ = nullptr;
  std::vector<int> selection_;
  HelpMenu* help_ = nullptr;
  QString refusal_;               // the last refused gesture, shown in the Diagnostics panel until the next edit
  QString pending_notice_;        // said when the input has been read again (a TFLM build switched kernels)
  bool switching_input_ = false;  // an input was loaded; the views switch with its first plan
  bool filling_algorithms_ = false;
  bool fit_on_next_plan_ = false;  // an input was opened: its first plan is shown whole
  bool docks_fitted_ = false;      // the docks were sized to the window once (no saved layout)
};

}  // namespace usmpx::app
