#include "chart/byte_ticker.h"

#include <algorithm>
#include <cmath>

#include "base/size_text.h"

namespace usmpx::views {

QString format_byte_count(qint64 bytes) {
  return QString::fromStdString(format_size(bytes));
}

QString format_byte_delta(qint64 bytes) {
  return QString::fromStdString(format_size_delta(bytes));
}

QString format_byte_count_exact(qint64 bytes) {
  return QString::fromStdString(format_size_exact(bytes));
}

QString ByteTicker::label(double tick, const QCPRange& range) {
  const auto bytes = static_cast<qint64>(std::llround(tick));
  if (range.size() < 10000 || bytes == 0) return format_byte_count(bytes);
  // One unit for the axis, by its top: KiB, MiB from 1 MiB, GiB from 1 GiB.
  const double top = std::max(std::abs(range.lower), std::abs(range.upper));
  const int unit = top >= 1024.0 * 1024.0 * 1024.0 ? 3 : top >= 1024.0 * 1024.0 ? 2 : 1;
  const double value = static_cast<double>(bytes) / std::pow(1024.0, unit);
  // Up to two decimals, trailing zeros dropped (1.5, 0.25, 12).
  QString number = QString::number(value, 'f', 2);
  while (number.contains(QLatin1Char('.')) && (number.endsWith(QLatin1Char('0')) || number.endsWith(QLatin1Char('.'))))
    number.chop(1);
  return number + (unit == 3 ? QStringLiteral(" GiB") : unit == 2 ? QStringLiteral(" MiB") : QStringLiteral(" KiB"));
}

double ByteTicker::getTickStep(const QCPRange& range) {
  range_ = range;
  if (range.size() < 10000) return QCPAxisTicker::getTickStep(range);
  const double wanted = range.size() / std::max(1, tickCount());
  double step = 1024;
  while (step < wanted)
    step *= 2;
  return step;
}

QString ByteTicker::getTickLabel(double tick, const QLocale& /*locale*/, QChar /*format_char*/, int /*precision*/) {
  return label(tick, range_);
}

double TickTicker::getTickStep(const QCPRange& range) {
  return std::max(1.0, std::round(QCPAxisTicker::getTickStep(range)));
}

QString TickTicker::getTickLabel(double tick, const QLocale& /*locale*/, QChar /*format_char*/, int /*precision*/) {
  return QString::number(static_cast<qint64>(std::llround(tick)));
}

}  // namespace usmpx::views
