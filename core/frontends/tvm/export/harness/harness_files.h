#pragma once

#include <string_view>

namespace usmpx {

// Fixed files of the test harness, written for this project.
std::string_view harness_platform_c();      // TVMBackendAllocWorkspace on a static LIFO arena
std::string_view harness_host_arm_acle();   // the ACLE intrinsics TVM's arm_cpu schedules use, in C
std::string_view harness_startup_c();       // Cortex-M vector table and reset handler (semihosting exit)
std::string_view harness_makefile_rules();  // the build and run rules shared by every harness Makefile

}  // namespace usmpx
