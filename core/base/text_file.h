#pragma once

#include <cstdint>
#include <string>

namespace usmpx {

// Largest text input read whole into memory.
inline constexpr uint64_t kMaxTextInputBytes = 512ull << 20;

// Reads a whole file; throws InputError naming the file when it cannot be read or is too large.
std::string read_text_file(const std::string& path, uint64_t max_bytes = kMaxTextInputBytes);

// The system's words for error number `err` (strerror), or "no reason given by the system" when
// `err` is 0: an error text is never built from a zero errno ("Success").
std::string system_error_text(int err);

// Writes through a temporary file in the same folder and renames it over `path`, so readers
// never see a partial file. Throws std::runtime_error naming the path and the cause on failure.
void write_file_atomically(const std::string& path, const std::string& contents);

}  // namespace usmpx
