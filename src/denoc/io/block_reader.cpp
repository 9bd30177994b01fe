#include "denoc/io/block_reader.hpp"

namespace denoc {

BlockReader::BlockReader(int columns, int rows_per_block, ReadRow read, Fraction fraction)
    : read_(std::move(read)),
      fraction_(std::move(fraction)),
      blocks_(kDepth),
      rows_per_block_(rows_per_block) {
  for (RowBlock& b : blocks_) {
    b.values.resize(static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows_per_block));
    b.lines.resize(static_cast<std::size_t>(rows_per_block));
    b.stride = columns;
  }
  thread_ = std::thread([this] { read_blocks(); });
}

BlockReader::~BlockReader() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

// Rows into `block` until it is full, the input ends, or reading fails (the error kept for the
// computing thread, which meets it after the rows before it).
void BlockReader::fill(RowBlock& block) {
  block.rows = 0;
  block.error = nullptr;
  block.last = false;
  try {
    while (block.rows < rows_per_block_) {
      double* row = block.values.data() + static_cast<std::ptrdiff_t>(block.rows) * block.stride;
      if (!read_(row, block.lines[static_cast<std::size_t>(block.rows)])) {
        block.last = true;
        break;
      }
      ++block.rows;
    }
  } catch (...) {
    block.error = std::current_exception();
    block.last = true;
  }
  block.fraction = fraction_ ? fraction_() : -1;
}

void BlockReader::read_blocks() {
  for (;;) {
    RowBlock* block = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return stop_ || filled_ < kDepth; });
      if (stop_) return;
      block = &blocks_[static_cast<std::size_t>(produced_ % kDepth)];
    }
    fill(*block);  // outside the lock: the computing thread goes on meanwhile
    const bool last = block->last;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++produced_;
      ++filled_;
    }
    changed_.notify_all();
    if (last) return;
  }
}

const RowBlock* BlockReader::next() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (holding_) {  // the block of the previous call, given back
    holding_ = false;
    --filled_;
    ++consumed_;
    changed_.notify_all();
    if (blocks_[static_cast<std::size_t>((consumed_ - 1) % kDepth)].last) done_ = true;
  }
  if (done_) return nullptr;
  changed_.wait(lock, [this] { return filled_ > 0; });
  holding_ = true;
  return &blocks_[static_cast<std::size_t>(consumed_ % kDepth)];
}

}  // namespace denoc
