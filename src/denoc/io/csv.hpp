// CSV in and out, as docs/csv.md fix it: a header line, then rows of numbers; input is read as
// a stream (memory does not grow with the number of rows) and numbers are written in the
// shortest form that reads back as the same double.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "denoc/model/spatial.hpp"

namespace denoc {

class CsvReader {
 public:
  // `name` is how messages call the input (a path, or "<stdin>").
  CsvReader(std::istream& in, std::string name);

  // Reads the header line and checks it has `columns` fields; throws InputError otherwise.
  const std::vector<std::string>& read_header(std::size_t columns);
  // The same, and checks the names too (docs/errors.md: right count, wrong names is an error).
  const std::vector<std::string>& read_header(const std::vector<std::string>& names);
  // The same for a header made of named blocks of columns (state_columns): the first name that
  // differs is reported with the block it belongs to, so that a short block is named as such.
  const std::vector<std::string>& read_header(
      const std::vector<std::string>& names,
      const std::vector<std::pair<std::string, int>>& blocks);

  // Reads the next data row into `row` (size = columns); false at the end of the input.
  // Blank lines are skipped. Throws InputError naming the line for a malformed row, a line
  // longer than kMaxLine, or (after require_increasing_time) a time not above the previous.
  bool next_row(Eigen::Ref<VecX<double>> row);

  // Column 0 is time, and must increase strictly from row to row (docs/errors.md).
  void require_increasing_time() { increasing_time_ = true; }

  // Throws InputError "no samples after the header" naming the file and the line.
  [[noreturn]] void fail_no_samples() const;

  // Throws InputError naming the file and the current line.
  [[noreturn]] void fail(const std::string& what) const;

  static constexpr std::size_t kMaxLine = std::size_t(1) << 20;  // 1 MiB

  long line_number() const { return line_number_; }
  // The header's fields, as read by read_header (also when it threw).
  const std::vector<std::string>& header() const { return header_; }
  const std::string& name() const { return name_; }

 private:
  bool next_nonblank_line();
  bool check_time(const Eigen::Ref<VecX<double>>& row);  // true, or InputError
  bool next_line();
  void read_header_line(std::size_t columns);

  std::istream& in_;
  std::string name_;
  std::unique_ptr<char[]> chunk_;  // for istream::getline, a line read in chunks
  std::string line_;
  long line_number_ = 0;
  std::vector<std::string> header_;
  bool increasing_time_ = false;
  bool have_time_ = false;
  double previous_time_ = 0;
};

// The header names t, then p1..pn for each prefix p in turn: {"q", "qd", "qdd"} gives the
// trajectory file's t,q1..qn,qd1..qdn,qdd1..qddn (docs/csv.md).
std::vector<std::string> column_names(const std::vector<std::string>& prefixes, int n);

// With a floating base (docs/floating-base.md) each block of the state is the base's then the
// joints': q is base_x,base_y,base_z,base_qx,base_qy,base_qz,base_qw,q1..qn; qd is
// base_vx..base_wz,qd1..qdn; qdd base_dvx..base_dwz,qdd1..qddn.
struct StateColumns {
  std::vector<std::string> names;                   // t, then every block
  std::vector<std::pair<std::string, int>> blocks;  // what each block is, and its width
};
StateColumns state_columns(const std::vector<std::string>& prefixes, int n, bool floating);
// A floating base's quaternion (x, y, z, w) read in the current row of `reader`, normalised in
// place; InputError naming the line and the column base_qw (column `qw_column`, 1-based) when its
// norm differs from 1 by more than 1e-6 (docs/floating-base.md).
void normalise_base_quaternion(const CsvReader& reader, Eigen::Ref<Eigen::Vector4d> quaternion,
                               std::size_t qw_column);
// The base's columns that come before p1..pn for the prefix p ("q", "qd" or "qdd").
std::vector<std::string> base_column_names(const std::string& prefix);

// Parses a whole field as a finite decimal double with at most one leading sign (surrounding
// spaces and tabs allowed; no hex, quotes, nan or inf: docs/errors.md); false if it is not one.
bool parse_double(std::string_view field, double& value);

class Output;

// Rows of numbers in the shortest round-trip form, buffered and written in large blocks.
// Through an Output (the apps), every write is checked, a row that would hold inf or nan is
// refused (RunError naming the time, the column and, given set_source, the input line), and a
// pending SIGINT or SIGTERM stops the run after the row (Interrupted).
class CsvWriter {
 public:
  explicit CsvWriter(std::ostream& out);
  explicit CsvWriter(Output& out);
  ~CsvWriter();  // writes what is buffered (the rows before a failure stay), errors ignored
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  void header(const std::vector<std::string>& names);
  // One row: t, then the values in order.
  void row(double t, const Eigen::Ref<const VecX<double>>& values);
  // The same for a matrix, written row-major.
  void matrix_row(double t, const Eigen::Ref<const MatX<double>>& values);
  void flush();
  // The end of a successful run: flush, then close the Output (reporting a failure).
  void finish();
  // From now on the rows are formatted and written on a second thread, handed to it as numbers a
  // block at a time, so that the thread that computes them (ridim's dynamics, rfdsim's
  // integration) spends no time on text. The checks stay on the calling thread; a failure to
  // write is reported by the next row, flush or finish. Call after the header.
  void format_in_background();
  // Messages about a non-finite row name the input `source` and the line the row was computed
  // from, set before each row (the input may be read on another thread, ahead of the rows).
  void set_source(std::string source) { source_ = std::move(source); }
  void set_source_line(long line) { source_line_ = line; }

 private:
  class Formatter;  // the second thread of format_in_background

  template <typename Value>
  void add_row(double t, Eigen::Index count, Value value);
  void count_row(double t);
  [[noreturn]] void non_finite(double t, std::size_t column, double value) const;
  void check_stop_signal() const;

  std::ostream* stream_ = nullptr;
  Output* output_ = nullptr;
  std::string buffer_;
  std::vector<std::string> names_;
  std::string source_;  // empty: none
  long source_line_ = 0;
  long rows_ = 0;  // data rows written
  double last_t_ = 0;
  std::unique_ptr<Formatter> formatter_;  // with format_in_background
};

}  // namespace denoc
