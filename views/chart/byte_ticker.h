#pragma once

#include "chart/qcustomplot_include.h"

namespace usmpx::views {

// Axis ticks in bytes: below 10,000 decimal steps with plain labels; above, steps of a power of
// two times 1 KiB; labels by format_byte_count ("16 KiB", "1.5 MiB").
class ByteTicker : public QCPAxisTicker {
 protected:
  double getTickStep(const QCPRange& range) override;
  QString getTickLabel(double tick, const QLocale& locale, QChar format_char, int precision) override;
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
