#pragma once

#include <string>

#include "export/export_bundle.h"

namespace usmpx {

// Where and how an export is written.
struct WriteOptions {
  bool force = false;  // replace an existing non-empty folder or an existing archive
};

// Writes the bundle as a folder, or as a tar archive when `target` ends in .tar, .tar.gz or .tgz
// (a single-file bundle: that file at `target`).
// Archives are deterministic (entries sorted, "./" prefixed like TVM's, owner root:root, fixed
// times, no padding variation); both are written under a temporary name next to the target and
// renamed into place, so a failed export leaves nothing half-written. Refuses (ExportError) a
// target that exists and is not empty unless options.force, and a target that is the input.
void write_bundle(const ExportBundle& bundle, const std::string& target, const WriteOptions& options = {},
                  const std::string& input_path = "");

// The archive bytes write_bundle writes for a .tar / .tar.gz target.
std::string bundle_archive_bytes(const ExportBundle& bundle, bool gzip);

}  // namespace usmpx
