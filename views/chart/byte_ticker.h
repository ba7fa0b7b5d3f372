#pragma once

#include "chart/qcustomplot_include.h"

namespace usmpx::views {

// Axis ticks in bytes: below 10,000 decimal steps with plain labels; above, steps of a power of
// two times 1 KiB, labelled "16K", "1.5M".
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

QString format_byte_count(qint64 bytes);

}  // namespace usmpx::views
