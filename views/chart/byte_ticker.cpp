#include "chart/byte_ticker.h"

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

double ByteTicker::getTickStep(const QCPRange& range) {
  if (range.size() < 10000) return QCPAxisTicker::getTickStep(range);
  const double wanted = range.size() / std::max(1, tickCount());
  double step = 1024;
  while (step < wanted)
    step *= 2;
  return step;
}

QString ByteTicker::getTickLabel(double tick, const QLocale& /*locale*/, QChar /*format_char*/, int /*precision*/) {
  // The same words as every other size the explorer shows.
  return format_byte_count(static_cast<qint64>(std::llround(tick)));
}

double TickTicker::getTickStep(const QCPRange& range) {
  return std::max(1.0, std::round(QCPAxisTicker::getTickStep(range)));
}

QString TickTicker::getTickLabel(double tick, const QLocale& /*locale*/, QChar /*format_char*/, int /*precision*/) {
  return QString::number(static_cast<qint64>(std::llround(tick)));
}

}  // namespace usmpx::views
