// The validation tables: every bad input the suite knows, kept as data in
// tests/bad_inputs/*.tsv, one row each, run end to end by this one table-driven test. Each row
// must give its exit status and a message on standard error that starts with the program's name,
// contains the row's text and names the place (a line, or a key or option); an `-o` file that
// held something before must still hold it, or (for an error found while streaming) hold whole
// lines only. The formats are described at the top of each table; adding a row is adding a line.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "support/cli_support.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kTables = DENOC_BAD_INPUTS_DIR;
const fs::path kRoot = DENOC_SOURCE_DIR;

struct Row {
  std::string table;  // file name without .tsv
  int line = 0;
  std::vector<std::string> fields;
};

// The tab-separated rows of every table; '#' lines and blank lines are comments.
std::vector<Row> load_rows() {
  std::vector<Row> rows;
  std::vector<fs::path> tables;
  for (const auto& entry : fs::directory_iterator(kTables)) {
    if (entry.path().extension() == ".tsv") tables.push_back(entry.path());
  }
  std::sort(tables.begin(), tables.end());
  for (const fs::path& path : tables) {
    std::ifstream in(path);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      if (line.empty() || line[0] == '#') continue;
      Row row{path.stem().string(), number, cli::fields_of("")};
      std::size_t start = 0;
      for (;;) {
        const std::size_t tab = line.find('\t', start);
        row.fields.push_back(line.substr(start, tab - start));
        if (tab == std::string::npos) break;
        start = tab + 1;
      }
      rows.push_back(row);
    }
  }
  return rows;
}

// \n \r \t \\ \xHH, and {{N*TEXT}} for TEXT repeated N times (a line longer than 1 MiB).
std::string unescape(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "{{") == 0) {
      const std::size_t star = text.find('*', i), end = text.find("}}", i);
      const long count = std::stol(text.substr(i + 2, star - i - 2));
      const std::string unit = unescape(text.substr(star + 1, end - star - 1));
      for (long k = 0; k < count; ++k)
        out += unit;
      i = end + 1;
    } else if (text[i] == '\\' && i + 1 < text.size()) {
      const char c = text[++i];
      if (c == 'n') {
        out += '\n';
      } else if (c == 'r') {
        out += '\r';
      } else if (c == 't') {
        out += '\t';
      } else if (c == 'x') {
        out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        out += c;
      }
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string fixture(const std::string& name) {
  return cli::slurp(name.rfind("robots/", 0) == 0 ? kRoot / name : kTables / name);
}

class BadInputs : public cli::CliTest, public ::testing::WithParamInterface<Row> {
 protected:
  // Runs the row's command in the scratch directory and checks what every row must hold.
  void expect_rejected(const std::string& program, const std::string& args, int status,
                       const std::string& message) {
    const std::string precious = "precious\n";
    write("out.csv", precious);
    const cli::Result r = run(program == "ridim" ? DENOC_RIDIM_EXE : DENOC_RFDSIM_EXE, args);
    const std::string where = GetParam().table + ".tsv:" + std::to_string(GetParam().line);
    EXPECT_EQ(r.status, status) << where << ": " << program << " " << args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind(program + ": ", 0), 0u) << where << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos)
        << where << ": expected the message to contain\n  " << message << "\ngot\n  " << r.err;
    // The place: a line (file:N: or "line N") or an option or key.
    static const std::regex place(
        R"(:[0-9]+: |line [0-9]+|at t = |: cannot open |(^|[ '])--?[a-z]|^[a-z]+: [A-Za-z0-9_./<>-]+: [a-z_\[\]0-9.]+: )");
    EXPECT_TRUE(std::regex_search(r.err, place)) << where << ": no place named in\n  " << r.err;
    const std::string out = read("out.csv");
    if (out != precious) {
      EXPECT_TRUE(out.empty() || out.back() == '\n') << where << ": a partial line in out.csv";
      EXPECT_EQ(out.rfind("t,", 0), 0u)
          << where << ": out.csv overwritten by " << out.substr(0, 40);
    }
  }
};

TEST_P(BadInputs, Rejected) {
  const Row& row = GetParam();
  const auto& f = row.fields;
  const std::string where = row.table + ".tsv:" + std::to_string(row.line);
  cli::fs::copy(kRoot / "robots/planar3.yaml", dir_ / "planar3.yaml");
  cli::fs::copy(kRoot / "robots/stanford.yaml", dir_ / "stanford.yaml");
  cli::fs::copy(kTables / "traj.csv", dir_ / "traj.csv");
  cli::fs::copy(kTables / "tau.csv", dir_ / "tau.csv");
  cli::fs::copy(kTables / "floating.yaml", dir_ / "floating.yaml");
  if (row.table == "robot_file") {
    // fixture, find, replace, status, message: the fixture with the first `find` replaced
    // (`*`: the whole text; `$`: appended), run as `ridim robot.yaml -o out.csv`.
    ASSERT_EQ(f.size(), 5u) << where;
    std::string text = fixture(f[0]);
    const std::string find = unescape(f[1]), replace = unescape(f[2]);
    if (find == "*") {
      text = replace;
    } else if (find == "$") {
      text += replace;
    } else {
      const std::size_t at = text.find(find);
      ASSERT_NE(at, std::string::npos) << where << ": '" << find << "' not in " << f[0];
      text.replace(at, find.size(), replace);
    }
    write("robot.yaml", text);
    // A message column starting with ':' follows the file name.
    expect_rejected("ridim", "robot.yaml -o out.csv", std::stoi(f[3]),
                    f[4].rfind(":", 0) == 0 ? "robot.yaml" + f[4] : f[4]);
  } else if (row.table == "csv") {
    // reader, text, status, message: the text as the trajectory of ridim or the torques of
    // rfdsim, for planar3 (3 joints), or as the trajectory of floating.yaml (a floating base).
    ASSERT_EQ(f.size(), 4u) << where;
    write("in.csv", unescape(f[1]));
    if (f[0] == "trajectory") {
      expect_rejected("ridim", "planar3.yaml in.csv -o out.csv", std::stoi(f[2]), f[3]);
    } else if (f[0] == "floating") {
      expect_rejected("ridim", "floating.yaml in.csv -o out.csv", std::stoi(f[2]), f[3]);
    } else {
      ASSERT_EQ(f[0], "torques") << where;
      expect_rejected("rfdsim", "planar3.yaml --torques in.csv -o out.csv", std::stoi(f[2]), f[3]);
    }
  } else {
    // program, arguments (shell words), status, message; the scratch directory holds
    // planar3.yaml, stanford.yaml, traj.csv and tau.csv (planar3), floating.yaml and out.csv.
    ASSERT_EQ(row.table, "command_line") << where << ": unknown table";
    ASSERT_EQ(f.size(), 4u) << where;
    expect_rejected(f[0], f[1], std::stoi(f[2]), f[3]);
  }
}

void PrintTo(const Row& row, std::ostream* out) {
  *out << row.table << ".tsv:" << row.line;
}

std::string row_name(const ::testing::TestParamInfo<Row>& info) {
  return info.param.table + "_line_" + std::to_string(info.param.line);
}

INSTANTIATE_TEST_SUITE_P(Tables, BadInputs, ::testing::ValuesIn(load_rows()), row_name);

}  // namespace
