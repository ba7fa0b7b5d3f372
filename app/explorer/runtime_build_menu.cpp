#include "runtime_build_menu.h"

#include <QActionGroup>
#include <QApplication>
#include <QFileDialog>

#include "explorer_controller.h"
#include "frontends/frontend.h"
#include "inputs/input_facts.h"

namespace usmpx::app {

namespace {

QStringList to_qt(const std::vector<std::string>& values) {
  QStringList list;
  for (const std::string& v : values)
    list << QString::fromStdString(v);
  return list;
}

// The option value `chosen` stands for ("" = the list's first, the default).
QString or_default(const QString& chosen, const std::vector<std::string>& options) {
  if (!chosen.isEmpty() || options.empty()) return chosen;
  return QString::fromStdString(options.front());
}

QActionGroup* add_choices(QMenu* menu, const RuntimeBuilds& builds, const std::vector<std::string>& values) {
  auto* group = new QActionGroup(menu);
  for (const std::string& value : values) {
    QAction* action = menu->addAction(QString::fromStdString(builds.label(value)));
    action->setData(QString::fromStdString(value));
    action->setCheckable(true);
    group->addAction(action);
  }
  return group;
}

// "esp32s3, esp32": the values of `all` a kernel set is limited to ("" when it takes every one).
QString limited_to(const std::map<std::string, std::vector<std::string>>& of_kernels, const std::string& kernels,
                   const std::vector<std::string>& all) {
  const auto it = of_kernels.find(kernels);
  if (it == of_kernels.end() || it->second.size() >= all.size()) return {};
  return to_qt(it->second).join(QStringLiteral(", "));
}

QString target_limits(const RuntimeBuilds& builds, const std::string& kernels) {
  return limited_to(builds.kernel_targets, kernels, builds.targets);
}

QString version_limits(const RuntimeBuilds& builds, const std::string& kernels) {
  return limited_to(builds.kernel_versions, kernels, builds.versions);
}

// "cortex-m" or "esp32s3, esp32 and version 90b983c": the targets and versions a kernel set is for.
QString limits(const RuntimeBuilds& builds, const std::string& kernels) {
  QStringList parts;
  if (const QString targets = target_limits(builds, kernels); !targets.isEmpty()) parts << targets;
  if (const QString versions = version_limits(builds, kernels); !versions.isEmpty())
    parts << QStringLiteral("version ") + versions;
  return parts.join(QStringLiteral(" and "));
}

void check(QActionGroup* group, const QString& value) {
  if (!group) return;
  for (QAction* a : group->actions())
    a->setChecked(a->data().toString() == value);
}

}  // namespace

RuntimeBuildMenu::RuntimeBuildMenu(ExplorerController* controller, QWidget* parent)
    : QMenu(tr("Runtime &Build"), parent), controller_(controller) {
  setObjectName(QStringLiteral("tflmBuildMenu"));
  setToolTip(tr("The runtime build the memory figures (the arena: head + persistent tail) are computed for"));
  setToolTipsVisible(true);
  // The builds are the input's: asked of its frontend once per input read, not on every refresh.
  const auto take_builds = [this] {
    builds_ = controller_->has_input() ? runtime_builds(controller_->input()) : RuntimeBuilds{};
  };
  take_builds();
  connect(controller_, &ExplorerController::input_loaded, this, take_builds);
}

void RuntimeBuildMenu::refresh() {
  const bool loaded = controller_->has_input();
  const RuntimeBuilds& builds = builds_;
  const QStringList shown = QStringList{QString::fromStdString(builds.runtime)} + to_qt(builds.kernels) +
                            to_qt(builds.targets) + to_qt(builds.versions);
  if (shown != shown_) {
    shown_ = shown;
    rebuild();
  }
  setEnabled(loaded && !builds.empty());
  if (!loaded || builds.empty()) return;
  check(kernels_, current_kernels());
  check(targets_, current_target());
  check(versions_, current_version());
}

void RuntimeBuildMenu::rebuild() {
  clear();
  kernels_ = targets_ = versions_ = nullptr;
  if (!controller_->has_input()) return;
  const RuntimeBuilds& builds = builds_;
  if (builds.empty()) return;
  const QString runtime = QString::fromStdString(builds.runtime);
  setTitle(tr("%1 &Build").arg(runtime));
  kernels_ = add_choices(this, builds, builds.kernels);
  connect(kernels_, &QActionGroup::triggered, this, [this](QAction* a) { choose_kernels(a->data().toString()); });
  addSeparator();
  targets_ = add_choices(this, builds, builds.targets);
  connect(targets_, &QActionGroup::triggered, this, [this](QAction* a) { choose_target(a->data().toString()); });
  if (builds.versions.empty()) return;
  addSeparator();
  QMenu* versions = addMenu(tr("%1 &Version").arg(runtime));
  versions->setObjectName(QStringLiteral("runtimeVersionMenu"));
  versions_ = add_choices(versions, builds, builds.versions);
  connect(versions_, &QActionGroup::triggered, this, [this](QAction* a) { choose_version(a->data().toString()); });
  if (builds.read_tree) {
    QAction* tree = addAction(tr("Read %1 Version from Its Source &Tree…").arg(runtime));
    tree->setToolTip(tr("Choose the folder of the firmware's %1 sources; the version is recognised from its "
                        "kernels' sources (read as text, nothing is compiled)")
                         .arg(runtime));
    connect(tree, &QAction::triggered, this, &RuntimeBuildMenu::choose_tree);
  }
}

QString RuntimeBuildMenu::current_kernels() const {
  return or_default(controller_->runtime_kernels(), builds_.kernels);
}

QString RuntimeBuildMenu::current_target() const {
  return or_default(controller_->runtime_target(), builds_.targets);
}

QString RuntimeBuildMenu::current_version() const {
  return or_default(controller_->runtime_version(), builds_.versions);
}

void RuntimeBuildMenu::choose_kernels(const QString& kernels) {
  const RuntimeBuilds& builds = builds_;
  const std::string k = kernels.toStdString();
  QString target = current_target();
  QString version = current_version();
  QStringList said;
  // A kernel set built for some targets (or modelled for some versions) only takes the first of
  // them, and says so.
  if (!builds.builds_for(k, target.toStdString())) {
    target = QString::fromStdString(builds.kernel_targets.at(k).front());
    said << tr("the target is now %1, since these kernels build only for %2").arg(target, limits(builds, k));
  }
  if (!builds.models_version(k, version.toStdString())) {
    version = QString::fromStdString(builds.kernel_versions.at(k).front());
    said << tr("the version is now %1, since these kernels are modelled for %2 only")
                .arg(version, version_limits(builds, k));
  }
  controller_->set_runtime_build(kernels, target, version);
  if (!said.isEmpty())
    emit notice(tr("%1: %2 (Plan ▸ %3 Build)")
                    .arg(QString::fromStdString(builds.label(k)), said.join(QStringLiteral("; ")),
                         QString::fromStdString(builds.runtime)));
}

// The kernels that stay for `target` and `version`: the current ones, else the first set that
// builds for both (the default kernels come first).
QString RuntimeBuildMenu::kernels_for(const QString& target, const QString& version) const {
  const RuntimeBuilds& builds = builds_;
  const QString kernels = current_kernels();
  const auto fits = [&](const std::string& k) {
    return builds.builds_for(k, target.toStdString()) && builds.models_version(k, version.toStdString());
  };
  if (fits(kernels.toStdString())) return kernels;
  for (const std::string& k : builds.kernels)
    if (fits(k)) return QString::fromStdString(k);
  return kernels;
}

void RuntimeBuildMenu::choose_target(const QString& target) {
  switch_kernels_if_needed(target, current_version());
}

void RuntimeBuildMenu::choose_version(const QString& version) {
  switch_kernels_if_needed(current_target(), version);
}

void RuntimeBuildMenu::switch_kernels_if_needed(const QString& target, const QString& version) {
  const RuntimeBuilds& builds = builds_;
  const QString was = current_kernels();
  const QString kernels = kernels_for(target, version);
  controller_->set_runtime_build(kernels, target, version);
  // The target or version keeps the user's choice; the kernels follow, said.
  if (kernels != was)
    emit notice(tr("%1 (%2): the kernels are now the %3 kernels, since %4 builds only for %5 (Plan ▸ %6 Build)")
                    .arg(target, version, kernels, was, limits(builds, was.toStdString()),
                         QString::fromStdString(builds.runtime)));
}

void RuntimeBuildMenu::choose_tree() {
  const QString dir = QFileDialog::getExistingDirectory(
      parentWidget(), tr("Choose the folder that holds the firmware's tensorflow/lite/micro"));
  if (!dir.isEmpty()) read_version_from_tree(dir);
}

QString RuntimeBuildMenu::read_version_from_tree(const QString& dir) {
  if (!controller_->has_input()) return {};
  const RuntimeBuilds& builds = builds_;
  if (!builds.read_tree) return {};
  QApplication::setOverrideCursor(Qt::WaitCursor);
  const RuntimeTreeReading reading = builds.read_tree(dir.toStdString());
  QApplication::restoreOverrideCursor();
  const QString runtime = QString::fromStdString(builds.runtime);
  if (reading.version.empty()) {
    emit notice(tr("%1 tree %2: %3. The version stays %4; choose it under Plan ▸ %1 Build ▸ %1 Version.")
                    .arg(runtime, dir, QString::fromStdString(reading.summary), current_version()));
    return {};
  }
  choose_version(QString::fromStdString(reading.version));
  emit notice(tr("%1 tree %2: its kernels are %1 %3").arg(runtime, dir, QString::fromStdString(reading.summary)));
  return QString::fromStdString(reading.version);
}

}  // namespace usmpx::app
