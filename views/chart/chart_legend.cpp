#include "chart/chart_legend.h"

#include "chart/box_colors.h"
#include "checks/plan_profile.h"

namespace usmpx::views {

QString chart_legend_html(const QString& reference_name, bool two_lines, bool on_paper,
                          const std::vector<ModelBand>& models, bool models_apart) {
  // Each mark stays with its words (&nbsp;); items are separated by breakable spaces.
  QString html;
  if (!models.empty()) {
    html += QStringLiteral("<b>models:</b> ");
    for (size_t m = 0; m < models.size(); ++m) {
      html += QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;<b>%2</b> &nbsp; ")
                  .arg(model_color(static_cast<int>(m)).name(), models[m].name.toHtmlEscaped());
    }
    html += models_apart ? QStringLiteral("<br>kinds by lightness: ") : QStringLiteral("kinds by lightness: ");
  }
  const int shade = models.empty() ? -1 : 0;
  for (BufferRole role : {BufferRole::kIntermediate, BufferRole::kOperatorInternal, BufferRole::kConstant,
                          BufferRole::kInputOutput, BufferRole::kReserved}) {
    const std::string_view name = to_string(role);
    html += QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;%2 &nbsp; ")
                .arg(box_color(shade, role).name(), QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()))
                                                        .replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
  }
  html += two_lines ? QStringLiteral("<br>") : QStringLiteral("&nbsp;");
  html += QStringLiteral(
              "<b>&#8212;</b>&nbsp;used &nbsp; <span style='color:#d62728'><b>- -</b></span>&nbsp;size&nbsp;hint "
              "&nbsp; <span style='color:#2ca02c'><b>&#183;&#183;&#183;</b></span>&nbsp;lower&nbsp;bound &nbsp; "
              "<span style='color:#444'>&#9473;</span>&nbsp;bytes&nbsp;in&nbsp;use &nbsp; &#9698;&nbsp;pinned &nbsp; "
              "<span style='color:#78008c'><b>- -</b></span>&nbsp;%1's&nbsp;plan%2")
              .arg(reference_name.toHtmlEscaped(),
                   // On paper the outlines are there or not; on screen the View menu shows them.
                   on_paper ? QString() : QStringLiteral("&nbsp;(View&nbsp;menu)"));
  return html;
}

}  // namespace usmpx::views
