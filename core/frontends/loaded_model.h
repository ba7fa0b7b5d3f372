#pragma once

// What every frontend of a model file (a .tflite, a .pte) does the same way: recognising the file,
// the LoadedInput of an analysis that holds the model's Problem, the plan the file carries and
// the reader's warnings, and the exporter's hold on the model as read.

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "frontends/frontend.h"
#include "frontends/input_probe.h"

namespace usmpx {

// `default_algorithm` and `reference`: the planner the model's own runtime runs and whose plan
// that is (LoadedInput); the caller adds its details, exporter and firmware role.
template <typename Analysis>
LoadedInput loaded_model(const std::string& path, InputFormat format, const Analysis& analysis,
                         std::string default_algorithm, std::string reference) {
  LoadedInput input;
  input.path = path;
  input.format = format;
  input.problem = analysis.problem;
  input.as_built = analysis.as_built;
  input.warnings = analysis.warnings;
  input.default_algorithm = std::move(default_algorithm);
  input.reference = std::move(reference);
  return input;
}

// A frontend of one kind of model file: a file named *`extension` or with the identifier
// `identified` finds in its head.
class ModelFileFrontend : public Frontend {
 public:
  ModelFileFrontend(std::string family, InputFormat format, std::string_view extension,
                    bool (*identified)(std::string_view head))
      : Frontend(std::move(family)), format_(format), extension_(extension), identified_(identified) {}

  bool recognises(InputFormat format, InputProbe& probe) const override {
    return format == format_ && probe.model_file(extension_, identified_);
  }

 private:
  InputFormat format_;
  std::string_view extension_;
  bool (*identified_)(std::string_view head);
};

// The details of a model file: its analysis.
template <typename Analysis>
class ModelFileDetails : public InputDetails {
 public:
  explicit ModelFileDetails(std::shared_ptr<const Analysis> a) : a_(std::move(a)) {}

 protected:
  std::shared_ptr<const Analysis> a_;
};

// An exporter of a model file: the analysis, the path and the bytes as they were read for it, so
// a planned copy holds exactly the model analysed.
template <typename Analysis>
class ModelFileExporter : public ModelExporter {
 public:
  ModelFileExporter(std::shared_ptr<const Analysis> a, std::string path, std::string bytes)
      : a_(std::move(a)), path_(std::move(path)), bytes_(std::move(bytes)) {}

 protected:
  std::shared_ptr<const Analysis> a_;
  std::string path_;
  std::string bytes_;
};

}  // namespace usmpx
