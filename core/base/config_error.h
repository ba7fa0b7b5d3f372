#pragma once

#include <stdexcept>

namespace usmpx {

// A user-supplied setting (command-line option, pin, pool edit) that cannot be applied.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace usmpx
