#include "frontends/families.h"

#include "base/text_file.h"
#include "frontends/input_probe.h"
#include "frontends/problem_files/minimalloc_csv.h"
#include "frontends/problem_files/problem_json.h"

namespace usmpx {
namespace {

class ProblemFilesFrontend : public Frontend {
 public:
  ProblemFilesFrontend() : Frontend("problem") {}

  bool recognises(InputFormat format, InputProbe& p) const override {
    if (format == InputFormat::kProblemJson) return p.file() && ends_with_lower(p.path(), ".json");
    if (format == InputFormat::kMinimallocCsv) return p.file() && ends_with_lower(p.path(), ".csv");
    return false;
  }

  LoadedInput load(const std::string& path, InputFormat format, const LoadOptions& options) const override {
    LoadedInput input;
    input.path = path;
    input.format = format;
    const std::string text = read_text_file(path);
    input.problem =
        format == InputFormat::kMinimallocCsv ? read_minimalloc_csv(text, path) : read_problem_json(text, path);
    apply_pool_options(input.problem, options.pools);
    input.no_export =
        path +
        " is neither a Model Library Format archive or folder, a firmware tree nor a TIR dump; problem files carry no "
        "code to export";
    return input;
  }
};

}  // namespace

const Frontend& problem_files_frontend() {
  return the_frontend<ProblemFilesFrontend>();
}

}  // namespace usmpx
