// What TFLite Micro refuses at AllocateTensors, said before planning: one warning per operator on
// fixtures written here (a hybrid conv, a float16 DEQUANTIZE, REDUCE_PROD, custom operators,
// resource variables, a uint8 model), and none on the real models TFLM runs (../shared/tflite).
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "frontends/tflite/tflite_problem.h"
#include "frontends/tflite/tflite_schema.h"
#include "frontends/tflite/tflm_support.h"
#include "refusal_fixtures.h"
#include "test_support.h"
#include "tflite_fixture.h"

namespace usmpx {
namespace {

using testing::custom_tflite;

// The refusal warnings of analysing `bytes` for `build`, in order.
std::vector<std::string> refusals(const std::string& bytes, TflmBuild build = {}) {
  TfliteLoadOptions options;
  options.build = build;
  std::vector<std::string> out;
  for (const Diagnostic& d : analyse_tflite(bytes, "m.tflite", options).warnings) {
    if (d.code == "tflm-refuses") {
      EXPECT_EQ(d.severity, Severity::kWarning);
      out.push_back(d.message);
    }
  }
  return out;
}

const std::string kReference = "TFLM (tflite-micro 90b983c, reference kernels) refuses operator ";

TEST(TflmSupport, HybridConvolution) {
  EXPECT_EQ(refusals(testing::hybrid_conv_tflite()),
            std::vector<std::string>{kReference +
                                     "0 of subgraph 0 (CONV_2D) at AllocateTensors: hybrid model (FLOAT32 input, "
                                     "INT8 weights), and TFLM has no hybrid kernels (\"Hybrid models are not "
                                     "supported on TFLite Micro.\")"});
}

TEST(TflmSupport, DequantizeFromFloat16) {
  EXPECT_EQ(refusals(testing::float16_dequantize_tflite()),
            std::vector<std::string>{kReference +
                                     "0 of subgraph 0 (DEQUANTIZE) at AllocateTensors: its DEQUANTIZE kernel takes "
                                     "INT8 or INT16 input, not FLOAT16"});
}

TEST(TflmSupport, OperatorWithoutAKernel) {
  EXPECT_EQ(refusals(testing::reduce_prod_tflite()),
            std::vector<std::string>{kReference +
                                     "0 of subgraph 0 (REDUCE_PROD) at AllocateTensors: it has no REDUCE_PROD kernel"});
}

TEST(TflmSupport, CustomOperators) {
  EXPECT_EQ(refusals(testing::flex_add_tflite()),
            std::vector<std::string>{kReference +
                                     "0 of subgraph 0 (custom FlexAddV2) at AllocateTensors: FlexAddV2 is a "
                                     "TensorFlow operator the converter kept (Select TF ops), and TFLM has no Flex "
                                     "kernels"});
  EXPECT_EQ(refusals(custom_tflite("TensorListReserve")),
            std::vector<std::string>{kReference +
                                     "0 of subgraph 0 (custom TensorListReserve) at AllocateTensors: "
                                     "TensorListReserve is a TensorList operator (dynamic lists), and TFLM has no "
                                     "TensorList kernels"});
  EXPECT_EQ(refusals(custom_tflite("MyVendorOp")),
            std::vector<std::string>{kReference +
                                     "0 of subgraph 0 (custom MyVendorOp) at AllocateTensors unless the firmware "
                                     "registers a kernel for it (MicroMutableOpResolver::AddCustom): TFLM has no "
                                     "kernel for the custom operator MyVendorOp"});
  // The Ethos-U operator has a kernel entry: not refused, the figure assumes the firmware registers it.
  EXPECT_TRUE(refusals(custom_tflite("ethos-u")).empty());
  // TFLM's own custom operators are registered.
  EXPECT_TRUE(refusals(custom_tflite("SignalWindow")).empty());
  EXPECT_TRUE(refusals(custom_tflite("TFLite_Detection_PostProcess")).empty());
  EXPECT_TRUE(refusals(custom_tflite("CIRCULAR_BUFFER")).empty());
}

TEST(TflmSupport, ResourceVariables) {
  EXPECT_EQ(refusals(testing::var_handle_tflite()),
            std::vector<std::string>{
                kReference +
                "0 of subgraph 0 (VAR_HANDLE) at AllocateTensors unless the application creates a "
                "MicroResourceVariables store (MicroResourceVariables::Create(allocator, max_variables)) and passes "
                "it to the MicroInterpreter's constructor: the model keeps resource variables (VAR_HANDLE, "
                "READ_VARIABLE, ASSIGN_VARIABLE) (TFLM: \"VAR_HANDLE requires resource variables. Please create "
                "ResourceVariables and pass it to the interpreter.\")"});
}

// FILL's dims computed while the model runs (here a model input): TFLM fails in FILL's Prepare.
TEST(TflmSupport, FillWithDimsNotConstant) {
  EXPECT_EQ(refusals(testing::fill_dynamic_dims_tflite()),
            std::vector<std::string>{kReference +
                                     "0 of subgraph 0 (FILL) at AllocateTensors: its FILL kernel needs the output's "
                                     "dims as a constant tensor of the model; here they are computed while it runs "
                                     "(tensor 'dims')"});
}

// ARG_MAX checks its output type only in Eval: AllocateTensors passes, the first Invoke fails.
TEST(TflmSupport, ArgMaxWithAnInt64Output) {
  EXPECT_EQ(refusals(testing::arg_max_int64_tflite()),
            std::vector<std::string>{kReference +
                                     "0 of subgraph 0 (ARG_MAX) at Invoke: its ARG_MAX kernel gives INT32 output, not "
                                     "INT64 (TFLM: \"Only int32_t are supported currently, got INT64.\")"});
}

TEST(TflmSupport, LegacyUint8Model) {
  EXPECT_EQ(refusals(testing::uint8_fully_connected_tflite()),
            std::vector<std::string>{kReference +
                                     "0 of subgraph 0 (FULLY_CONNECTED) at AllocateTensors: legacy uint8 "
                                     "quantization (UINT8 input); its FULLY_CONNECTED kernel takes FLOAT32, INT8 or "
                                     "INT16 input"});
}

// One weighted layer (input, weights, bias -> output) of the given builtin and types.
std::string weighted_layer(int32_t builtin, int input, int weights, int output) {
  testing::FixtureModel m;
  m.opcodes = {{builtin, ""}};
  m.tensors = {{"input", {1, 4, 4, 2}, input, {}, false},
               {"weights", {1, 3, 3, 2}, weights, std::vector<uint8_t>(18 * 4, 1), false},
               {"bias", {2}, 2, std::vector<uint8_t>(8, 0), false},
               {"output", {1, 2, 2, 2}, output, {}, false}};
  m.operators = {{0, {0, 1, 2}, {3}}};
  m.inputs = {0};
  m.outputs = {3};
  return testing::write_fixture_tflite(m);
}

TEST(TflmSupport, WeightedLayerTypes) {
  constexpr int32_t kDepthwise = 4, kFullyConnected = 9;
  constexpr int kF32 = 0, kU8 = 3, kI16 = 7, kI8 = 9;
  EXPECT_EQ(refusals(weighted_layer(kFullyConnected, kF32, kI8, kF32)),
            std::vector<std::string>{kReference +
                                     "0 of subgraph 0 (FULLY_CONNECTED) at AllocateTensors: hybrid model (FLOAT32 "
                                     "input, INT8 weights), and TFLM has no hybrid kernels"});
  EXPECT_EQ(refusals(weighted_layer(kDepthwise, kF32, kI8, kF32)),
            std::vector<std::string>{kReference +
                                     "0 of subgraph 0 (DEPTHWISE_CONV_2D) at AllocateTensors: hybrid model (FLOAT32 "
                                     "input, INT8 weights), and TFLM has no hybrid kernels (\"Hybrid models are not "
                                     "supported on TFLite Micro.\")"});
  EXPECT_EQ(
      refusals(weighted_layer(kFullyConnected, kI8, kI8, kI16)),
      std::vector<std::string>{kReference + "0 of subgraph 0 (FULLY_CONNECTED) at AllocateTensors: its FULLY_CONNECTED "
                                            "kernel needs the output type equal to the input type (INT8 input, INT16 "
                                            "output)"});
  EXPECT_EQ(
      refusals(weighted_layer(kFullyConnected, kI16, kI16, kI16)),
      std::vector<std::string>{kReference + "0 of subgraph 0 (FULLY_CONNECTED) at AllocateTensors: its FULLY_CONNECTED "
                                            "kernel does not take INT16 input with INT16 weights"});
  // What TFLM takes: int8, int16 activations with int8 weights, float.
  EXPECT_TRUE(refusals(weighted_layer(kFullyConnected, kI8, kI8, kI8)).empty());
  EXPECT_TRUE(refusals(weighted_layer(kFullyConnected, kI16, kI8, kI16)).empty());
  EXPECT_TRUE(refusals(weighted_layer(kFullyConnected, kF32, kF32, kF32)).empty());
  // DEPTHWISE_CONV_2D's Prepare lets uint8 through (its Eval refuses it later): not reported.
  EXPECT_TRUE(refusals(weighted_layer(kDepthwise, kU8, kU8, kU8)).empty());
}

// One operator of the given builtin from a tensor of type `input` to one of type `output`.
std::string unary(int32_t builtin, int input, int output) {
  testing::FixtureModel m;
  m.opcodes = {{builtin, ""}};
  m.tensors = {{"x", {1, 4, 4, 2}, input, {}, false}, {"y", {1, 4, 4, 2}, output, {}, false}};
  m.operators = {{0, {0}, {1}}};
  m.inputs = {0};
  m.outputs = {1};
  return testing::write_fixture_tflite(m);
}

TEST(TflmSupport, SoftmaxAndPoolingTypes) {
  constexpr int32_t kAveragePool = 1, kMaxPool = 17, kSoftmax = 25, kAdd = 0;
  constexpr int kF32 = 0, kI32 = 2, kU8 = 3, kI16 = 7, kI8 = 9;
  const std::string pairs = "FLOAT32 to FLOAT32, INT8 to INT8, INT8 to INT16 or INT16 to INT16";
  EXPECT_EQ(refusals(unary(kSoftmax, kU8, kU8)),
            std::vector<std::string>{kReference +
                                     "0 of subgraph 0 (SOFTMAX) at AllocateTensors: legacy uint8 quantization (UINT8 "
                                     "input); its SOFTMAX kernel takes " +
                                     pairs});
  EXPECT_EQ(
      refusals(unary(kSoftmax, kI8, kF32)),
      std::vector<std::string>{kReference + "0 of subgraph 0 (SOFTMAX) at AllocateTensors: its SOFTMAX kernel takes " +
                               pairs + ", not INT8 to FLOAT32"});
  EXPECT_TRUE(refusals(unary(kSoftmax, kI8, kI16)).empty());
  EXPECT_TRUE(refusals(unary(kSoftmax, kF32, kF32)).empty());
  EXPECT_EQ(refusals(unary(kMaxPool, kU8, kU8)),
            std::vector<std::string>{kReference +
                                     "0 of subgraph 0 (MAX_POOL_2D) at AllocateTensors: legacy uint8 quantization "
                                     "(UINT8 input); its MAX_POOL_2D kernel takes FLOAT32, INT8 or INT16 input"});
  EXPECT_EQ(refusals(unary(kAveragePool, kI32, kI32)),
            std::vector<std::string>{kReference +
                                     "0 of subgraph 0 (AVERAGE_POOL_2D) at AllocateTensors: its AVERAGE_POOL_2D kernel "
                                     "takes FLOAT32, INT8 or INT16 input, not INT32"});
  EXPECT_TRUE(refusals(unary(kAveragePool, kI8, kI8)).empty());
  // ADD checks its types only when it runs (Invoke), not in Prepare: not reported.
  EXPECT_TRUE(refusals(unary(kAdd, kU8, kU8)).empty());
}

TEST(TflmSupport, TheKernelSetIsNamed) {
  TflmBuild cmsis;
  cmsis.kernels = TflmKernels::kCmsisNn;
  EXPECT_EQ(refusals(testing::reduce_prod_tflite(), cmsis),
            std::vector<std::string>{"TFLM (tflite-micro 90b983c, CMSIS-NN kernels) refuses operator 0 of subgraph 0 "
                                     "(REDUCE_PROD) at AllocateTensors: it has no REDUCE_PROD kernel"});
  EXPECT_EQ(to_string(TflmKernels::kCmsisNn), "cmsis_nn");
  EXPECT_EQ(to_string(TflmKernels::kReference), "reference");
  EXPECT_EQ(to_string(TflmTarget::kCortexM), "cortex-m");
  EXPECT_EQ(to_string(TflmTarget::kX86_64), "x86-64");
}

TEST(TflmSupport, BuiltinKernelTable) {
  namespace sc = tflite_schema;
  // Every name in the table is a schema name: 99 of the schema's builtins have a kernel (the ground
  // truth of ../shared/tflite/ops holds every one of them; REDUCE_ALL is not among them).
  int with_kernel = 0;
  for (int32_t code = 0; code < 400; ++code) {
    const bool reference = tflm_has_builtin_kernel(code, TflmKernels::kReference);
    EXPECT_EQ(reference, tflm_has_builtin_kernel(code, TflmKernels::kCmsisNn)) << code;
    with_kernel += reference ? 1 : 0;
  }
  EXPECT_EQ(with_kernel, 99);
  EXPECT_FALSE(tflm_has_builtin_kernel(140, TflmKernels::kReference));  // REDUCE_ALL
  EXPECT_TRUE(tflm_has_builtin_kernel(40, TflmKernels::kReference));    // MEAN
  EXPECT_TRUE(tflm_has_builtin_kernel(142, TflmKernels::kReference));   // VAR_HANDLE
  EXPECT_FALSE(tflm_has_builtin_kernel(81, TflmKernels::kReference));   // REDUCE_PROD
  EXPECT_FALSE(tflm_has_builtin_kernel(16, TflmKernels::kReference));   // LSTM (not the sequence one)
  EXPECT_FALSE(tflm_has_builtin_kernel(sc::kCall, TflmKernels::kReference));
  EXPECT_FALSE(tflm_has_builtin_kernel(sc::kCustom, TflmKernels::kReference));
  EXPECT_FALSE(tflm_has_custom_kernel("ethos-u"));
  EXPECT_TRUE(tflm_has_custom_kernel("SignalRfft"));
}

// The real models: those TFLM runs (tflm_arena.json) get no refusal in any of the three builds;
// person_detect_vela, which TFLM refuses, gets exactly the Ethos-U one.
TEST(TflmSupport, RealModelsTflmRunsAreNotRefused) {
  const std::string json = testing::shared_path("tflite/tflm_arena.json");
  if (json.empty()) GTEST_SKIP() << "shared data not found: tflite/tflm_arena.json";
  std::ifstream in(json);
  const auto arena = nlohmann::json::parse(in);
  const std::vector<std::pair<std::string, TflmBuild>> builds = {
      {"reference_cortex_m4", {TflmKernels::kReference, TflmTarget::kCortexM}},
      {"cmsis_nn_cortex_m4", {TflmKernels::kCmsisNn, TflmTarget::kCortexM}},
      {"reference_x86_64", {TflmKernels::kReference, TflmTarget::kX86_64}}};
  int running = 0;
  int refused = 0;
  for (const auto& [name, entry] : arena["models"].items()) {
    const std::string path = testing::shared_path("tflite/models/" + name + ".tflite");
    ASSERT_FALSE(path.empty()) << name;
    const std::string bytes = read_tflite_file(path);
    for (const auto& [key, build] : builds) {
      SCOPED_TRACE(name + " " + key);
      const std::vector<std::string> found = refusals(bytes, build);
      if (entry[key]["runs"].get<bool>()) {
        EXPECT_TRUE(found.empty()) << found.front();
        running += key == "reference_cortex_m4" ? 1 : 0;
        continue;
      }
      // TFLM's builds here lack the Ethos-U kernel ("Failed to get registration from op code CUSTOM");
      // the tool's figure is for a firmware that registers it, and says so instead of refusing.
      ++refused;
      EXPECT_EQ(name, "person_detect_vela");
      EXPECT_TRUE(found.empty()) << found.front();
      TfliteLoadOptions options;
      options.build = build;
      const TfliteAnalysis a = analyse_tflite(bytes, path, options);
      ASSERT_EQ(a.tail.assumptions.size(), 1u);
      EXPECT_EQ(a.tail.assumptions[0],
                "the firmware registers the Ethos-U kernel (MicroMutableOpResolver::AddEthosU, a TFLM build with "
                "CO_PROCESSOR=ethos_u)");
    }
  }
  EXPECT_EQ(running, 11);
  EXPECT_EQ(refused, 3);  // person_detect_vela in each build
}

}  // namespace
}  // namespace usmpx
