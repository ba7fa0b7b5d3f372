#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "base/config_error.h"
#include "base/input_error.h"
#include "session/edit_history.h"
#include "session/session_edits.h"
#include "session/session_file.h"

namespace usmpx {
namespace {

// Base: global_workspace (a, b), flash (constant w); a pinned at 64 by the input.
Problem base_problem() {
  Problem p;
  p.pools.push_back(Pool{.name = "global_workspace", .internal = true});
  p.pools.push_back(Pool{.name = "flash", .kind = PoolKind::kConstant});
  p.buffers.push_back(Buffer{.name = "a", .size_bytes = 8, .pool_candidates = {0}, .pin = Pin{0, 64}});
  p.buffers.push_back(Buffer{.name = "b", .size_bytes = 8, .pool_candidates = {0}});
  p.buffers.push_back(Buffer{.name = "w", .size_bytes = 4, .kind = BufferKind::kConstant, .pool_candidates = {1}});
  return p;
}

TEST(SessionEdits, InitialEditsLeaveTheProblemUnchanged) {
  const Problem base = base_problem();
  EXPECT_EQ(apply_edits(base, initial_edits(base, "hill_climb")), base);
}

TEST(SessionEdits, AddedRenamedAndReorderedPoolsBecomeCandidates) {
  const Problem base = base_problem();
  SessionEdits edits = initial_edits(base, "greedy_by_size");
  edits.pools[0].pool.name = "sram";  // renamed, still stems from global_workspace
  edits.pools.insert(edits.pools.begin(), PoolSetting{Pool{.name = "dtcm", .size_hint_bytes = 16}, ""});
  const Problem p = apply_edits(base, edits);
  ASSERT_EQ(p.pools.size(), 3u);
  EXPECT_EQ(p.buffers[1].pool_candidates, (std::vector<int>{0, 1}));  // dtcm preferred, then sram
  EXPECT_EQ(p.buffers[2].pool_candidates, std::vector<int>{2});       // constants only in flash
  EXPECT_EQ(p.buffers[0].pin, (Pin{1, 64}));                          // the input's pin follows the rename
}

TEST(SessionEdits, PinsOverrideAndErrors) {
  const Problem base = base_problem();
  SessionEdits edits = initial_edits(base, "greedy_by_size");
  edits = with_pin(edits, "a", PinSpec{"", "global_workspace", std::nullopt});
  edits = with_pin(edits, "b", PinSpec{"", "global_workspace", 128});
  Problem p = apply_edits(base, edits);
  EXPECT_EQ(p.buffers[0].pin, (Pin{0, std::nullopt}));
  EXPECT_EQ(p.buffers[1].pin, (Pin{0, 128}));
  ASSERT_NE(find_pin(edits, "b"), nullptr);
  edits = with_pin(edits, "b", std::nullopt);
  EXPECT_EQ(find_pin(edits, "b"), nullptr);
  EXPECT_THROW(apply_edits(base, with_pin(edits, "w", PinSpec{"", "global_workspace", std::nullopt})), ConfigError);
  EXPECT_THROW(apply_edits(base, with_pin(edits, "zz", PinSpec{"", "global_workspace", std::nullopt})), ConfigError);
  SessionEdits twins = initial_edits(base, "greedy_by_size");
  twins.pools[1].pool.name = "global_workspace";
  EXPECT_THROW(apply_edits(base, twins), ConfigError);
}

TEST(EditHistory, UndoRedoAndCleanState) {
  SessionEdits start;
  start.algorithm = "greedy_by_size";
  EditHistory history(start);
  EXPECT_TRUE(history.is_clean());
  SessionEdits next = start;
  next.algorithm = "hill_climb";
  history.push("Use hill_climb", next);
  history.push("no-op", next);  // equal states are not recorded
  EXPECT_FALSE(history.is_clean());
  EXPECT_EQ(history.undo_text(), "Use hill_climb");
  history.undo();
  EXPECT_EQ(history.current().algorithm, "greedy_by_size");
  EXPECT_TRUE(history.is_clean());
  EXPECT_FALSE(history.can_undo());
  history.redo();
  EXPECT_EQ(history.current().algorithm, "hill_climb");
  history.mark_saved();
  history.undo();
  SessionEdits other = start;
  other.time_limit_seconds = 1;
  history.push("Time limit", other);  // the saved state is now unreachable
  EXPECT_FALSE(history.can_redo());
  EXPECT_FALSE(history.is_clean());
  history.undo();
  EXPECT_FALSE(history.is_clean());
}

TEST(SessionFile, RoundTripAndRelativeInput) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "usmpx_session_test";
  fs::create_directories(dir / "models");
  const fs::path model = dir / "models" / "m.json";
  { std::ofstream(model) << "{}"; }
  SessionFile session;
  session.input = model.string();
  session.module = "default";
  session.edits = initial_edits(base_problem(), "hill_climb");
  session.edits.pools[0].pool.section = ".sram_bss";
  session.edits.pools.push_back({Pool{.name = "dtcm", .size_hint_bytes = 4096}, ""});
  session.edits.pins = {{"a", "dtcm", 32}, {"b", "global_workspace", std::nullopt}};
  session.edits.time_limit_seconds = 2.5;
  session.view.column_widths = {{"Pool", 212}, {"Buffer", 90}};
  session.runtime_version = "2024-05-29";
  const std::string path = (dir / "s.usmpx.json").string();
  const std::string text = write_session_json(session, path);
  EXPECT_NE(text.find("\"input_relative\": \"models/m.json\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"runtime_version\": \"2024-05-29\""), std::string::npos) << text;
  EXPECT_EQ(read_session_json(text, path), session);
  // The absolute path is gone but the model sits next to the session: the relative one wins.
  std::string moved = text;
  moved.replace(moved.find(model.string()), model.string().size(), "/nowhere/m.json");
  EXPECT_EQ(read_session_json(moved, path).input, model.string());
  fs::remove_all(dir);
}

TEST(SessionFile, ErrorsHavePositions) {
  try {
    read_session_json(
        "{\"format\": \"usmpx-session\", \"version\": 1, \"input\": \"x\",\n \"pools\": [], \"pins\": [{\"buffer\": "
        "3}]}",
        "s.usmpx.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "s.usmpx.json:2:35: \"buffer\" must be a string");
  }
}

TEST(SessionFile, ColumnWidthsAreCheckedAndOptional) {
  const std::string head =
      "{\"format\": \"usmpx-session\", \"version\": 1, \"input\": \"x\", \"pools\": [], \"pins\": []";
  EXPECT_TRUE(read_session_json(head + "}", "s.usmpx.json").view.column_widths.empty());
  const SessionFile read =
      read_session_json(head + ", \"view\": {\"columns\": [{\"column\": \"Kind\", \"width\": 120}]}}", "s.usmpx.json");
  EXPECT_EQ(read.view.column_widths, (std::vector<std::pair<std::string, int>>{{"Kind", 120}}));
  try {
    read_session_json(head + ", \"view\": {\"columns\": [{\"column\": \"Kind\", \"width\": 0}]}}", "s.usmpx.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("width must be 1 to 10000 pixels"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace usmpx
