// Hostile and damaged programs are refused with a precise message, never read out of bounds.
#include <cstring>

#include <gtest/gtest.h>

#include "base/input_error.h"
#include "frontends/executorch/et_problem.h"
#include "test_support.h"

namespace usmpx {
namespace {

std::string refusal(const std::string& bytes) {
  try {
    analyse_et(bytes, "p.pte", PoolOptions{});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void put_u64(std::string& bytes, size_t pos, uint64_t v) {
  std::memcpy(bytes.data() + pos, &v, 8);
}

TEST(EtReader, RefusesAnotherIdentifierAndShortFiles) {
  EXPECT_EQ(refusal("abc"), "p.pte: too short for an ExecuTorch program (3 bytes)");
  EXPECT_EQ(refusal(std::string("\x10\0\0\0TFL3\0\0\0\0", 12)),
            "p.pte: not an ExecuTorch program this tool reads: the flatbuffer identifier at bytes 4..8 is 'TFL3', "
            "expected 'ET12'");
  EXPECT_EQ(refusal(std::string("\x10\0\0\0ET11\0\0\0\0", 12)),
            "p.pte: not an ExecuTorch program this tool reads: the flatbuffer identifier at bytes 4..8 is 'ET11', "
            "expected 'ET12'");
  EXPECT_TRUE(has_et_identifier(std::string("\x10\0\0\0ET11", 8)));
  EXPECT_FALSE(has_et_identifier(std::string("\x10\0\0\0TFL3", 8)));
}

TEST(EtReader, RefusesTruncatedProgramsAndOffsetsPastTheEnd) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/arduino_kws.pte");
  const std::string bytes = read_et_file(path);
  // Cut inside the segment: the extended header's segment data runs past the end.
  EXPECT_EQ(refusal(bytes.substr(0, 20000)),
            "p.pte: segment 0 (offset 0, 39216 bytes after byte 14976) lies past the end of the file (20000 bytes; "
            "truncated)");
  // Cut inside the flatbuffer.
  EXPECT_EQ(refusal(bytes.substr(0, 10000)),
            "p.pte: the extended header says the program holds 14904 bytes but the file has only 10000 (truncated)");
  // The segments said to start past the end of the file.
  std::string far = bytes;
  put_u64(far, 24, 1u << 20);
  EXPECT_EQ(refusal(far),
            "p.pte: the extended header puts the segments at byte 1048576, past the end of the file (54192 bytes; "
            "truncated)");
  // The root offset points past the program.
  std::string root = bytes;
  const uint32_t past = 1u << 24;
  std::memcpy(root.data(), &past, 4);
  EXPECT_EQ(refusal(root), "p.pte: the root offset at byte 0 points outside the program");
}

TEST(EtReader, RefusesATensorPlannedPastItsBuffer) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/arduino_add.pte");
  std::string bytes = read_et_file(path);
  // non_const_buffer_sizes [0, 32]: the 32 is the int64 after the 0; make the buffer 16 bytes.
  const std::string needle("\x00\x00\x00\x00\x00\x00\x00\x00\x20\x00\x00\x00\x00\x00\x00\x00", 16);
  const size_t at = bytes.find(needle);
  ASSERT_NE(at, std::string::npos);
  bytes[at + 8] = 16;
  EXPECT_EQ(refusal(bytes),
            "p.pte: method 'forward' value 1 lies at offset 16 (12 bytes) past the end of planned buffer 1 (16 "
            "bytes)");
}

TEST(EtReader, EveryPrefixOfARealProgramIsRefusedOrRead) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/add.pte");
  const std::string bytes = read_et_file(path);
  const EtAnalysis whole = analyse_et(bytes, "p.pte", PoolOptions{});
  int refused = 0;
  for (size_t n = 0; n < bytes.size(); ++n) {
    try {
      // A prefix that still verifies (only padding cut) must be the same program.
      const EtAnalysis a = analyse_et(bytes.substr(0, n), "p.pte", PoolOptions{});
      EXPECT_EQ(a.as_built.allocations, whole.as_built.allocations) << n;
    } catch (const InputError&) {
      ++refused;
    }
  }
  EXPECT_EQ(refused, 728);  // the root table's vtable lies at the file's end: no prefix verifies
}

}  // namespace
}  // namespace usmpx
