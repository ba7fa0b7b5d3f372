#pragma once

#include <QString>
#include <vector>

#include "chart/chart_data.h"

namespace usmpx::views {

// What the charts' colours and marks mean (the legend above them, the PDF's colour key).
// With `two_lines` the colours and the marks go on lines of their own.
// With `models` (a firmware file's) the legend starts with each model's name in its hue, and the
// kinds' swatches are shown in the first model's hue (each model's kinds differ by lightness);
// `models_apart` puts the models on a line of their own.
QString chart_legend_html(const QString& reference_name, bool two_lines, bool on_paper = false,
                          const std::vector<ModelBand>& models = {}, bool models_apart = false);

}  // namespace usmpx::views
