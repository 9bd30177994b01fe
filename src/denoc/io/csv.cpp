#include "denoc/io/csv.hpp"

#include <charconv>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <exception>
#include <functional>
#include <istream>
#include <map>
#include <mutex>
#include <ostream>
#include <stdexcept>
#include <thread>

#include "denoc/io/base_quaternion.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/number.hpp"
#include "denoc/io/output.hpp"
#include "denoc/model/model.hpp"

namespace denoc {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::size_t count_fields(std::string_view line) {
  std::size_t n = 1;
  for (char c : line)
    n += c == ',';
  return n;
}

constexpr std::size_t kFlushSize = 1 << 16;

}  // namespace

bool parse_double(std::string_view field, double& value) {
  field = trim(field);
  if (!field.empty() && field.front() == '+') {
    field.remove_prefix(1);
    if (!field.empty() && field.front() == '-') return false;  // "+-1": two signs
  }
  if (field.empty()) return false;
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, value);
  return ec == std::errc() && ptr == end && std::isfinite(value);
}

CsvReader::CsvReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

void CsvReader::fail(const std::string& what) const {
  throw InputError(name_ + ":" + std::to_string(line_number_) + ": " + what);
}

// One line into line_, without its '\n' (and a '\r' before it), at most kMaxLine bytes: a
// file without line breaks cannot take the memory. A UTF-8 byte-order mark opening the file is
// dropped.
bool CsvReader::next_line() {
  constexpr std::streamsize kChunk = 4096;
  if (!chunk_) chunk_.reset(new char[kChunk]);
  line_.clear();
  bool any = false;
  for (;;) {
    in_.getline(chunk_.get(), kChunk);
    const std::size_t stored = static_cast<std::size_t>(in_.gcount());
    if (stored == 0) {
      if (in_.bad()) fail("read error after this line");
      if (!any) return false;  // the end of the input
      break;
    }
    any = true;
    if (in_.eof()) {  // a last line without '\n'
      line_.append(chunk_.get(), stored);
      break;
    }
    if (in_.fail()) {  // the chunk is full and the line goes on
      line_.append(chunk_.get(), stored);
      in_.clear();
      if (line_.size() > kMaxLine) {
        ++line_number_;
        fail("line longer than 1 MiB (" + std::to_string(kMaxLine) + " bytes)");
      }
      continue;
    }
    line_.append(chunk_.get(), stored - 1);  // gcount counted the '\n'
    break;
  }
  ++line_number_;
  if (line_.size() > kMaxLine) {
    fail("line longer than 1 MiB (" + std::to_string(kMaxLine) + " bytes)");
  }
  if (!line_.empty() && line_.back() == '\r') line_.pop_back();
  if (line_number_ == 1 && line_.compare(0, 3, "\xEF\xBB\xBF") == 0) line_.erase(0, 3);
  return true;
}

bool CsvReader::next_nonblank_line() {
  while (next_line()) {
    if (!trim(line_).empty()) return true;
  }
  return false;
}

void CsvReader::fail_no_samples() const {
  throw InputError(name_ + ":" + std::to_string(line_number_) +
                   ": no samples: the file ends after its header");
}

const std::vector<std::string>& CsvReader::read_header(const std::vector<std::string>& names) {
  read_header(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (header_[i] == names[i]) continue;
    std::string expected;
    for (const std::string& name : names)
      expected += (expected.empty() ? "" : ",") + name;
    fail("header column " + std::to_string(i + 1) + " is '" + header_[i] + "', expected '" +
         names[i] + "' (the header must read " + expected + ")");
  }
  return header_;
}

const std::vector<std::string>& CsvReader::read_header(
    const std::vector<std::string>& names, const std::vector<std::pair<std::string, int>>& blocks) {
  read_header_line(names.size());
  std::size_t i = 0;
  for (const auto& [what, width] : blocks) {
    for (int k = 0; k < width; ++k, ++i) {
      if (i < header_.size() && header_[i] == names[i]) continue;
      const std::string found = i < header_.size() ? "'" + header_[i] + "'" : "missing";
      fail("header column " + std::to_string(i + 1) + " is " + found + ", expected '" + names[i] +
           "': " + what + " (" + std::to_string(width) + " columns, " +
           names[i - static_cast<std::size_t>(k)] + ".." +
           names[i - static_cast<std::size_t>(k) + static_cast<std::size_t>(width) - 1] +
           ") is short or misnamed");
    }
  }
  if (header_.size() != names.size()) {
    fail("header has " + std::to_string(header_.size()) + " columns, expected " +
         std::to_string(names.size()) + " (the last, " + names.back() + ", is column " +
         std::to_string(names.size()) + ")");
  }
  return header_;
}

const std::vector<std::string>& CsvReader::read_header(std::size_t columns) {
  read_header_line(columns);
  if (header_.size() != columns) {
    fail("header has " + std::to_string(header_.size()) + " columns, expected " +
         std::to_string(columns));
  }
  return header_;
}

void CsvReader::read_header_line(std::size_t columns) {
  if (!next_nonblank_line()) {
    throw InputError(name_ + ":" + std::to_string(line_number_ + 1) +
                     ": empty file, expected a header line with " + std::to_string(columns) +
                     " columns");
  }
  header_.clear();
  std::string_view rest = line_;
  for (;;) {
    const std::size_t comma = rest.find(',');
    header_.emplace_back(trim(rest.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  double number;
  if (parse_double(header_.front(), number)) {
    fail("expected a header line (e.g. t,q1,...), found numbers");
  }
}

// The row read in one pass, each field where it stands: blanks, an optional '+', the number
// (std::from_chars, which stops at the comma), blanks, then a comma or the end of the line. The
// same fields as parse_double on each field accepts; false for anything else, and next_row then
// reads the line again field by field to say what is wrong.
static bool parse_row(std::string_view line, double* row, std::size_t columns) {
  const char* p = line.data();
  const char* const end = p + line.size();
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  for (std::size_t column = 0; column < columns; ++column) {
    if (column > 0) {
      if (p == end || *p != ',') return false;
      ++p;
    }
    while (p != end && blank(*p))
      ++p;
    if (p != end && *p == '+') {
      ++p;
      if (p != end && *p == '-') return false;  // "+-1": two signs
    }
    const auto [next, ec] = std::from_chars(p, end, row[column]);
    if (ec != std::errc() || !std::isfinite(row[column])) return false;
    p = next;
    while (p != end && (blank(*p) || *p == '\r'))
      ++p;
  }
  return p == end;
}

bool CsvReader::next_row(Eigen::Ref<VecX<double>> row) {
  if (!next_nonblank_line()) return false;
  const std::size_t expected = static_cast<std::size_t>(row.size());
  if (parse_row(line_, row.data(), expected)) return check_time(row);
  std::string_view rest = line_;
  std::size_t column = 0;
  for (;;) {
    const std::size_t comma = rest.find(',');
    const std::string_view field = rest.substr(0, comma);
    if (column < expected && !parse_double(field, row[static_cast<Eigen::Index>(column)])) {
      const std::size_t found = count_fields(line_);
      if (found != expected) {
        fail("expected " + std::to_string(expected) + " columns, found " + std::to_string(found));
      }
      std::string label = "column " + std::to_string(column + 1);
      if (column < header_.size()) label += " (" + header_[column] + ")";
      fail(label + ": '" + std::string(trim(field)) + "' is not a finite number");
    }
    ++column;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (column != expected) {
    fail("expected " + std::to_string(expected) + " columns, found " + std::to_string(column));
  }
  return check_time(row);
}

bool CsvReader::check_time(const Eigen::Ref<VecX<double>>& row) {
  if (increasing_time_ && row.size() > 0) {
    if (have_time_ && !(row[0] > previous_time_)) {
      fail("t must increase from row to row (previous t = " + shortest(previous_time_) + ")");
    }
    have_time_ = true;
    previous_time_ = row[0];
  }
  return true;
}

std::vector<std::string> column_names(const std::vector<std::string>& prefixes, int n) {
  std::vector<std::string> names{"t"};
  for (const std::string& prefix : prefixes) {
    for (int i = 1; i <= n; ++i)
      names.push_back(prefix + std::to_string(i));
  }
  return names;
}

std::vector<std::string> base_column_names(const std::string& prefix) {
  if (prefix == "q")
    return {"base_x", "base_y", "base_z", "base_qx", "base_qy", "base_qz", "base_qw"};
  if (prefix == "qd") return {"base_vx", "base_vy", "base_vz", "base_wx", "base_wy", "base_wz"};
  return {"base_dvx", "base_dvy", "base_dvz", "base_dwx", "base_dwy", "base_dwz"};
}

void normalise_base_quaternion(const CsvReader& reader, Eigen::Ref<Eigen::Vector4d> quaternion,
                               std::size_t qw_column) {
  if (const auto fact = denoc::normalise_base_quaternion(quaternion))
    reader.fail("column " + std::to_string(qw_column) + " (base_qw): " + *fact);
}

StateColumns state_columns(const std::vector<std::string>& prefixes, int n, bool floating) {
  static const std::map<std::string, std::string> meaning = {
      {"q", "coordinates"}, {"qd", "rates"}, {"qdd", "accelerations"}};
  StateColumns c;
  c.names = {"t"};
  c.blocks = {{"the time", 1}};
  for (const std::string& prefix : prefixes) {
    const auto it = meaning.find(prefix);
    const std::string what = it != meaning.end() ? it->second : prefix;
    if (floating) {
      const std::vector<std::string> base = base_column_names(prefix);
      c.names.insert(c.names.end(), base.begin(), base.end());
      c.blocks.emplace_back("the block of the base's " + what, static_cast<int>(base.size()));
    }
    for (int i = 1; i <= n; ++i)
      c.names.push_back(prefix + std::to_string(i));
    c.blocks.emplace_back("the block of the joints' " + what, n);
  }
  return c;
}

namespace {

// t, then `count` values read by value(i), as one CSV line at `p`, which must have room for
// count + 1 numbers and their separators: returns the line's end.
template <typename Value>
char* write_line(char* p, double t, Eigen::Index count, Value value) {
  p = write_shortest(p, t);
  for (Eigen::Index i = 0; i < count; ++i) {
    *p++ = ',';
    p = write_shortest(p, value(i));
  }
  *p++ = '\n';
  return p;
}

}  // namespace

// The rows as numbers, a block at a time, formatted and written on a thread of their own. The
// computing thread fills `filling_` and hands it over when it is full; the formatting thread
// takes the blocks in order. Three blocks in all: one filling, one or two being formatted.
class CsvWriter::Formatter {
 public:
  using Sink = std::function<void(const char*, std::size_t)>;
  explicit Formatter(Sink sink) : sink_(std::move(sink)), blocks_(kBlocks) {
    for (Block& b : blocks_)
      b.numbers.reserve(kBlockNumbers);
    thread_ = std::thread([this] { format_blocks(); });
  }
  ~Formatter() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  // One row: t, then `count` values read by value(i).
  template <typename Value>
  void add(double t, Eigen::Index count, Value value) {
    Block& b = blocks_[static_cast<std::size_t>(filling_)];
    b.numbers.push_back(t);
    for (Eigen::Index i = 0; i < count; ++i)
      b.numbers.push_back(value(i));
    b.row_ends.push_back(b.numbers.size());
    if (b.numbers.size() >= kBlockNumbers) hand_over();
  }

  // Everything added so far formatted and written; rethrows a failure of the sink.
  void drain() {
    hand_over();
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return queued_ == 0 || error_; });
    rethrow();
  }

 private:
  static constexpr int kBlocks = 3;
  static constexpr std::size_t kBlockNumbers = 1 << 14;  // 128 KB of doubles
  struct Block {
    std::vector<double> numbers;
    std::vector<std::size_t> row_ends;  // one past each row's last number
  };

  void rethrow() {
    if (error_) std::rethrow_exception(error_);
  }

  // The filling block to the formatting thread, and the next free one to fill.
  void hand_over() {
    if (blocks_[static_cast<std::size_t>(filling_)].row_ends.empty()) return;
    std::unique_lock<std::mutex> lock(mutex_);
    ++queued_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return queued_ < kBlocks || error_; });
    rethrow();
    filling_ = (filling_ + 1) % kBlocks;
  }

  void format_blocks() {
    std::string text;
    for (int next = 0;; next = (next + 1) % kBlocks) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return stop_ || queued_ > 0; });
        if (queued_ == 0) return;  // stopped, everything written
      }
      Block& b = blocks_[static_cast<std::size_t>(next)];
      try {
        if (!error_) format(b, text);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = std::current_exception();
      }
      b.numbers.clear();
      b.row_ends.clear();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        --queued_;
      }
      changed_.notify_all();
    }
  }

  void format(const Block& b, std::string& text) {
    std::size_t begin = 0;
    for (const std::size_t end : b.row_ends) {
      const std::size_t used = text.size();
      text.resize(used + (end - begin) * (kShortestChars + 1));
      const double* row = b.numbers.data() + begin;  // t, then the values
      char* p = write_line(text.data() + used, row[0], static_cast<Eigen::Index>(end - begin - 1),
                           [row](Eigen::Index i) { return row[i + 1]; });
      text.resize(static_cast<std::size_t>(p - text.data()));
      begin = end;
      if (text.size() >= kFlushSize) {
        sink_(text.data(), text.size());
        text.clear();
      }
    }
    if (!text.empty()) sink_(text.data(), text.size());
    text.clear();
  }

  Sink sink_;
  std::vector<Block> blocks_;
  int filling_ = 0;  // the computing thread's
  std::mutex mutex_;
  std::condition_variable changed_;
  int queued_ = 0;  // blocks handed over and not yet written
  bool stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

CsvWriter::CsvWriter(std::ostream& out) : stream_(&out) {
  buffer_.reserve(kFlushSize + 4096);
}

CsvWriter::CsvWriter(Output& out) : output_(&out) {
  buffer_.reserve(kFlushSize + 4096);
}

CsvWriter::~CsvWriter() {
  try {
    flush();
  } catch (...) {
  }
}

void CsvWriter::format_in_background() {
  flush();  // the header
  if (output_) {
    formatter_ = std::make_unique<Formatter>(
        [out = output_](const char* data, std::size_t size) { out->write(data, size); });
  } else {
    formatter_ = std::make_unique<Formatter>([out = stream_](const char* data, std::size_t size) {
      out->write(data, static_cast<std::streamsize>(size));
      if (!*out) throw std::runtime_error("cannot write the CSV stream");
    });
  }
}

void CsvWriter::header(const std::vector<std::string>& names) {
  names_ = names;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) buffer_ += ',';
    buffer_ += names[i];
  }
  buffer_ += '\n';
}

void CsvWriter::non_finite(double t, std::size_t column, double value) const {
  std::string message = "at t = " + shortest(t);
  if (!source_.empty()) message += " (" + source_ + " line " + std::to_string(source_line_) + ")";
  message +=
      ": " + (column < names_.size() ? names_[column] : "column " + std::to_string(column + 1));
  message += " would be " + shortest(value);
  throw RunError(message +
                 "; a finite input made the result overflow, so the run stops before this row");
}

void CsvWriter::check_stop_signal() const {
  const int signal = pending_stop_signal();
  if (!signal || !output_) return;
  std::string message =
      std::string(signal == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)");
  if (rows_ == 0) {
    message += " before the first row";
  } else {
    message += " after row " + std::to_string(rows_) + ", t = " + shortest(last_t_);
  }
  throw Interrupted(signal, message + "; the rows up to there are in " + output_->name());
}

void CsvWriter::row(double t, const Eigen::Ref<const VecX<double>>& values) {
  if (output_ && !values.allFinite()) {
    Eigen::Index i = 0;
    while (std::isfinite(values[i]))
      ++i;
    non_finite(t, static_cast<std::size_t>(i) + 1, values[i]);
  }
  add_row(t, values.size(), [&values](Eigen::Index i) { return values[i]; });
}

void CsvWriter::matrix_row(double t, const Eigen::Ref<const MatX<double>>& values) {
  if (output_ && !values.allFinite()) {
    for (Eigen::Index i = 0; i < values.rows(); ++i) {
      for (Eigen::Index j = 0; j < values.cols(); ++j) {
        if (!std::isfinite(values(i, j))) {
          non_finite(t, static_cast<std::size_t>(i * values.cols() + j) + 1, values(i, j));
        }
      }
    }
  }
  const Eigen::Index cols = values.cols();
  add_row(t, values.size(), [&values, cols](Eigen::Index k) { return values(k / cols, k % cols); });
}

// One row, to the formatting thread or formatted here into the buffer.
template <typename Value>
void CsvWriter::add_row(double t, Eigen::Index count, Value value) {
  if (formatter_) {
    formatter_->add(t, count, value);
  } else {
    const std::size_t used = buffer_.size();
    buffer_.resize(used + static_cast<std::size_t>(count + 1) * (kShortestChars + 1));
    char* end = write_line(buffer_.data() + used, t, count, value);
    buffer_.resize(static_cast<std::size_t>(end - buffer_.data()));
    if (buffer_.size() >= kFlushSize) flush();
  }
  count_row(t);
}

// A row is done: counted, and a pending SIGINT or SIGTERM stops the run after it, everything up
// to it written.
void CsvWriter::count_row(double t) {
  ++rows_;
  last_t_ = t;
  if (pending_stop_signal()) {
    flush();
    check_stop_signal();
  }
}

void CsvWriter::flush() {
  if (formatter_) {
    formatter_->drain();
    return;
  }
  if (output_) {
    try {
      output_->write(buffer_.data(), buffer_.size());
    } catch (...) {
      buffer_.clear();  // the destructor must not try the same bytes again
      throw;
    }
    buffer_.clear();
    return;
  }
  stream_->write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  stream_->flush();
  buffer_.clear();
}

void CsvWriter::finish() {
  flush();
  if (output_) {
    output_->close();
    check_stop_signal();
  }
}

}  // namespace denoc
