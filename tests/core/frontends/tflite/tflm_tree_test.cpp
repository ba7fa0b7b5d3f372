// Recognising a firmware's TFLM version from its source tree: test trees written for this
// project (tests/fixtures/tflm_trees) that mimic each version's telltale facts, a tree missing
// facts and one whose facts fit no known version.
#include <gtest/gtest.h>

#include "base/config_error.h"
#include "frontends/tflite/tflm_tree.h"
#include "test_support.h"

namespace usmpx {
namespace {

std::string tree(const std::string& name) {
  return testing::fixture_path("tflm_trees/" + name);
}

TEST(TflmTree, EachVersionsTelltaleFactsAreRecognised) {
  for (const TflmVersionInfo& v : tflm_versions()) {
    SCOPED_TRACE(std::string(v.name));
    const TflmTreeVersion r = recognise_tflm_tree(tree(std::string(v.name)));
    ASSERT_TRUE(r.version.has_value()) << r.summary;
    EXPECT_EQ(*r.version, v.version);
    ASSERT_EQ(r.facts.size(), 4u);
    for (const TflmTreeFact& f : r.facts)
      EXPECT_TRUE(f.found) << f.name << ": " << f.value;
  }
}

TEST(TflmTree, EachFactSaysWhatTheSourceShowsAndWhichVersionsItFits) {
  const TflmTreeVersion r = recognise_tflm_tree(tree("2024-05-29"));
  ASSERT_EQ(r.facts.size(), 4u);
  EXPECT_EQ(r.facts[0].value,
            "registers BATCH_MATMUL, EMBEDDING_LOOKUP of the telltale builtins; lacks DYNAMIC_UPDATE_SLICE, "
            "REDUCE_MIN, REVERSE_V2");
  EXPECT_EQ(r.facts[0].versions, (std::vector<TflmVersion>{TflmVersion::k2024_05_29, TflmVersion::k2025_02_07}));
  EXPECT_EQ(r.facts[1].value, "OpDataFullyConnected holds no per-channel arrays (36 B)");
  EXPECT_EQ(r.facts[1].versions, (std::vector<TflmVersion>{TflmVersion::k2023_06_30, TflmVersion::k2024_05_29}));
  // The declaration and the call of PrepareMeanOrSum are not its definition.
  EXPECT_EQ(r.facts[2].value, "PrepareMeanOrSum requests 1 scratch buffer(s)");
  EXPECT_EQ(r.facts[2].file, "tensorflow/lite/micro/kernels/reduce_common.cc");
  EXPECT_EQ(r.facts[3].value, "3 AllocatePersistentBuffer call(s)");
  EXPECT_EQ(r.summary.rfind("2024-05-29 (the builtins MicroMutableOpResolver registers: ", 0), 0u) << r.summary;
}

TEST(TflmTree, ATreeWithoutItsKernelsCannotTellAndNamesTheMissingFacts) {
  const TflmTreeVersion r = recognise_tflm_tree(tree("facts_missing"));
  EXPECT_FALSE(r.version.has_value());
  EXPECT_EQ(
      r.summary,
      "cannot tell: missing FULLY_CONNECTED's op data (no tensorflow/lite/micro/kernels/fully_connected.h); "
      "MEAN/SUM's scratch requests (no tensorflow/lite/micro/kernels/reduce_common.cc); CONCATENATION's persistent "
      "buffers (no tensorflow/lite/micro/kernels/concatenation.cc); found the builtins MicroMutableOpResolver "
      "registers: registers BATCH_MATMUL, EMBEDDING_LOOKUP of the telltale builtins; lacks "
      "DYNAMIC_UPDATE_SLICE, REDUCE_MIN, REVERSE_V2 (2024-05-29, 2025-02-07); fits 2024-05-29, 2025-02-07");
}

TEST(TflmTree, FactsThatFitNoKnownVersionCannotTell) {
  const TflmTreeVersion r = recognise_tflm_tree(tree("no_known_version"));
  EXPECT_FALSE(r.version.has_value());
  EXPECT_NE(r.summary.find("(90b983c)"), std::string::npos) << r.summary;
  EXPECT_NE(r.summary.find("(2023-06-30, 2024-05-29)"), std::string::npos) << r.summary;
  EXPECT_NE(r.summary.find("the facts found fit no one known version"), std::string::npos) << r.summary;
}

TEST(TflmTree, TheVersionForLoadingComesFromTheTreeOrRefusesToGuess) {
  std::string said;
  EXPECT_EQ(tflm_version_from_tree(tree("2025-02-07"), "", &said), "2025-02-07");
  EXPECT_EQ(said.rfind("TFLM tree " + tree("2025-02-07") + ": its kernels are TFLM 2025-02-07 (", 0), 0u) << said;
  EXPECT_EQ(tflm_version_from_tree(tree("2025-02-07"), "2025-02-07", nullptr), "2025-02-07");
  EXPECT_EQ(tflm_version_from_tree("", "2023-06-30", &said), "2023-06-30");
  EXPECT_EQ(said, "");
  try {
    tflm_version_from_tree(tree("2025-02-07"), "2024-05-29", nullptr);
    ADD_FAILURE() << "a tree and a version that disagree";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("shows TFLM 2025-02-07, not --tflm-version 2024-05-29"), std::string::npos)
        << e.what();
  }
  try {
    tflm_version_from_tree(tree("facts_missing"), "", nullptr);
    ADD_FAILURE() << "a tree that cannot tell";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot tell: missing FULLY_CONNECTED's op data"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("name the version with --tflm-version"), std::string::npos) << e.what();
  }
  EXPECT_THROW(recognise_tflm_tree(testing::fixture_path("tflm_trees")), ConfigError);
}

}  // namespace
}  // namespace usmpx
