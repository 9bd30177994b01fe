// Test inputs kept as files under tests/fixtures/ (DENOC_TEST_FIXTURES, set by
// tests/CMakeLists.txt), so that one robot is written once and a reader can open it in an editor or
// pass it to the apps.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace denoc_test {

// The text of tests/fixtures/<name>; throws when it cannot be read (a test must not run on an
// empty robot).
inline std::string fixture_text(const std::string& name) {
  const std::string path = std::string(DENOC_TEST_FIXTURES) + "/" + name;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read test fixture " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace denoc_test
