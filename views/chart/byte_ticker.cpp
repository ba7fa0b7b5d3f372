#include "chart/byte_ticker.h"

#include <cmath>

namespace usmpx::views {

QString format_byte_count(qint64 bytes) {
  if (bytes < 0) return QStringLiteral("unlimited");
  if (bytes < 10000) return QString::number(bytes) + QStringLiteral(" B");
  if (bytes < 10 * 1024 * 1024) return QString::number(static_cast<double>(bytes) / 1024.0, 'f', 1) + QStringLiteral(" KiB");
  return QString::number(static_cast<double>(bytes) / (1024.0 * 1024.0), 'f', 2) + QStringLiteral(" MiB");
}

double ByteTicker::getTickStep(const QCPRange& range) {
  if (range.size() < 10000) return QCPAxisTicker::getTickStep(range);
  const double wanted = range.size() / std::max(1, tickCount());
  double step = 1024;
  while (step < wanted) step *= 2;
  return step;
}

QString ByteTicker::getTickLabel(double tick, const QLocale& /*locale*/, QChar /*format_char*/, int /*precision*/) {
  const auto bytes = static_cast<qint64>(tick);
  if (bytes >= 1024 && bytes % 1024 == 0 && bytes < 10 * 1024 * 1024) return QString::number(bytes / 1024) + QStringLiteral("K");
  if (bytes < 10000) return QString::number(bytes);
  if (bytes < 10 * 1024 * 1024) return QString::number(static_cast<double>(bytes) / 1024.0, 'g', 4) + QStringLiteral("K");
  return QString::number(static_cast<double>(bytes) / (1024.0 * 1024.0), 'g', 4) + QStringLiteral("M");
}

double TickTicker::getTickStep(const QCPRange& range) { return std::max(1.0, std::round(QCPAxisTicker::getTickStep(range))); }

QString TickTicker::getTickLabel(double tick, const QLocale& /*locale*/, QChar /*format_char*/, int /*precision*/) {
  return QString::number(static_cast<qint64>(std::llround(tick)));
}

}  // namespace usmpx::views
