// Reading and computing at once: rows of an input read into blocks on a second thread, a few
// blocks ahead of the thread that computes and writes them, which takes them in input order.
// Memory is a fixed number of blocks whatever the length of the input (docs/ridim.md).
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace denoc {

// Rows read from an input: `rows` rows of `stride` values, row-major, and the input line of each.
struct RowBlock {
  std::vector<double> values;
  std::vector<long> lines;
  int rows = 0;
  double fraction = -1;      // the fraction of the input read after this block, when known
  std::exception_ptr error;  // the reading stopped after these rows with this error
  bool last = false;         // no block comes after this one
  int stride = 0;
};

class BlockReader {
 public:
  // Reads one row into `row` (`stride` values) and its line into `line`; false at the end.
  using ReadRow = std::function<bool(double* row, long& line)>;
  // The fraction of the input read so far, or a negative number when unknown.
  using Fraction = std::function<double()>;

  // Starts reading at once. `read` and `fraction` run on the reading thread only.
  BlockReader(int columns, int rows_per_block, ReadRow read, Fraction fraction = nullptr);
  // Stops the reading thread (after the row it is reading) and waits for it.
  ~BlockReader();
  BlockReader(const BlockReader&) = delete;
  BlockReader& operator=(const BlockReader&) = delete;

  // The next block in input order (the block of the previous call is given back), or nullptr
  // after the last. A block whose `error` is set is the last; its rows come before the error.
  const RowBlock* next();

 private:
  static constexpr int kDepth = 4;  // blocks in memory: being read, waiting, being computed
  void read_blocks();
  void fill(RowBlock& block);

  ReadRow read_;
  Fraction fraction_;
  std::vector<RowBlock> blocks_;
  int rows_per_block_;
  std::mutex mutex_;
  std::condition_variable changed_;
  int filled_ = 0;        // blocks read and not yet given back
  int produced_ = 0;      // blocks read in all (index modulo kDepth)
  int consumed_ = 0;      // blocks taken by next()
  bool holding_ = false;  // next() has a block out
  bool stop_ = false;
  bool done_ = false;  // the last block has been taken
  std::thread thread_;
};

}  // namespace denoc
