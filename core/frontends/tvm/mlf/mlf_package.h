#pragma once

#include <string>
#include <vector>

#include "base/archive_reader.h"
#include "frontends/tvm/mlf/firmware_tree.h"
#include "frontends/tvm/mlf/metadata.h"

namespace usmpx {

// A Model Library Format archive or folder, or a firmware tree (what a firmware project keeps of
// TVM's output, without metadata.json), held in memory: the members the analysis needs
// (metadata.json, codegen/, src/, relay.txt, runtime/include/, tvmgen_<mod>.h, <mod>_lib<N>.c)
// and the names of all others. Member paths are the input's own, so that an export can write
// every file back where it was.
struct MlfPackage {
  std::string path;  // as given by the user
  ArchiveContents contents;
  MlfMetadata metadata;       // firmware trees: one module per tvmgen_<mod>.h, names only (version 0)
  std::string metadata_path;  // "<path>/metadata.json", for messages
  bool has_metadata = true;   // false for firmware trees
  FirmwareLayout firmware;    // firmware trees: where each module's files are
  std::string tvm_version;    // TVM_VERSION of a bundled runtime header, "" when there is none

  // "<archive>/<member>" as shown in messages and source locations.
  std::string display_path(const std::string& member) const;
};

// The files of one module.
struct MlfModule {
  const MlfModuleMetadata* metadata = nullptr;
  std::vector<const ArchiveFile*> sources;          // codegen/host/src/*.c, in library order
  const ArchiveFile* header = nullptr;              // codegen/host/include/tvmgen_<mod>.h
  const ArchiveFile* relay = nullptr;               // src/<mod>.relay, src/relay.txt or relay.txt
  std::vector<const ArchiveFile*> runtime_headers;  // runtime/include/**.h, when the archive has a CRT
  std::string include_dir;                          // the folder of the interface header

  const std::string& name() const { return metadata->name; }
};

// Whether `path` names an MLF input: a .tar, .tar.gz or .tgz file, or a folder holding metadata.json.
bool looks_like_mlf(const std::string& path);

// Reads the archive (.tar, .tar.gz, .tgz) or folder at `path`: an MLF (metadata.json at its root)
// or a firmware tree (tvmgen_<mod>.h and <mod>_lib<N>.c somewhere below it). Throws InputError
// when it is neither.
MlfPackage read_mlf(const std::string& path, const ArchiveLimits& limits = {});
// The same for archive bytes already in memory.
MlfPackage read_mlf_bytes(std::string_view bytes, const std::string& name, const ArchiveLimits& limits = {});

// The module named `name` (the first when empty). Throws InputError listing the modules when
// there is no such module.
MlfModule select_module(const MlfPackage& package, const std::string& name);

}  // namespace usmpx
