#include "frontends/frontend.h"

#include <algorithm>
#include <sstream>

#include "base/size_text.h"

namespace usmpx {

std::string RuntimeBuilds::label(const std::string& value) const {
  const auto it = labels.find(value);
  return it == labels.end() ? value : it->second;
}

namespace {

// Whether `value` is among what `limits` lists for `key` (a key not listed is unlimited).
bool allowed(const std::map<std::string, std::vector<std::string>>& limits, const std::string& key,
             const std::string& value) {
  const auto it = limits.find(key);
  return it == limits.end() || std::find(it->second.begin(), it->second.end(), value) != it->second.end();
}

}  // namespace

bool RuntimeBuilds::builds_for(const std::string& kernels_value, const std::string& target) const {
  return allowed(kernel_targets, kernels_value, target);
}

bool RuntimeBuilds::models_version(const std::string& kernels_value, const std::string& version) const {
  return allowed(kernel_versions, kernels_value, version);
}

std::string FigureToPaste::text() const {
  return name + (exact ? " = " : " >= ") + with_separators(bytes) + " B" + (exact ? "" : " (at least)");
}

ExportForm model_copy_form(std::string what, std::string suffix, std::string file_filter) {
  ExportForm f;
  f.what = std::move(what);
  f.one_file = true;
  f.target_suffix = std::move(suffix);
  f.file_filter = std::move(file_filter);
  f.archives = false;
  f.harness = false;
  f.pools_from_panel = false;
  return f;
}

std::vector<std::string> InputDetails::memory_rows(const Problem& problem, const Plan& plan) const {
  std::vector<std::string> rows;
  std::istringstream lines(closing_text(problem, plan));
  for (std::string line; std::getline(lines, line);) {
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    rows.push_back(line.substr(first));
  }
  // The figure first: the line that gives it above what explains it.
  std::stable_partition(rows.begin(), rows.end(),
                        [](const std::string& row) { return row.rfind("kTensorArenaSize", 0) == 0; });
  return rows;
}

}  // namespace usmpx
