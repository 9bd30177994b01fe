// libFuzzer harness for the robot-file loader (parse_robot_file, docs/robot-file.md and
// docs/errors.md): any text must either load or be refused with InputError; anything else (a crash,
// another exception, memory or undefined-behaviour errors found by the sanitizers it is built with)
// is a finding. Built and run by scripts/check (tests/fuzz/CMakeLists.txt).
#include <cstddef>
#include <cstdint>
#include <string>

#include "denoc/io/errors.hpp"
#include "denoc/io/robot_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const denoc::RobotFile robot = denoc::parse_robot_file(text, "fuzz.yaml");
    // What was accepted must be usable: a chain with as many joints as links.
    if (robot.dof() != static_cast<int>(robot.dh.size())) __builtin_trap();
  } catch (const denoc::InputError&) {
  }
  return 0;
}
