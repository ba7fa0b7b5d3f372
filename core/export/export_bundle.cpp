#include "export/export_bundle.h"

#include <algorithm>

namespace usmpx {

const ExportFile* ExportBundle::find(const std::string& path) const {
  for (const ExportFile& f : files) {
    if (f.path == path) return &f;
  }
  return nullptr;
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

}  // namespace usmpx
