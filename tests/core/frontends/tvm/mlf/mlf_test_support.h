#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "model/problem.h"

namespace usmpx::testing {

// A buffer's conflict list as sorted names (the order of TVM's lists follows pointer hashing).
inline std::vector<std::string> conflict_names(const Problem& p, const std::string& buffer) {
  std::vector<std::string> out;
  const auto b = p.find_buffer(buffer);
  if (!b) {
    ADD_FAILURE() << "no buffer " << buffer;
    return out;
  }
  for (int c : p.buffers[static_cast<size_t>(*b)].conflicts)
    out.push_back(p.buffers[static_cast<size_t>(c)].name);
  std::sort(out.begin(), out.end());
  return out;
}

inline const Buffer& buffer_named(const Problem& p, const std::string& name) {
  const auto b = p.find_buffer(name);
  if (!b) throw std::runtime_error("no buffer " + name);
  return p.buffers[static_cast<size_t>(*b)];
}

inline std::vector<std::string> buffer_names(const Problem& p) {
  std::vector<std::string> out;
  for (const Buffer& b : p.buffers)
    out.push_back(b.name);
  return out;
}

using Names = std::vector<std::string>;

}  // namespace usmpx::testing
