#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace usmpx::fuzz {

// One entry per reader. Each reads `data` the way the tools do; bad input must end in InputError
// or ConfigError, which are caught. Anything else (another exception, a crash, a sanitizer report,
// a hang) is a finding.
void problem_json(std::string_view data);
void minimalloc_csv(std::string_view data);
void session_file(std::string_view data);
void tvmscript(std::string_view data);
void legacy_tir(std::string_view data);
void mlf_metadata(std::string_view data);
void c_analysis(std::string_view data);          // the data replaces a USMP-on fixture's default_lib1.c
void mlf_archive(std::string_view data);         // tar, tar.gz or other compressed tar bytes
void mlf_export(std::string_view data);          // as c_analysis, then the C rewritten for a plan
void tir_export(std::string_view data);          // TVMScript, then C generated for a plan
void firmware_tree(std::string_view data);       // a firmware tree as tar bytes, then its as-built export
void external_operators(std::string_view data);  // the data replaces the CMSIS-NN fixture's default_lib2.c
void selftest_checks(std::string_view data);     // the same, read as selftest reads it before compiling
void tflite(std::string_view data);              // a .tflite: read, planned as TFLM, the plan written back
void executorch(std::string_view data);          // a .pte: read, planned with et_greedy, the plan written back
void firmware_file(std::string_view data);       // a firmware file, its joint problem over canned models, planned

struct Target {
  const char* name;
  void (*run)(std::string_view);
};
const std::vector<Target>& targets();

}  // namespace usmpx::fuzz
