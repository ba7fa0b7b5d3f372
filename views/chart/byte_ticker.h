#pragma once

#include "chart/qcustomplot_include.h"

namespace usmpx::views {

// Axis ticks in bytes: below 10,000 decimal steps with plain labels ("4,000 B"); above, steps of a
// power of two times 1 KiB, every label of the axis in one unit, KiB, MiB or GiB by the axis's top
// ("0 B", "4 KiB", "8 KiB", "12 KiB", not "8,192 B" beside "12 KiB").
class ByteTicker : public QCPAxisTicker {
 public:
  // The label of `tick` on an axis showing `range` (what getTickLabel gives after getTickStep).
  static QString label(double tick, const QCPRange& range);

 protected:
  double getTickStep(const QCPRange& range) override;
  QString getTickLabel(double tick, const QLocale& locale, QChar format_char, int precision) override;

 private:
  QCPRange range_;  // of the axis being ticked: getTickStep runs before the labels
};

// Integer ticks for the time axis (no "2.5").
class TickTicker : public QCPAxisTicker {
 protected:
  double getTickStep(const QCPRange& range) override;
  QString getTickLabel(double tick, const QLocale& locale, QChar format_char, int precision) override;
};

// format_size (report/size_text.h) as a QString: the one size formatter of the tool.
QString format_byte_count(qint64 bytes);
QString format_byte_delta(qint64 bytes);
QString format_byte_count_exact(qint64 bytes);

}  // namespace usmpx::views
