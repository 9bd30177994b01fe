// The arrays of a call from Python (docs/python.md): one sample (1-D) or N samples (2-D, a row per
// sample), C-contiguous float64 (numpy converts anything else once, when the call starts); their
// shapes and values checked with messages that name the argument; and the loop over the samples,
// run with the GIL released.
#pragma once

#include <algorithm>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <exception>
#include <initializer_list>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "denoc/io/errors.hpp"
#include "denoc/model/spatial.hpp"

namespace denoc::python {

namespace py = pybind11;

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

// One argument: its name in messages, its array, the entries of one sample.
struct Samples {
  const char* name;
  Array array;
  Eigen::Index width;

  Eigen::Map<const VecX<double>> row(py::ssize_t k) const {
    return {array.data() + k * width, width};
  }
};

// The value of `name` in a list of names; InputError "what: 'name' is not one of a, b, c".
template <typename Value>
Value find_name(const std::vector<std::pair<std::string, Value>>& names, const std::string& name,
                const std::string& what) {
  std::string known;
  for (const auto& [text, value] : names) {
    if (text == name) return value;
    known += (known.empty() ? "" : ", ") + text;
  }
  throw InputError(what + ": '" + name + "' is not one of " + known);
}

// One sample or `count` of them (`batch`).
struct Shape {
  bool batch = false;
  py::ssize_t count = 1;
};

// The arguments' common shape; InputError naming the first that is not a sample of its width, a
// batch of another length or dimension than the first's, or holds a value that is not finite.
Shape check_samples(std::initializer_list<const Samples*> arguments);

// A new array of `count` rows of `width` entries (1-D for one sample).
py::array_t<double> rows_array(const Shape& shape, Eigen::Index width);

// A floating base's coordinates q: its quaternion (entries 3-6, x y z w) scaled to unit norm, as
// ridim and rfdsim do; InputError "`where`: the base quaternion ... has norm ..." when the norm is
// off 1 by more than 1e-6 (docs/floating-base.md).
void normalise_base_quaternion(Eigen::Ref<VecX<double>> q, const std::string& where);

// How many threads evaluate a batch: `threads` (0: every core the machine has), but at most one
// per kSamplesPerThread samples, so that a small batch does not pay for starting threads.
constexpr py::ssize_t kSamplesPerThread = 32;
int batch_threads(const Shape& shape, int threads);

// The robot's workspaces locked for a call (the caller holds the GIL, which is let go while it
// waits: another thread's call on the robot computes without the GIL and must be able to finish).
inline std::unique_lock<std::mutex> lock_workspaces(std::mutex& workspaces) {
  std::unique_lock<std::mutex> lock(workspaces, std::defer_lock);
  py::gil_scoped_release release;
  lock.lock();
  return lock;
}

// evaluate(worker, k, count) for the samples k .. k + count - 1, `per_call` at a time
// (SampleQuantities' and ForwardDynamics' samples_per_call: packs of samples where they apply),
// with the GIL released; the caller holds the robot's workspaces (lock_workspaces). `workers`
// threads (the calling one and workers - 1 more) each take a contiguous share of whole packs,
// worker w its own workspace, so every sample is computed as with one thread, bit for bit. A
// RunError's message gets "sample k: " before it in a batch; a call of several samples that fails
// is evaluated again one sample at a time to find which; the failure of the first sample that
// fails is thrown.
template <typename Evaluate>
void for_each_call(const Shape& shape, int per_call, int workers, Evaluate&& evaluate) {
  py::gil_scoped_release release;
  const py::ssize_t packs = (shape.count + per_call - 1) / per_call;
  std::vector<std::exception_ptr> failures(static_cast<std::size_t>(workers));
  const auto share = [&](int worker) {
    const auto one = [&](py::ssize_t k) {
      try {
        evaluate(worker, k, 1);
      } catch (const RunError& e) {
        if (!shape.batch) throw;
        throw RunError("sample " + std::to_string(k) + ": " + e.message());
      }
    };
    const py::ssize_t first = packs * worker / workers * per_call;
    const py::ssize_t end = std::min(shape.count, packs * (worker + 1) / workers * per_call);
    try {
      for (py::ssize_t k = first; k < end; k += per_call) {
        const int count = static_cast<int>(std::min<py::ssize_t>(per_call, end - k));
        if (count == 1) {
          one(k);
          continue;
        }
        try {
          evaluate(worker, k, count);
        } catch (const RunError&) {
          for (int j = 0; j < count; ++j)
            one(k + j);
          throw;
        }
      }
    } catch (...) {
      failures[static_cast<std::size_t>(worker)] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (int worker = 1; worker < workers; ++worker)
    threads.emplace_back(share, worker);
  share(0);
  for (std::thread& thread : threads)
    thread.join();
  // The workers' shares are in the order of the samples: the first failure is the earliest.
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
}

}  // namespace denoc::python
