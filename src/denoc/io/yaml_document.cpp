#include "denoc/io/yaml_document.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <sstream>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "denoc/io/errors.hpp"

namespace denoc {

// True if `text` is well-formed UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
bool is_utf8(const std::string& text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    std::size_t extra;
    unsigned min;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      extra = 1, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3, min = 0x10000;
    } else {
      return false;
    }
    if (i + extra >= n) return false;  // cut short by the end of the text
    unsigned code = c & (0x3F >> extra);
    for (std::size_t k = 1; k <= extra; ++k) {
      const unsigned char d = static_cast<unsigned char>(text[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      code = (code << 6) | (d & 0x3F);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
    i += extra + 1;
  }
  return true;
}

namespace {

constexpr int kMaxDepth = 16;  // a robot file needs 4 (links[k].inertia.xx)
// What all aliases together may stand for: a robot file sharing one inertia block among ten
// thousand links needs 70,000; ten levels of nine aliases each would stand for 3.9e9.
constexpr long kMaxAliasValues = 100000;

// The 1-based line of byte `offset` of `text`.
long line_at(const std::string& text, std::size_t offset) {
  return 1 + static_cast<long>(
                 std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

// What yaml-cpp accepts and a robot file must not hold: a key given twice in one block (yaml-cpp
// keeps both and lookups see the first), a key that is not text, text that is not UTF-8, nesting
// deeper than any robot file needs, aliases that stand for more than any robot file needs. Every
// key of every block, present and future, is checked here once, where it is written: an alias
// is measured by what its anchor's node holds, never walked again.
class DocumentChecker : public YAML::EventHandler {
 public:
  explicit DocumentChecker(std::string path) : path_(std::move(path)) {}

  YAML::Mark start;  // of the latest document

  void OnDocumentStart(const YAML::Mark& mark) override { start = mark; }
  void OnDocumentEnd() override { checking_ = false; }  // a second document is refused anyway

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (!checking_) return;
    if (key_expected()) fail(in_block() + "?", mark, "a key must be text");
    leaf(mark, anchor, nullptr);
  }

  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                const std::string& value) override {
    if (!checking_) return;
    if (key_expected()) return key(mark, value, anchor);
    if (!is_utf8(value)) fail(next_path(), mark, "text that is not UTF-8");
    leaf(mark, anchor, &value);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (!checking_) return;
    if (anchor >= anchors_.size() || !anchors_[anchor].complete) {
      fail(next_path(), mark, "an alias inside the node it names (a cycle)");
    }
    const Anchored named = anchors_[anchor];
    if (key_expected()) {
      if (!named.is_text) fail(in_block() + "?", mark, "a key must be text");
      return key(mark, named.text, 0);
    }
    check_depth(mark, static_cast<int>(frames_.size()) + named.height - 1);
    alias_values_ += named.values;
    if (alias_values_ > kMaxAliasValues) {
      fail(next_path(), mark,
           "the aliases (*name) up to here stand for more than " + std::to_string(kMaxAliasValues) +
               " values; no robot file needs so many");
    }
    add_child(named.values, named.height);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, anchor, false);
  }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(mark, anchor, true);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapEnd() override { close(); }

 private:
  // An open block: a sequence or a map, and what it holds so far.
  struct Frame {
    bool map = false;
    std::string path;  // the key that names it, as messages give it: links[1].inertia
    std::size_t index = 0;
    bool key_next = true;  // in a map: the next node is a key
    std::string key;       // in a map: the key of the value that comes next
    std::unordered_set<std::string> keys;
    YAML::anchor_t anchor = 0;
    long values = 1;  // nodes in it, itself included, aliases counted as what they stand for
    int height = 1;   // levels in it, itself included
  };
  // A node with an anchor (&name), as an alias to it counts.
  struct Anchored {
    bool complete = false;
    bool is_text = false;
    std::string text;
    long values = 1;
    int height = 1;
  };

  bool key_expected() const {
    return !frames_.empty() && frames_.back().map && frames_.back().key_next;
  }

  // "links[0]." inside links[0]; "" at the top.
  std::string in_block() const {
    return frames_.empty() || frames_.back().path.empty() ? "" : frames_.back().path + ".";
  }

  // The key that names the node the parser reports next.
  std::string next_path() const {
    if (frames_.empty()) return "";
    const Frame& top = frames_.back();
    if (!top.map) return top.path + "[" + std::to_string(top.index) + "]";
    return in_block() + top.key;
  }

  void key(const YAML::Mark& mark, const std::string& name, YAML::anchor_t anchor) {
    Frame& top = frames_.back();
    if (!is_utf8(name)) fail(in_block() + "?", mark, "a key that is not UTF-8");
    if (!top.keys.insert(name).second)
      fail(in_block() + name, mark, "given twice in the same block");
    top.key = name;
    top.key_next = false;
    remember(anchor, Anchored{true, true, name, 1, 1});
  }

  // A scalar (`text`) or a null (nullptr).
  void leaf(const YAML::Mark& mark, YAML::anchor_t anchor, const std::string* text) {
    check_depth(mark, static_cast<int>(frames_.size()));
    remember(anchor, Anchored{true, text != nullptr, text ? *text : std::string(), 1, 1});
    add_child(1, 1);
  }

  void open(const YAML::Mark& mark, YAML::anchor_t anchor, bool map) {
    if (!checking_) return;
    if (key_expected()) fail(in_block() + "?", mark, "a key must be text");
    check_depth(mark, static_cast<int>(frames_.size()));
    Frame frame;
    frame.map = map;
    frame.path = next_path();
    frame.anchor = anchor;
    frames_.push_back(std::move(frame));
  }

  void close() {
    if (!checking_) return;
    const Frame done = std::move(frames_.back());
    frames_.pop_back();
    remember(done.anchor, Anchored{true, false, {}, done.values, done.height});
    add_child(done.values, done.height);
  }

  // A node of `values` nodes and `height` levels is complete: its block counts it and moves on.
  void add_child(long values, int height) {
    if (frames_.empty()) return;
    Frame& top = frames_.back();
    top.values += values;
    top.height = std::max(top.height, height + 1);
    if (top.map) {
      top.key_next = true;
    } else {
      ++top.index;
    }
  }

  void remember(YAML::anchor_t anchor, Anchored node) {
    if (anchor == 0) return;
    if (anchors_.size() <= anchor) anchors_.resize(anchor + 1);
    anchors_[anchor] = std::move(node);
  }

  // A node at depth `deepest` (the top block is at 0), or holding one that deep.
  void check_depth(const YAML::Mark& mark, int deepest) const {
    if (deepest > kMaxDepth) {
      const std::string path = next_path();
      fail(path.empty() ? "(top)" : path, mark,
           "nested deeper than " + std::to_string(kMaxDepth) + " levels");
    }
  }

  [[noreturn]] void fail(const std::string& key, const YAML::Mark& mark,
                         const std::string& what) const {
    throw InputError(path_ + ": " + key + ": " + what + " (line " + std::to_string(mark.line + 1) +
                     ")");
  }

  std::string path_;
  bool checking_ = true;
  std::vector<Frame> frames_;
  std::vector<Anchored> anchors_;
  long alias_values_ = 0;
};

// The line of the `---` that starts a second document: the first one after a line of content.
long second_document_line(const std::string& text, const YAML::Mark& fallback) {
  long number = 0;
  bool content = false;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view l(text.data() + start, end - start);
    ++number;
    if (l.substr(0, 3) == "---" && content) return number;
    if (!l.empty() && l[0] != '#' && l[0] != '%' && l.substr(0, 3) != "---") content = true;
    start = end + 1;
  }
  return fallback.line + 1;
}

// What yaml-cpp reads wrongly before it parses: a NUL (read as the end of the text, or reported on
// a later line), flow nesting that it stops at 2000 levels with a mark past the line.
void check_text(const std::string& text, const std::string& path) {
  const std::size_t nul = text.find('\0');
  if (nul != std::string::npos) {
    throw InputError(path + ":" + std::to_string(line_at(text, nul)) +
                     ": a NUL byte (a robot file is text)");
  }
  int flow_depth = 0;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote || c == '\n') quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      i = std::min(text.find('\n', i), text.size()) - 1;  // a comment, to the end of the line
    } else if (c == '[' || c == '{') {
      if (++flow_depth > 64) {
        throw InputError(path + ":" + std::to_string(line_at(text, i)) +
                         ": nested too deeply (no robot file needs more than a few levels)");
      }
    } else if (c == ']' || c == '}') {
      flow_depth = std::max(0, flow_depth - 1);
    }
  }
}

// The stream's documents checked and counted from the parser's events. Not YAML::LoadAll: in
// yaml-cpp 0.7 (Debian 12) it loops for ever, allocating, on streams where the parser reports a
// null document without consuming any text (found by fuzz_robot_file; fixed upstream by
// jbeder/yaml-cpp PR #1319). A document that starts where the previous one started is that loop,
// and is refused as a syntax error at its line. Up to three documents: a second one may itself
// be the stuck one, known only by the third.
void check_events(const std::string& text, const std::string& path) {
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  DocumentChecker checker(path);
  std::vector<YAML::Mark> starts;
  while (starts.size() < 3 && parser.HandleNextDocument(checker)) {
    if (!starts.empty() && checker.start.pos == starts.back().pos) {
      throw InputError(path + ":" + std::to_string(checker.start.line + 1) +
                       ": YAML syntax error: text the parser cannot read");
    }
    starts.push_back(checker.start);
  }
  if (starts.size() > 1) {
    throw InputError(path + ":" + std::to_string(second_document_line(text, starts[1])) +
                     ": a second YAML document; a robot file is one document (remove the `---`)");
  }
}

}  // namespace

YAML::Node load_yaml_document(const std::string& text, const std::string& path) {
  check_text(text, path);
  try {
    check_events(text, path);
    return YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    throw InputError(path + ":" + std::to_string(e.mark.line + 1) +
                     ": nested too deeply (no robot file needs more than a few levels)");
  } catch (const YAML::ParserException& e) {
    throw InputError(path + ":" + std::to_string(e.mark.line + 1) +
                     ": YAML syntax error: " + e.msg);
  }
}

}  // namespace denoc
