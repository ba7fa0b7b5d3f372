#include "frontends/tflite/tflm_tree.h"

#include <algorithm>
#include <filesystem>
#include <functional>

#include "base/config_error.h"
#include "frontends/tflite/tflm_source_tokens.h"
#include "frontends/tflite/tflm_version_rules.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using Tokens = std::vector<SourceToken>;

constexpr std::string_view kMicro = "tensorflow/lite/micro";

// The builtins whose registration tells versions apart (tflm_version_rules.cpp's kUnregistered).
constexpr std::string_view kTelltaleBuiltins[] = {"BATCH_MATMUL", "DYNAMIC_UPDATE_SLICE", "EMBEDDING_LOOKUP",
                                                  "REDUCE_MIN", "REVERSE_V2"};

bool is_call(const Tokens& t, size_t k, std::string_view name) {
  return t[k].kind == SourceToken::Kind::kIdentifier && t[k].text == name && k + 1 < t.size() && t[k + 1].text == "(";
}

int64_t count_calls(const Tokens& t, std::string_view name) {
  int64_t n = 0;
  for (size_t k = 0; k < t.size(); ++k)
    n += is_call(t, k, name) ? 1 : 0;
  return n;
}

// The body of the function defined with a name starting `prefix`: the '(' after the name, its
// matching ')', then '{' (a declaration or call has ';' or anything else there).
std::optional<Tokens> function_body(const Tokens& t, std::string_view prefix) {
  for (size_t k = 0; k + 1 < t.size(); ++k) {
    if (t[k].kind != SourceToken::Kind::kIdentifier || t[k].text.rfind(prefix, 0) != 0 || t[k + 1].text != "(")
      continue;
    int depth = 0;
    size_t close = k + 1;
    for (; close < t.size(); ++close) {
      if (t[close].text == "(") ++depth;
      if (t[close].text == ")" && --depth == 0) break;
    }
    if (close + 1 < t.size() && t[close + 1].text == "{") return braced_body(t, close + 1);
  }
  return std::nullopt;
}

// The body of `struct name {...}`.
std::optional<Tokens> struct_body(const Tokens& t, std::string_view name) {
  for (size_t k = 0; k + 2 < t.size(); ++k)
    if (t[k].text == "struct" && t[k + 1].text == name && t[k + 2].text == "{") return braced_body(t, k + 2);
  return std::nullopt;
}

// The known versions for which `fits` holds.
std::vector<TflmVersion> versions_where(const std::function<bool(TflmVersion)>& fits) {
  std::vector<TflmVersion> out;
  for (const TflmVersionInfo& v : tflm_versions())
    if (fits(v.version)) out.push_back(v.version);
  return out;
}

// Reads `file` of the tree and makes the fact from its tokens; not found when the file is not
// there or `read` finds nothing to read the fact from (it returns "").
TflmTreeFact fact(const fs::path& root, std::string name, const std::string& file,
                  const std::function<std::string(const Tokens&, std::vector<TflmVersion>&)>& read) {
  TflmTreeFact f{std::move(name), std::string(kMicro) + "/" + file, false, "", {}};
  const auto tokens = lex_source_file((root / f.file).string());
  if (!tokens) {
    f.value = "no " + f.file;
    return f;
  }
  f.value = read(*tokens, f.versions);
  f.found = !f.value.empty();
  if (!f.found) f.value = "not in " + f.file;
  return f;
}

TflmTreeFact registered(const fs::path& root) {
  return fact(root, "the builtins MicroMutableOpResolver registers", "micro_mutable_op_resolver.h",
              [](const Tokens& t, std::vector<TflmVersion>& versions) -> std::string {
                std::vector<std::string> present;
                for (const SourceToken& token : t)
                  if (token.text.rfind("BuiltinOperator_", 0) == 0) present.push_back(token.text.substr(16));
                if (present.empty()) return "";
                std::string has, lacks;
                std::vector<std::pair<std::string_view, bool>> shown;
                for (std::string_view b : kTelltaleBuiltins) {
                  const bool in = std::find(present.begin(), present.end(), b) != present.end();
                  shown.emplace_back(b, in);
                  (in ? has : lacks) += ((in ? has : lacks).empty() ? "" : ", ") + std::string(b);
                }
                versions = versions_where([&](TflmVersion v) {
                  return std::all_of(shown.begin(), shown.end(),
                                     [&](const auto& s) { return tflm_version_registers(v, s.first) == s.second; });
                });
                return "registers " + (has.empty() ? "none" : has) + " of the telltale builtins; lacks " +
                       (lacks.empty() ? "none" : lacks);
              });
}

TflmTreeFact fully_connected(const fs::path& root) {
  return fact(root, "FULLY_CONNECTED's op data", "kernels/fully_connected.h",
              [](const Tokens& t, std::vector<TflmVersion>& versions) -> std::string {
                const auto body = struct_body(t, "OpDataFullyConnected");
                if (!body) return "";
                const bool per_channel = std::any_of(body->begin(), body->end(), [](const SourceToken& s) {
                  return s.text == "per_channel_output_multiplier";
                });
                versions = versions_where([&](TflmVersion v) {
                  return tflm_version_has(v, "FULLY_CONNECTED", TflmChange::kInitOpData) != per_channel;
                });
                return per_channel ? "OpDataFullyConnected holds per-channel multipliers (64 B on x86-64)"
                                   : "OpDataFullyConnected holds no per-channel arrays (36 B)";
              });
}

TflmTreeFact reduce(const fs::path& root) {
  // reduce_common.cc since 2022; reduce.cc before.
  const bool old_name =
      !fs::exists(root / kMicro / "kernels/reduce_common.cc") && fs::exists(root / kMicro / "kernels/reduce.cc");
  const std::string file = old_name ? "kernels/reduce.cc" : "kernels/reduce_common.cc";
  return fact(root, "MEAN/SUM's scratch requests", file,
              [](const Tokens& t, std::vector<TflmVersion>& versions) -> std::string {
                const auto body = function_body(t, "PrepareMeanOrSum");
                if (!body) return "";
                const int64_t n = count_calls(*body, "RequestScratchBufferInArena");
                versions = versions_where([&](TflmVersion v) {
                  return (tflm_version_has(v, "MEAN", TflmChange::kReduceTempSumOnly) ? 1 : 3) == n;
                });
                return "PrepareMeanOrSum requests " + std::to_string(n) + " scratch buffer(s)";
              });
}

TflmTreeFact concatenation(const fs::path& root) {
  return fact(root, "CONCATENATION's persistent buffers", "kernels/concatenation.cc",
              [](const Tokens& t, std::vector<TflmVersion>& versions) -> std::string {
                const int64_t n = count_calls(t, "AllocatePersistentBuffer");
                if (n == 0) return "";
                // Init's op data, and in the versions that keep them the int8 scales and zero points.
                versions = versions_where([&](TflmVersion v) {
                  return (tflm_version_has(v, "CONCATENATION", TflmChange::kInt8InputArrays) ? 3 : 1) == n;
                });
                return std::to_string(n) + " AllocatePersistentBuffer call(s)";
              });
}

std::string names(const std::vector<TflmVersion>& versions) {
  std::string out;
  for (TflmVersion v : versions)
    out += (out.empty() ? "" : ", ") + std::string(to_string(v));
  return out.empty() ? "none" : out;
}

std::string summary(const TflmTreeVersion& r) {
  std::string found, missing;
  for (const TflmTreeFact& f : r.facts) {
    if (f.found)
      found += (found.empty() ? "" : "; ") + f.name + ": " + f.value + " (" + names(f.versions) + ")";
    else
      missing += (missing.empty() ? "" : "; ") + f.name + " (" + f.value + ")";
  }
  if (r.version) return std::string(to_string(*r.version)) + " (" + found + ")";
  return "cannot tell" + std::string(missing.empty() ? "" : ": missing " + missing) +
         (found.empty() ? "" : (missing.empty() ? ": " : "; found ") + found);
}

}  // namespace

TflmTreeVersion recognise_tflm_tree(const std::string& dir) {
  const fs::path root(dir);
  std::error_code ec;
  if (!fs::is_directory(root / kMicro, ec))
    throw ConfigError("--tflm-tree " + dir + ": no " + std::string(kMicro) +
                      " in it (give the folder that holds tensorflow/lite/micro)");
  TflmTreeVersion r;
  r.facts = {registered(root), fully_connected(root), reduce(root), concatenation(root)};
  std::vector<TflmVersion> fit = versions_where([](TflmVersion) { return true; });
  for (const TflmTreeFact& f : r.facts) {
    if (!f.found) continue;
    std::erase_if(
        fit, [&](TflmVersion v) { return std::find(f.versions.begin(), f.versions.end(), v) == f.versions.end(); });
  }
  if (fit.size() == 1) r.version = fit.front();
  r.summary = summary(r);
  if (!r.version && fit.size() > 1) r.summary += "; fits " + names(fit);
  if (!r.version && fit.empty()) r.summary += "; the facts found fit no one known version";
  return r;
}

std::string tflm_version_from_tree(const std::string& dir, std::string_view version, std::string* said) {
  if (said) said->clear();
  if (dir.empty()) return std::string(version);
  const TflmTreeVersion r = recognise_tflm_tree(dir);
  if (!r.version) throw ConfigError("--tflm-tree " + dir + ": " + r.summary + "; name the version with --tflm-version");
  if (!version.empty() && version != to_string(*r.version)) {
    throw ConfigError("--tflm-tree " + dir + " shows TFLM " + std::string(to_string(*r.version)) +
                      ", not --tflm-version " + std::string(version) + " (" + r.summary + ")");
  }
  if (said) *said = "TFLM tree " + dir + ": its kernels are TFLM " + r.summary;
  return std::string(to_string(*r.version));
}

}  // namespace usmpx
