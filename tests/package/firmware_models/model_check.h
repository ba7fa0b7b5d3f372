// The run-time half of the consumer test: the array's bytes against the planned model file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

inline bool same_as_file(const unsigned char* data, unsigned int length, const char* path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    std::printf("cannot read %s\n", path);
    return false;
  }
  if (bytes.size() != length || std::memcmp(bytes.data(), data, length) != 0) {
    std::printf("the array (%u bytes) differs from %s (%zu bytes)\n", length, path, bytes.size());
    return false;
  }
  if (reinterpret_cast<std::uintptr_t>(data) % 16 != 0) {
    std::printf("the array of %s is not 16-byte aligned\n", path);
    return false;
  }
  return true;
}
