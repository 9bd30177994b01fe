#include "denoc/io/csv.hpp"

#include <charconv>
#include <cmath>
#include <istream>
#include <ostream>

#include "denoc/io/errors.hpp"

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
  if (!field.empty() && field.front() == '+') field.remove_prefix(1);
  if (field.empty()) return false;
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, value);
  return ec == std::errc() && ptr == end && std::isfinite(value);
}

CsvReader::CsvReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

void CsvReader::fail(const std::string& what) const {
  throw InputError(name_ + ":" + std::to_string(line_number_) + ": " + what);
}

bool CsvReader::next_nonblank_line() {
  while (std::getline(in_, line_)) {
    ++line_number_;
    if (!trim(line_).empty()) return true;
  }
  if (in_.bad())
    throw InputError(name_ + ": read error after line " + std::to_string(line_number_));
  return false;
}

const std::vector<std::string>& CsvReader::read_header(std::size_t columns) {
  if (!next_nonblank_line()) {
    throw InputError(name_ + ": empty, expected a header line with " + std::to_string(columns) +
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
  if (header_.size() != columns) {
    fail("header has " + std::to_string(header_.size()) + " columns, expected " +
         std::to_string(columns));
  }
  return header_;
}

bool CsvReader::next_row(Eigen::Ref<VecX<double>> row) {
  if (!next_nonblank_line()) return false;
  const std::size_t expected = static_cast<std::size_t>(row.size());
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
  return true;
}

CsvWriter::CsvWriter(std::ostream& out) : out_(out) {
  buffer_.reserve(kFlushSize + 4096);
}

CsvWriter::~CsvWriter() {
  try {
    flush();
  } catch (...) {
  }
}

void CsvWriter::header(const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) buffer_ += ',';
    buffer_ += names[i];
  }
  end_row();
}

void CsvWriter::put(double x) {
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, x);
  (void)ec;  // 32 characters hold any double in shortest round-trip form
  buffer_.append(text, end);
}

void CsvWriter::row(double t, const Eigen::Ref<const VecX<double>>& values) {
  put(t);
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    buffer_ += ',';
    put(values[i]);
  }
  end_row();
}

void CsvWriter::matrix_row(double t, const Eigen::Ref<const MatX<double>>& values) {
  put(t);
  for (Eigen::Index i = 0; i < values.rows(); ++i) {
    for (Eigen::Index j = 0; j < values.cols(); ++j) {
      buffer_ += ',';
      put(values(i, j));
    }
  }
  end_row();
}

void CsvWriter::end_row() {
  buffer_ += '\n';
  if (buffer_.size() >= kFlushSize) flush();
}

void CsvWriter::flush() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  out_.flush();
  buffer_.clear();
}

}  // namespace denoc
