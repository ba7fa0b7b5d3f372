#include "export/export_bundle.h"

#include <algorithm>
#include <filesystem>

namespace usmpx {

const ExportFile* ExportBundle::find(const std::string& path) const {
  for (const ExportFile& f : files) {
    if (f.path == path) return &f;
  }
  return nullptr;
}

ExportBundle ExportBundle::model_file(const std::string& input_path, std::string bytes, bool changed) {
  ExportBundle bundle;
  bundle.single_file = true;
  bundle.put(std::filesystem::path(input_path).filename().string(), std::move(bytes));
  if (changed) bundle.changed.push_back(bundle.files.front().path);
  return bundle;
}

void ExportBundle::put(std::string path, std::string data) {
  for (ExportFile& f : files) {
    if (f.path == path) {
      f.data = std::move(data);
      return;
    }
  }
  files.push_back({std::move(path), std::move(data)});
}

void ExportBundle::sort() {
  std::sort(files.begin(), files.end(), [](const ExportFile& a, const ExportFile& b) { return a.path < b.path; });
}

ExportBundle bundle_part(const ExportBundle& bundle, const std::string& prefix) {
  ExportBundle part;
  const std::string p = prefix + "/";
  for (const ExportFile& f : bundle.files) {
    if (f.path.rfind(p, 0) == 0) part.put(f.path.substr(p.size()), f.data);
  }
  for (const std::string& c : bundle.changed)
    if (c.rfind(p, 0) == 0) part.changed.push_back(c.substr(p.size()));
  part.sort();
  return part;
}

}  // namespace usmpx
