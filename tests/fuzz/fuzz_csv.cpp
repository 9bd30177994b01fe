// libFuzzer harness for the CSV readers (docs/csv.md, docs/command-line.md and docs/errors.md): the
// first byte chooses the reader (bit 0: ridim's trajectory reader, or rfdsim's torque file through
// SampledForces) and the number of joints (bits 1-2: 1 to 4); the rest is the file. Any text must
// be read or refused with InputError naming the file and a line; every value read must be finite
// and the times strictly increasing. Built and run by scripts/check (tests/fuzz/CMakeLists.txt).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

#include "denoc/io/csv.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/simulation/sampled_forces.hpp"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

// A message names the file and, after it, a line: "in.csv:N: ...".
void check_message(const denoc::InputError& e) {
  const std::string message = e.what();
  check(message.rfind("in.csv:", 0) == 0);
  check(message.size() > 7 && message[7] >= '1' && message[7] <= '9');
}

void trajectory(std::istream& in, int n) {
  denoc::CsvReader reader(in, "in.csv");
  reader.read_header(denoc::column_names({"q", "qd", "qdd"}, n));
  reader.require_increasing_time();
  denoc::VecX<double> row(1 + 3 * n);
  double previous = -std::numeric_limits<double>::infinity();
  while (reader.next_row(row)) {
    check(row.allFinite());
    check(row[0] > previous);
    previous = row[0];
  }
}

void torques(std::istream& in, int n) {
  denoc::SampledForces forces(in, "in.csv", n);
  denoc::VecX<double> tau(n);
  // Walk through time as the integrator does: kinks, values, releases.
  double t = 0;
  for (int k = 0; k < 64; ++k) {
    const double kink = forces.next_kink(t);
    forces.at(t, tau);
    check(tau.allFinite());
    forces.release_before(t);
    if (!std::isfinite(kink)) break;
    check(kink > t);
    t = kink;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int n = 1 + ((data[0] >> 1) & 3);
  std::istringstream in(std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  try {
    if (data[0] & 1) {
      torques(in, n);
    } else {
      trajectory(in, n);
    }
  } catch (const denoc::InputError& e) {
    check_message(e);
  }
  // parse_double on its own: what it accepts is a finite number.
  double value = 0;
  if (denoc::parse_double(std::string_view(reinterpret_cast<const char*>(data), size), value)) {
    check(std::isfinite(value));
  }
  return 0;
}
