#include "tables/diagnostics_model.h"

#include <QApplication>
#include <QFont>
#include <QStyle>
#include <algorithm>

#include "base/input_error.h"

namespace usmpx::views {

DiagnosticsModel::DiagnosticsModel(QObject* parent) : QAbstractListModel(parent) {}

void DiagnosticsModel::set_diagnostics(std::vector<Diagnostic> load_warnings, std::vector<Diagnostic> plan_diagnostics,
                                       const QString& runtime_memory) {
  beginResetModel();
  items_.clear();
  if (!refusal_.empty()) items_.push_back({Severity::kWarning, kRefusal, refusal_, {}, -1, {}});
  // What the firmware must declare: one short row per figure (per method for a program), the
  // first under the heading.
  const QStringList rows = runtime_memory.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  for (qsizetype r = 0; r < rows.size(); ++r) {
    const QString text = r == 0 ? tr("Memory the firmware needs: %1").arg(rows[r]) : rows[r];
    items_.push_back({Severity::kNote, std::string(kRuntimeMemory), text.toStdString(), {}, -1, {}});
  }
  // The plan's findings first, its errors at the top (why it does not fit), then what reading the
  // input noticed, under a heading of its own.
  std::stable_partition(plan_diagnostics.begin(), plan_diagnostics.end(),
                        [](const Diagnostic& d) { return d.severity == Severity::kError; });
  // Each diagnostic once: readers and planners sometimes report the same finding twice.
  auto add = [this](Diagnostic& d) {
    const bool seen = std::any_of(items_.begin(), items_.end(), [&](const Diagnostic& e) {
      return e.severity == d.severity && e.code == d.code && e.message == d.message && e.pool == d.pool;
    });
    if (!seen) items_.push_back(std::move(d));
  };
  for (Diagnostic& d : plan_diagnostics)
    add(d);
  if (!load_warnings.empty()) {
    const size_t heading = items_.size();
    items_.push_back({Severity::kNote, std::string(kInputHeading), {}, {}, -1, {}});
    // One row per finding, with how many places it was found at.
    std::vector<std::vector<SourceLocation>> places;
    const size_t first = items_.size();
    for (Diagnostic& d : load_warnings) {
      size_t k = first;
      while (k < items_.size() &&
             !(items_[k].severity == d.severity && items_[k].code == d.code && items_[k].message == d.message))
        ++k;
      if (k == items_.size()) {
        places.push_back({d.location});
        items_.push_back(std::move(d));
      } else if (std::find(places[k - first].begin(), places[k - first].end(), d.location) == places[k - first].end()) {
        places[k - first].push_back(d.location);
      }
    }
    for (size_t k = first; k < items_.size(); ++k) {
      if (places[k - first].size() > 1)
        items_[k].message += tr(" (%1 times)").arg(places[k - first].size()).toStdString();
    }
    items_[heading].message = tr("Reading the input (%1):").arg(items_.size() - heading - 1).toStdString();
  }
  endResetModel();
}

void DiagnosticsModel::set_refusal(const QString& message) {
  beginResetModel();
  if (!items_.empty() && items_.front().code == kRefusal) items_.erase(items_.begin());
  refusal_ = message.isEmpty() ? std::string() : tr("Not done: %1").arg(message).toStdString();
  if (!refusal_.empty()) items_.insert(items_.begin(), {Severity::kWarning, kRefusal, refusal_, {}, -1, {}});
  endResetModel();
}

int DiagnosticsModel::error_count() const {
  int count = 0;
  for (const Diagnostic& d : items_)
    count += d.severity == Severity::kError ? 1 : 0;
  return count;
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(items_.size());
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() < 0 || index.row() >= rowCount()) return {};
  const Diagnostic& d = items_[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole: {
      // TVM's messages span several lines; the list shows the first, the tooltip all.
      QString text = QString::fromStdString(d.message);
      const QString where = QString::fromStdString(format_location(d.location));
      // Messages of the readers often name their file already; the location is not repeated then.
      if (!where.isEmpty() && !text.startsWith(QString::fromStdString(d.location.file)))
        text = where + QStringLiteral(": ") + text;
      // The explorer's time limit is the limit box in the toolbar.
      if (d.code == "overflow-unexplained") text += tr(" (the limit box in the toolbar)");
      QString first = text.section(QLatin1Char('\n'), 0, 0);
      // TVM's placement error continues with the buffer's repr; show its name on the first line.
      const QString second = text.section(QLatin1Char('\n'), 1, 1);
      if (first.endsWith(QStringLiteral("BufferInfoNode(")) && second.startsWith(QStringLiteral("name_hint="))) {
        first.chop(static_cast<int>(QStringLiteral("BufferInfoNode(").size()));
        first += second.mid(10).section(QLatin1Char(','), 0, 0);
      }
      return first;
    }
    case Qt::ToolTipRole: return QString::fromStdString(d.message);
    case Qt::FontRole:
      if (d.code == kInputHeading || d.code == kRuntimeMemory) {
        QFont bold;
        bold.setBold(true);
        return bold;
      }
      return {};
    case Qt::DecorationRole: {
      if (d.code == kInputHeading) return {};
      const QStyle::StandardPixmap icon = d.severity == Severity::kError     ? QStyle::SP_MessageBoxCritical
                                          : d.severity == Severity::kWarning ? QStyle::SP_MessageBoxWarning
                                                                             : QStyle::SP_MessageBoxInformation;
      return QApplication::style()->standardIcon(icon);
    }
    case kBuffersRole: {
      QList<int> buffers(d.buffers.begin(), d.buffers.end());
      return QVariant::fromValue(buffers);
    }
    case kPoolRole: return d.pool;
    default: return {};
  }
}

}  // namespace usmpx::views
