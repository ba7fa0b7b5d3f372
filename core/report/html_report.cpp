#include "report/html_report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "base/size_text.h"
#include "checks/comparison.h"
#include "checks/plan_summary.h"

namespace usmpx {
namespace {

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string percent(int64_t part, int64_t whole) {
  if (whole <= 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
  return text;
}

// A name as a table cell: breakable after '/' and '_', whole on hover.
std::string name_cell(const std::string& name) {
  std::string out;
  for (char c : name) {
    const char one[2] = {c, 0};
    out += escape(one);
    if (c == '/' || c == '_') out += "<wbr>";
  }
  return "<td class=\"name\" title=\"" + escape(name) + "\">" + out + "</td>";
}

std::string gap(int64_t size, int64_t lb) {
  return escape(format_gap(size, lb));
}

// A size cell: readable, with the exact bytes on hover.
std::string size_cell(int64_t bytes, const std::string& extra_class = "") {
  return "<td class=\"n" + extra_class + "\" title=\"" + with_separators(bytes) + " bytes\">" +
         escape(format_size(bytes)) + "</td>";
}

// A firmware file's models, in the order they run: each one's ticks on the joint time axis, its
// buffers and the bytes its buffers reach in each pool of the chosen plan.
void models_section(std::ostringstream& out, const ReportContent& c) {
  if (c.models.empty()) return;
  const Problem& p = c.problem;
  out << "<h2>Models</h2>\n<p>" << c.models.size()
      << " models one after the other on one time axis; each model's span is its ticks in the charts.</p>\n"
         "<table class=\"models\"><tr><th>model</th><th>ticks</th><th>buffers</th><th>bytes it reaches per "
         "pool</th></tr>\n";
  for (const ModelSpan& model : c.models) {
    std::vector<int64_t> reach(p.pools.size(), 0);
    for (int b : model.buffers) {
      if (b < 0 || static_cast<size_t>(b) >= p.buffers.size() || static_cast<size_t>(b) >= c.chosen.allocations.size())
        continue;
      const Allocation& a = c.chosen.allocations[static_cast<size_t>(b)];
      if (!a.placed() || static_cast<size_t>(a.pool) >= reach.size()) continue;
      reach[static_cast<size_t>(a.pool)] =
          std::max(reach[static_cast<size_t>(a.pool)], a.offset + p.buffers[static_cast<size_t>(b)].size_bytes);
    }
    std::string pools;
    for (size_t i = 0; i < reach.size(); ++i) {
      if (reach[i] == 0) continue;
      pools += (pools.empty() ? "" : ", ") + escape(p.pools[i].name) + " " + escape(format_size_exact(reach[i]));
    }
    out << "<tr><td>" << escape(model.name) << "</td><td class=\"n\">[" << model.first_tick << ", " << model.last_tick
        << "]</td><td class=\"n\">" << model.buffers.size() << "</td><td>" << (pools.empty() ? "-" : pools)
        << "</td></tr>\n";
  }
  out << "</table>\n";
}

// What the firmware must declare: one figure in a sentence, several (an ExecuTorch program's
// methods) as a table of one row each.
void runtime_memory_section(std::ostream& out, const std::string& memory) {
  std::vector<std::string> rows;
  std::istringstream lines(memory);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) rows.push_back(line);
  if (rows.empty()) return;
  if (rows.size() == 1) {
    out << "<p class=\"runtime-memory\"><b>Memory the firmware needs:</b> " << escape(rows.front()) << "</p>\n";
    return;
  }
  out << "<p class=\"runtime-memory\"><b>Memory the firmware needs:</b></p>\n<table class=\"runtime-memory\">";
  for (const std::string& row : rows)
    out << "<tr><td>" << escape(row) << "</td></tr>";
  out << "</table>\n";
}

// What sharing saves: per shared pool each model alone, separately against shared, and the
// number to paste (the explorer's Models panel says the same).
void sharing_section(std::ostringstream& out, const ReportContent& c) {
  if (c.sharing.empty()) return;
  out << "<h2>Sharing between the models</h2>\n<table class=\"sharing\"><tr><th>shared pool</th><th>each model "
         "alone</th><th>separately</th><th>shared</th><th>saving</th><th>paste</th></tr>\n";
  for (const SharedPoolFigures& f : c.sharing) {
    std::string alone;
    for (const auto& [model, bytes] : f.alone)
      alone += (alone.empty() ? "" : "<br>") + escape(model) + " " + with_separators(bytes) + " B";
    out << "<tr><td>" << escape(f.pool) << (f.runtime_arena ? " (kTensorArenaSize)" : "") << "</td><td class=\"n\">"
        << alone << "</td><td class=\"n\">" << with_separators(f.separate) << " B</td><td class=\"n\">"
        << (f.exact ? "" : "at least ") << with_separators(f.shared) << " B</td><td class=\"n\">"
        << escape(saving_text(f)) << "</td><td class=\"why\"><b>" << escape(paste_text(f)) << "</b></td></tr>\n";
  }
  out << "</table>\n";
}

// The page's head: tables fit the page, long names wrap, printed pages are landscape.
void page_head(std::ostringstream& out, const ReportContent& c) {
  out << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << escape(c.title) << "</title>\n"
      << "<style>body{font-family:sans-serif;margin:2em;color:#222;max-width:100%}"
         "table{border-collapse:collapse;margin:1em 0;max-width:100%}"
         // Numbers, short words and headers never wrap; names wrap at '/' and '_' (<wbr>), and
         // only a name without either breaks inside a word.
         "td,th{border:1px solid #ccc;padding:3px 8px}td.n{text-align:right;"
         "white-space:nowrap}th{background:#f0f0f0;white-space:nowrap}td.name{overflow-wrap:break-word;"
         "max-width:40em}td.why{min-width:16em}"
         ".bad{color:#c00;font-weight:bold}img{max-width:100%;border:1px solid #ddd}"
         "@page{size:A4 landscape;margin:12mm}@media print{body{margin:0;font-size:9pt}}</style></head><body>\n";
}

// The title and the one paragraph that says what the plan is and what it saves.
void summary_paragraph(std::ostringstream& out, const ReportContent& c, const PlanSummary& summary) {
  const Problem& p = c.problem;
  out << "<h1>" << escape(c.title) << "</h1>\n<p>Input: <code>" << escape(c.input) << "</code> — " << p.buffers.size()
      << " buffers, " << p.pools.size() << (p.pools.size() == 1 ? " pool" : " pools") << ". Chosen algorithm: <b>"
      << escape(c.chosen.algorithm) << "</b>, total " << escape(format_size_exact(summary.total_bytes))
      << ", lower bound " << escape(format_size_exact(summary.lower_bound_bytes)) << " (gap "
      << gap(summary.total_bytes, summary.lower_bound_bytes) << "), "
      << (summary.fits ? "fits" : "<span class=\"bad\">does not fit</span>")
      << (c.chosen.has_errors() ? ", <span class=\"bad\">invalid (see the errors below)</span>" : "") << ".";
  // A saving is claimed only for a plan that fits, as the status bar and the charts do.
  if (c.reference_pool_bytes && c.chosen.algorithm != "as-built" && summary.fits) {
    out << " <b>" << escape(format_size_delta(summary.total_bytes - c.reference_total_bytes)) << " vs "
        << escape(c.reference_name) << "'s plan</b> (" << escape(format_size_exact(c.reference_total_bytes)) << ").";
  } else if (c.reference_pool_bytes && c.chosen.algorithm != "as-built") {
    out << " No saving is claimed against " << escape(c.reference_name) << "'s plan ("
        << escape(format_size_exact(c.reference_total_bytes)) << "): this plan does not fit.";
  }
  out << "</p>\n";
}

// Each pool's size, hint, use and lower bound.
void pools_section(std::ostringstream& out, const ReportContent& c, const PlanSummary& summary) {
  const Problem& p = c.problem;
  out << "<h2>Pools</h2>\n<table><tr><th>pool</th><th>kind</th><th>size</th><th>size hint</th><th>use</th><th>lower "
         "bound</th>"
         "<th>gap</th><th>buffers</th><th>section</th></tr>\n";
  for (size_t i = 0; i < p.pools.size(); ++i) {
    const Pool& pool = p.pools[i];
    const PoolSummary& s = summary.pools[i];
    out << "<tr><td>" << escape(pool.name) << "</td><td>" << to_string(pool.kind) << "</td>" << size_cell(s.size_bytes)
        << (pool.restricted() ? size_cell(pool.size_hint_bytes) : "<td class=\"n\">unlimited</td>") << "<td class=\"n"
        << (s.over_hint ? " bad" : "") << "\">"
        << (pool.restricted() ? percent(s.size_bytes, pool.size_hint_bytes) : "-") << "</td>"
        << size_cell(s.lower_bound_bytes) << "<td class=\"n\">" << gap(s.size_bytes, s.lower_bound_bytes)
        << "</td><td class=\"n\">" << s.buffers << "</td><td>" << escape(pool.section) << "</td></tr>\n";
  }
  out << "</table>\n<p>Lower bound: what no valid plan of these buffers in these pools can go below; gap: how far "
         "this plan is above it. A pool's bound counts the buffers that can go into no other pool; the total's is "
         "at least the sum of the pools'.</p>\n";
}

// Each pool against the reference plan (TVM's, TFLM's, ...), when there is one.
void reference_section(std::ostringstream& out, const ReportContent& c, const PlanSummary& summary) {
  const Problem& p = c.problem;
  if (c.reference_pool_bytes && c.chosen.algorithm != "as-built") {
    out << "<h2>Compared with " << escape(c.reference_name) << "'s plan</h2>\n<table><tr><th>pool</th><th>"
        << escape(c.reference_name) << "</th><th>" << escape(c.chosen.algorithm) << "</th><th>difference</th></tr>\n";
    for (size_t i = 0; i < p.pools.size() && i < c.reference_pool_bytes->size(); ++i) {
      const int64_t tvm = (*c.reference_pool_bytes)[i];
      out << "<tr><td>" << escape(p.pools[i].name) << "</td>" << (tvm >= 0 ? size_cell(tvm) : "<td class=\"n\">-</td>")
          << size_cell(summary.pools[i].size_bytes) << "<td class=\"n\">"
          << (tvm >= 0 && summary.fits ? escape(format_size_delta(summary.pools[i].size_bytes - tvm)) : "-")
          << "</td></tr>\n";
    }
    out << "<tr><th>total</th>" << size_cell(c.reference_total_bytes) << size_cell(summary.total_bytes)
        << "<td class=\"n\"><b>"
        << (summary.fits ? escape(format_size_delta(summary.total_bytes - c.reference_total_bytes))
                         : std::string("none: does not fit"))
        << "</b></td></tr>\n</table>\n";
  }
}

// The other algorithms' plans, ranked as the Compare dialog ranks them.
void compared_section(std::ostringstream& out, const ReportContent& c) {
  const Problem& p = c.problem;
  if (!c.compared_note.empty())
    out << "<h2>Algorithms compared</h2>\n<p class=\"compared-note\">" << escape(c.compared_note) << "</p>\n";
  if (!c.compared.empty()) {
    out << "<h2>Algorithms compared</h2>\n<table><tr><th>algorithm</th>";
    for (const Pool& pool : p.pools)
      out << "<th>" << escape(pool.name) << "</th>";
    out << "<th>total</th><th>gap</th><th>time (ms)</th><th>fits</th><th>valid</th><th>not ranked because</th></tr>\n";
    // The Compare dialog's words: only plans that fit and are valid are ranked (and have a gap).
    const std::vector<ComparedPlan> ranking = rank_plans(p, c.compared);
    for (size_t r = 0; r < c.compared.size(); ++r) {
      const Plan& plan = c.compared[r];
      const ComparedPlan& rank = ranking[r];
      out << "<tr><td style=\"white-space:nowrap\">" << (rank.best ? "<b>" : "") << escape(plan.algorithm)
          << (rank.best ? "</b>" : "") << (plan.algorithm == c.chosen.algorithm ? " (chosen)" : "") << "</td>";
      if (!rank.made) {
        for (size_t i = 0; i < p.pools.size() + 5; ++i)
          out << "<td class=\"n\">—</td>";
        out << "<td class=\"bad why\">" << escape(rank.reason) << "</td></tr>\n";
        continue;
      }
      for (size_t i = 0; i < p.pools.size(); ++i)
        out << size_cell(i < plan.pool_sizes.size() ? plan.pool_sizes[i] : 0);
      char ms[32];
      std::snprintf(ms, sizeof ms, "%.1f", plan.runtime_ms);
      out << size_cell(plan.total_size()) << "<td class=\"n\">" << escape(rank.gap) << "</td><td class=\"n\">" << ms
          << "</td><td>" << (rank.fits ? "yes" : "<span class=\"bad\">no</span>") << "</td><td>"
          << (rank.valid ? "yes" : "<span class=\"bad\">no</span>") << "</td><td class=\"bad why\">"
          << escape(rank.reason) << "</td></tr>\n";
    }
    out << "</table>\n";
  }
}

// The input's warnings, then the plan's findings, each once.
void diagnostics_section(std::ostringstream& out, const ReportContent& c) {
  if (!c.warnings.empty() || !c.chosen.diagnostics.empty()) {
    // The input's warnings first, then the plan's findings, each once.
    out << "<h2>Warnings and diagnostics</h2>\n<ul>\n";
    // The same finding at several places is one line with its count.
    std::vector<std::string> seen;
    for (const std::vector<Diagnostic>* list : {&c.warnings, &c.chosen.diagnostics}) {
      for (const DiagnosticGroup& g : group_diagnostics(*list)) {
        const Diagnostic& d = g.first;
        const std::string line = std::string(to_string(d.severity)) + ": " + d.message;
        if (std::find(seen.begin(), seen.end(), line) != seen.end()) continue;
        seen.push_back(line);
        out << "<li" << (d.severity == Severity::kError ? " class=\"bad\"" : "") << ">" << escape(line)
            << (g.count > 1 ? " (" + std::to_string(g.count) + " times)" : "") << "</li>\n";
      }
    }
    out << "</ul>\n";
  }
}

// Every buffer's allocation, by pool and offset.
void allocations_section(std::ostringstream& out, const ReportContent& c) {
  const Problem& p = c.problem;
  out << "<h2>Allocations</h2>\n<table><tr><th>buffer</th><th>pool</th><th>offset</th><th>size</th><th>end</"
         "th><th>alignment</th>"
         "<th>kind</th><th>lifetime</th><th>pinned</th></tr>\n";
  std::vector<size_t> order(p.buffers.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Allocation& x = c.chosen.allocations[a];
    const Allocation& y = c.chosen.allocations[b];
    return x.pool != y.pool ? x.pool < y.pool : x.offset != y.offset ? x.offset < y.offset : a < b;
  });
  for (size_t i : order) {
    const Buffer& b = p.buffers[i];
    const Allocation& a = c.chosen.allocations[i];
    out << "<tr>" << name_cell(b.name) << "<td>"
        << (a.placed() ? escape(p.pools[static_cast<size_t>(a.pool)].name) : "-") << "</td><td class=\"n\">"
        << (a.placed() ? with_separators(a.offset) : "-") << "</td>" << size_cell(b.size_bytes) << "<td class=\"n\">"
        << (a.placed() ? with_separators(a.offset + b.size_bytes) : "-") << "</td><td class=\"n\">" << b.alignment
        << "</td><td>" << to_string(b.kind) << "</td><td>"
        << (b.lifetime ? std::to_string(b.lifetime->first()) + "–" + std::to_string(b.lifetime->last()) : "")
        << "</td><td>" << (b.pin ? "yes" : "") << "</td></tr>\n";
  }
  out << "</table>\n";
}

}  // namespace

std::string html_report(const ReportContent& c) {
  std::ostringstream out;
  const PlanSummary summary = summarize_plan(c.problem, c.chosen);
  page_head(out, c);
  summary_paragraph(out, c, summary);
  runtime_memory_section(out, c.runtime_memory);
  models_section(out, c);
  sharing_section(out, c);
  pools_section(out, c, summary);
  reference_section(out, c, summary);
  for (const std::string& image : c.images)
    out << "<p><img src=\"" << escape(image) << "\" alt=\"pool charts\"></p>\n";
  compared_section(out, c);
  diagnostics_section(out, c);
  allocations_section(out, c);
  out << "<p style=\"color:#888\">Generated by USMP Explorer.</p>\n</body></html>\n";
  return out.str();
}

}  // namespace usmpx
