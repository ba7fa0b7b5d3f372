// A variant is proven only if every property its kernel's Prepare reads is part of its key: what
// each entry's prepare and scratch rules read through TflmOp (types, quantization, ranks, shape and
// option tests that pick a code path) must be read by its key words too, on every model the tests
// know; and the path the shared ground truth lacks, CMSIS-NN's FULLY_CONNECTED on a sequence, has a
// key of its own, a scratch request derived from its Prepare and a figure that says "at least".
#include <filesystem>
#include <iterator>
#include <vector>

#include <gtest/gtest.h>

#include "frontends/tflite/kernels/tflm_kernel_registry.h"
#include "frontends/tflite/tflite_problem.h"
#include "frontends/tflite/tflite_schema.h"
#include "frontends/tflite/tflm_kernels.h"
#include "kernel_fixtures.h"
#include "planners/registry.h"
#include "refusal_fixtures.h"
#include "test_support.h"
#include "tflm_truth.h"

namespace usmpx {
namespace {

using testing::kTflmBuilds;

// The builds the keys are held in: TFLM's three, and ESP-NN on the S3 and the generic path.
const std::vector<testing::TflmBuildCase>& key_builds() {
  static const std::vector<testing::TflmBuildCase> builds = [] {
    std::vector<testing::TflmBuildCase> all(std::begin(kTflmBuilds), std::end(kTflmBuilds));
    all.push_back({"esp_nn_esp32s3", {TflmKernels::kEspNn, TflmTarget::kEsp32S3}});
    all.push_back({"esp_nn_esp32", {TflmKernels::kEspNn, TflmTarget::kEsp32}});
    return all;
  }();
  return builds;
}

const TflmKernel* kernel_of(const TfliteModel& model, const TfliteOperator& op) {
  const TfliteOperatorCode& code = model.operator_codes[op.opcode_index];
  const bool custom = code.builtin_code == tflite_schema::kCustom;
  const TflmKernel* k = tflm_kernel(custom ? code.custom_code : tflite_schema::builtin_name(code.builtin_code));
  return k && k->custom == custom ? k : nullptr;
}

// Every operator of the model, in every build: the rules read nothing their key does not.
int expect_rules_keyed(const std::string& bytes, const std::string& label) {
  const TfliteModel model = read_tflite_model(bytes, label);
  int checked = 0;
  for (const testing::TflmBuildCase& b : key_builds()) {
    for (const TfliteSubgraph& g : model.subgraphs) {
      for (const TfliteOperator& op : g.operators) {
        const TflmKernel* kernel = kernel_of(model, op);
        if (!kernel) continue;
        EXPECT_EQ(tflm_rule_reads_outside_key(*kernel, model, g, op, b.build), 0u)
            << label << " " << b.key << ": " << tflm_variant(model, g, op, b.build);
        ++checked;
      }
    }
  }
  return checked;
}

TEST(TflmKernelKeys, EveryRuleReadsOnlyWhatItsVariantKeyHoldsOnEveryModel) {
  int checked = expect_rules_keyed(testing::fully_connected_sequence_tflite(), "fully_connected_sequence");
  const std::string ops = testing::shared_path("tflite/ops/models");
  const std::string models = testing::shared_path("tflite/models");
  if (ops.empty() || models.empty()) GTEST_SKIP() << "shared data not found: tflite/ops/models, tflite/models";
  for (const std::string& folder : {ops, models}) {
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.path().extension() != ".tflite") continue;
      checked += expect_rules_keyed(read_tflite_file(entry.path().string()), entry.path().filename().string());
    }
  }
  EXPECT_GT(checked, 5 * 313);  // every operator model's operators, and the real models', in five builds
}

// A rule that branches on the output's rank, as CMSIS-NN's FULLY_CONNECTED does.
ScratchNeed rank_dependent_scratch(const TflmOp& op) {
  return op.output_rank() > 2 ? ScratchNeed{true, {64}, "batched"} : ScratchNeed{true, {}, "flat"};
}

std::string rank_key(const TflmOp& op) {
  return op.output_rank() > 2 ? "batched" : "";
}

TEST(TflmKernelKeys, ARuleReadingWhatItsKeyDoesNotIsCaught) {
  const std::string bytes = testing::fully_connected_sequence_tflite();
  const TfliteModel model = read_tflite_model(bytes, "fc.tflite");
  const TfliteSubgraph& g = model.subgraphs[0];
  TflmKernel unkeyed{.name = "FULLY_CONNECTED", .scratch = rank_dependent_scratch};
  EXPECT_EQ(tflm_rule_reads_outside_key(unkeyed, model, g, g.operators[0], {}),
            static_cast<uint32_t>(TflmKeyPart::kOutputRank));
  TflmKernel keyed = unkeyed;
  keyed.key_words = rank_key;
  EXPECT_EQ(tflm_rule_reads_outside_key(keyed, model, g, g.operators[0], {}), 0u);
}

// CMSIS-NN's FULLY_CONNECTED on a [1, 10, 128] input into [1, 10, 257] runs as a 1x1 convolution
// and requests one scratch buffer of the per-channel multipliers and shifts: 8 x 257 = 2,056 bytes
// (2,064 planned). TFLM's greedy plan then places the output (2,576) at 0, the scratch at 2,576 and
// the input (1,280) at 4,640: a head of 5,920. The reference kernels request nothing: 3,856.
TEST(TflmKernelKeys, CmsisNnFullyConnectedOnASequenceRequestsItsScratchAndIsNotClaimedExact) {
  const std::string bytes = testing::fully_connected_sequence_tflite();
  TfliteLoadOptions options;
  options.build = {TflmKernels::kCmsisNn, TflmTarget::kCortexM};
  const TfliteAnalysis cmsis = analyse_tflite(bytes, "fc_sequence.tflite", options);
  ASSERT_EQ(cmsis.operators.size(), 1u);
  ASSERT_EQ(cmsis.operators[0].scratch_buffers.size(), 1u);
  EXPECT_EQ(cmsis.problem.buffers[static_cast<size_t>(cmsis.operators[0].scratch_buffers[0])].size_bytes, 2064);
  EXPECT_EQ(run_planner(*make_planner("tflm_greedy"), cmsis.problem, {}).pool_sizes[0], 5920);
  ASSERT_EQ(cmsis.tail.operators.size(), 1u);
  EXPECT_EQ(cmsis.tail.operators[0].variant, "FULLY_CONNECTED INT8>INT8 per-tensor cmsis:batched");
  EXPECT_FALSE(cmsis.tail.exact);
  EXPECT_EQ(cmsis.tail.unproven, std::vector<std::string>{"FULLY_CONNECTED INT8>INT8 per-tensor cmsis:batched"});

  options.build = {TflmKernels::kReference, TflmTarget::kCortexM};
  const TfliteAnalysis reference = analyse_tflite(bytes, "fc_sequence.tflite", options);
  EXPECT_TRUE(reference.operators[0].scratch_buffers.empty());
  EXPECT_EQ(run_planner(*make_planner("tflm_greedy"), reference.problem, {}).pool_sizes[0], 3856);
  // The reference kernel's Prepare does not read the rank: the proven flat variant vouches for it.
  EXPECT_EQ(reference.tail.operators[0].variant, "FULLY_CONNECTED INT8>INT8 per-tensor");
  EXPECT_TRUE(reference.tail.exact);
}

}  // namespace
}  // namespace usmpx
