#include "samples.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "denoc/io/base_quaternion.hpp"
#include "denoc/io/number.hpp"
#include "denoc/model/model.hpp"

namespace denoc::python {

namespace {

std::string shape_text(const Array& a) {
  std::string text = "(";
  for (py::ssize_t d = 0; d < a.ndim(); ++d)
    text += (d ? ", " : "") + std::to_string(a.shape(d));
  return text + (a.ndim() == 1 ? ",)" : ")");
}

// Whether any of x[0..size) is an infinity or a NaN (its exponent bits all set): a branch-free
// pass that the compiler vectorizes, so that checking costs little beside the dynamics.
bool any_non_finite(const double* x, py::ssize_t size) {
  std::uint64_t exponents = 0;
  for (py::ssize_t i = 0; i < size; ++i) {
    std::uint64_t bits;
    std::memcpy(&bits, x + i, sizeof bits);
    exponents |= (~bits & 0x7ff0000000000000u) == 0 ? 1u : 0u;
  }
  return exponents != 0;
}

void check_finite(const Samples& s, bool batch) {
  const double* x = s.array.data();
  const py::ssize_t size = s.array.size();
  if (!any_non_finite(x, size)) return;
  for (py::ssize_t i = 0; i < size; ++i) {
    if (std::isfinite(x[i])) continue;
    const auto entry = std::to_string(i % s.width);
    throw InputError(std::string(s.name) + ": " +
                     (batch ? "sample " + std::to_string(i / s.width) + ", " : std::string()) +
                     "entry " + entry + " is " + shortest(x[i]) + ", not a finite number");
  }
}

}  // namespace

Shape check_samples(std::initializer_list<const Samples*> arguments) {
  Shape shape;
  const Samples* first = nullptr;
  for (const Samples* s : arguments) {
    const Array& a = s->array;
    const std::string expected = "(" + std::to_string(s->width) + ",) for one sample or (N, " +
                                 std::to_string(s->width) + ") for N samples";
    const bool fits =
        (a.ndim() == 1 && a.shape(0) == s->width) || (a.ndim() == 2 && a.shape(1) == s->width);
    if (!fits)
      throw InputError(std::string(s->name) + ": shape " + shape_text(a) + "; expected " +
                       expected);
    if (!first) {
      first = s;
      shape.batch = a.ndim() == 2;
      shape.count = shape.batch ? a.shape(0) : 1;
    } else if ((a.ndim() == 2) != shape.batch || (shape.batch && a.shape(0) != shape.count)) {
      throw InputError(std::string(s->name) + ": shape " + shape_text(a) + " does not match " +
                       first->name + "'s " + shape_text(first->array) +
                       ": give each argument one sample, or each the same N samples");
    }
    check_finite(*s, shape.batch);
  }
  return shape;
}

void normalise_base_quaternion(Eigen::Ref<VecX<double>> q, const std::string& where) {
  if (const auto fact = denoc::normalise_base_quaternion(q.segment<4>(3)))
    throw InputError(where + ": entries 3-6: " + *fact);
}

int batch_threads(const Shape& shape, int threads) {
  if (threads < 0) throw InputError("threads: " + std::to_string(threads) + " is negative");
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const py::ssize_t most = (shape.count + kSamplesPerThread - 1) / kSamplesPerThread;
  return static_cast<int>(
      std::max<py::ssize_t>(1, std::min<py::ssize_t>(threads ? threads : cores, most)));
}

py::array_t<double> rows_array(const Shape& shape, Eigen::Index width) {
  if (!shape.batch) return py::array_t<double>(static_cast<py::ssize_t>(width));
  return py::array_t<double>({shape.count, static_cast<py::ssize_t>(width)});
}

}  // namespace denoc::python
