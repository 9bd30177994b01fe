// CSV in and out, as spec §2-§3 fix it: a header line, then rows of numbers; input is read as
// a stream (memory does not grow with the number of rows) and numbers are written in the
// shortest form that reads back as the same double.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "denoc/model/spatial.hpp"

namespace denoc {

class CsvReader {
 public:
  // `name` is how messages call the input (a path, or "<stdin>").
  CsvReader(std::istream& in, std::string name);

  // Reads the header line and checks it has `columns` fields; throws InputError otherwise.
  const std::vector<std::string>& read_header(std::size_t columns);

  // Reads the next data row into `row` (size = columns); false at the end of the input.
  // Blank lines are skipped. Throws InputError naming the line for a malformed row.
  bool next_row(Eigen::Ref<VecX<double>> row);

  long line_number() const { return line_number_; }
  const std::string& name() const { return name_; }

 private:
  bool next_nonblank_line();
  [[noreturn]] void fail(const std::string& what) const;

  std::istream& in_;
  std::string name_;
  std::string line_;
  long line_number_ = 0;
  std::vector<std::string> header_;
};

// Parses a whole field as a finite double (surrounding spaces allowed); false if it is not one.
bool parse_double(std::string_view field, double& value);

class CsvWriter {
 public:
  explicit CsvWriter(std::ostream& out);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  void header(const std::vector<std::string>& names);
  // One row: t, then the values in order.
  void row(double t, const Eigen::Ref<const VecX<double>>& values);
  // The same for a matrix, written row-major.
  void matrix_row(double t, const Eigen::Ref<const MatX<double>>& values);
  void flush();

 private:
  void put(double x);
  void end_row();

  std::ostream& out_;
  std::string buffer_;
};

}  // namespace denoc
