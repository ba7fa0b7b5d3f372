#include "inputs/input_facts.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "base/archive_path.h"
#include "checks/as_built_check.h"

namespace usmpx {
namespace {

constexpr std::string_view kAsBuiltLead = "as-built plan: ";
constexpr size_t kDifferingNamed = 8;

// TVM's check: the algorithm whose offsets agree with the most buffers, and those that differ.
std::string tvm_as_built_text(const LoadedInput& input) {
  const AsBuiltMatch m = match_as_built(input.problem, *input.as_built);
  std::string text = std::string(kAsBuiltLead) + m.algorithm + " reproduces " + std::to_string(m.matching) + " of " +
                     std::to_string(m.total) + " offsets";
  if (!m.differing.empty()) {
    text += " (differs for";
    for (size_t i = 0; i < m.differing.size() && i < kDifferingNamed; ++i)
      text += (i ? ", " : " ") + input.problem.buffers[static_cast<size_t>(m.differing[i])].name;
    text += m.differing.size() > kDifferingNamed ? ", ...)" : ")";
  }
  return text + "\n";
}

// The text's first clause without the lead, on one line: what a status bar has room for.
std::string short_verdict(const std::string& text) {
  std::string verdict = text;
  if (verdict.rfind(kAsBuiltLead, 0) == 0) verdict.erase(0, kAsBuiltLead.size());
  std::replace(verdict.begin(), verdict.end(), '\n', ' ');
  while (!verdict.empty() && verdict.back() == ' ')
    verdict.pop_back();
  if (const size_t paren = verdict.find(" (differs for"); paren != std::string::npos) verdict.erase(paren);
  // "what the plan is; what checks it": the check when there is one ("et_greedy reproduces all 7
  // offsets"), else what the plan is ("the model's OfflineMemoryAllocation fixes 5 of 7 tensors").
  if (const size_t semi = verdict.rfind("; "); semi != std::string::npos) {
    const std::string last = verdict.substr(semi + 2);
    verdict = last.find("reproduces") != std::string::npos ? last : verdict.substr(0, verdict.find("; "));
  }
  return verdict;
}

// The file name without the extensions an input's kind adds (".tar.gz", ".usmpx-firmware.json").
std::string stem_of(const std::string& path) {
  std::string name = base_name(path);
  for (const std::string_view suffix :
       {".usmpx-firmware.json", ".tar.gz", ".tgz", ".tar", ".tflite", ".pte", ".json", ".py", ".txt", ".tir", ".csv"}) {
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      name.erase(name.size() - suffix.size());
      break;
    }
  }
  return name;
}

}  // namespace

AsBuiltNote as_built_note(const LoadedInput& input) {
  if (!input.as_built) return {};
  std::string text = input.details ? input.details->as_built_text() : "";
  if (text.empty()) text = tvm_as_built_text(input);
  return {text, short_verdict(text)};
}

int64_t input_memory_pressure(const LoadedInput& input) {
  return input.details ? input.details->memory_pressure(input.problem) : input.problem.memory_pressure;
}

std::string export_refusal(const LoadedInput& input) {
  return input.exporter ? "" : input.no_export;
}

ExportForm export_form(const LoadedInput& input) {
  if (input.exporter) return input.exporter->form();
  return {};
}

std::string proposed_export_name(const std::string& input_path, const ExportForm& form) {
  return stem_of(input_path) + (form.target_suffix.empty() ? "_replanned" : form.target_suffix);
}

bool names_model_copy(const std::string& out, const std::string& input_path) {
  const auto lower_extension = [](const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
  };
  return !out.empty() && out.back() != '/' && !lower_extension(input_path).empty() &&
         lower_extension(out) == lower_extension(input_path);
}

RuntimeBuilds runtime_builds(const LoadedInput& input) {
  return input.details ? input.details->runtime_builds() : RuntimeBuilds{};
}

bool is_default_build(const LoadedInput& input, const std::string& kernels, const std::string& target,
                      const std::string& version) {
  const RuntimeBuilds builds = runtime_builds(input);
  const auto is_default = [](const std::vector<std::string>& options, const std::string& chosen) {
    return chosen.empty() || options.empty() || chosen == options.front();
  };
  return is_default(builds.kernels, kernels) && is_default(builds.targets, target) &&
         is_default(builds.versions, version);
}

std::string runtime_build_text(const LoadedInput& input) {
  return input.details ? input.details->runtime_build_text() : "";
}

}  // namespace usmpx
