#include "denoc/io/yaml_document.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <limits>
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

bool yaml_double(const std::string& text, double& value) {
  std::stringstream stream(text);
  stream.unsetf(std::ios::dec);
  if ((stream >> std::noskipws >> value) && (stream >> std::ws).eof()) return true;
  if (text == ".inf" || text == ".Inf" || text == ".INF" || text == "+.inf" || text == "+.Inf" ||
      text == "+.INF") {
    value = std::numeric_limits<double>::infinity();
  } else if (text == "-.inf" || text == "-.Inf" || text == "-.INF") {
    value = -std::numeric_limits<double>::infinity();
  } else if (text == ".nan" || text == ".NaN" || text == ".NAN") {
    value = std::numeric_limits<double>::quiet_NaN();
  } else {
    return false;
  }
  return true;
}

bool YamlNode::is_null() const {
  return doc_ && doc_->node(index_).kind == YamlDocument::Kind::null;
}
bool YamlNode::is_scalar() const {
  return doc_ && doc_->node(index_).kind == YamlDocument::Kind::scalar;
}
bool YamlNode::is_sequence() const {
  return doc_ && doc_->node(index_).kind == YamlDocument::Kind::sequence;
}
bool YamlNode::is_map() const {
  return doc_ && doc_->node(index_).kind == YamlDocument::Kind::map;
}

const std::string& YamlNode::scalar() const {
  static const std::string none;
  return is_scalar() ? doc_->node(index_).text : none;
}

std::size_t YamlNode::size() const {
  return is_map() || is_sequence() ? doc_->node(index_).count : 0;
}

long YamlNode::line() const {
  return doc_ ? doc_->node(index_).line + 1L : 0;
}

YamlNode YamlNode::operator[](const std::string& key) const {
  if (!is_map()) return {};
  const YamlDocument::Node& map = doc_->node(index_);
  for (std::uint32_t k = map.first; k < map.first + map.count; ++k) {
    if (doc_->entries_[k].key == key) return YamlNode(doc_, doc_->entries_[k].value);
  }
  return {};
}

YamlNode YamlNode::operator[](std::size_t index) const {
  if (!is_sequence() || index >= size()) return {};
  return YamlNode(doc_, doc_->entries_[doc_->node(index_).first + index].value);
}

const std::string& YamlNode::key_at(std::size_t k) const {
  return doc_->entries_[doc_->node(index_).first + k].key;
}

long YamlNode::key_line(std::size_t k) const {
  return doc_->entries_[doc_->node(index_).first + k].key_line + 1L;
}

std::uint32_t YamlDocument::add_node(Node node) {
  nodes_.push_back(std::move(node));
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

void YamlDocument::add_block(std::uint32_t block, std::vector<Entry>& pending, std::size_t first) {
  nodes_[block].first = static_cast<std::uint32_t>(entries_.size());
  nodes_[block].count = static_cast<std::uint32_t>(pending.size() - first);
  entries_.insert(entries_.end(), std::make_move_iterator(pending.begin() + first),
                  std::make_move_iterator(pending.end()));
  pending.resize(first);
}

std::uint32_t YamlDocument::append_scalar(const std::string& text) {
  Node node;
  node.kind = Kind::scalar;
  node.text = text;
  return add_node(std::move(node));
}

void YamlDocument::set(YamlNode parent, const std::string& key, const std::string& text) {
  Node& map = nodes_[parent.index_];
  for (std::uint32_t k = map.first; k < map.first + map.count; ++k) {
    if (entries_[k].key == key) {
      entries_[k].value = append_scalar(text);
      return;
    }
  }
  // A new key: the map's entries move to the end, where the new one can follow them.
  const std::uint32_t value = append_scalar(text);
  Node& grown = nodes_[parent.index_];  // append_scalar may have moved the nodes
  std::vector<Entry> moved(entries_.begin() + grown.first,
                           entries_.begin() + grown.first + grown.count);
  moved.push_back(Entry{key, -1, -1, value});
  add_block(parent.index_, moved, 0);
}

void YamlDocument::set(YamlNode parent, std::size_t index, const std::string& text) {
  const std::uint32_t value = append_scalar(text);
  entries_[nodes_[parent.index_].first + index].value = value;
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

// The tree of the first document from the parser's events, which DocumentChecker has accepted
// first (so keys are text, aliases name complete nodes). A block's entries wait in `pending_`,
// one stack for all open blocks, and are stored together when the block closes.
class TreeBuilder : public YAML::EventHandler {
 public:
  explicit TreeBuilder(YamlDocument& doc) : doc_(doc) {}

  bool built = false;  // the first document is complete

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override { built = true; }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (!built) add(leaf(mark, YamlDocument::Kind::null, std::string()), anchor);
  }

  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                const std::string& value) override {
    if (built) return;
    if (!key_expected()) return add(leaf(mark, YamlDocument::Kind::scalar, value), anchor);
    set_key(value, mark.line, mark.column);
    if (anchor != 0) remember(anchor, leaf(mark, YamlDocument::Kind::scalar, value));
  }

  void OnAlias(const YAML::Mark&, YAML::anchor_t anchor) override {
    if (built) return;
    const std::uint32_t named = anchors_[anchor];
    if (!key_expected()) return add_child(named);
    const YamlDocument::Node& key = doc_.node(named);  // text: DocumentChecker saw to it
    set_key(key.text, key.line, key.column);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, anchor, YamlDocument::Kind::sequence);
  }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(mark, anchor, YamlDocument::Kind::map);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapEnd() override { close(); }

 private:
  struct Frame {
    std::uint32_t node = 0;
    std::size_t first = 0;  // its entries: pending_[first..]
    bool map = false;
    bool key_next = true;
    YamlDocument::Entry entry;  // in a map: the key of the value that comes next
  };

  bool key_expected() const {
    return !frames_.empty() && frames_.back().map && frames_.back().key_next;
  }

  void set_key(const std::string& key, int line, int column) {
    Frame& top = frames_.back();
    top.entry.key = key;
    top.entry.key_line = line;
    top.entry.key_column = column;
    top.key_next = false;
  }

  std::uint32_t leaf(const YAML::Mark& mark, YamlDocument::Kind kind, const std::string& text) {
    YamlDocument::Node node;
    node.kind = kind;
    node.text = text;
    node.line = mark.line;
    node.column = mark.column;
    return doc_.add_node(std::move(node));
  }

  void add(std::uint32_t node, YAML::anchor_t anchor) {
    remember(anchor, node);
    add_child(node);
  }

  void open(const YAML::Mark& mark, YAML::anchor_t anchor, YamlDocument::Kind kind) {
    if (built) return;
    Frame frame;
    frame.node = leaf(mark, kind, std::string());
    frame.first = pending_.size();
    frame.map = kind == YamlDocument::Kind::map;
    remember(anchor, frame.node);
    frames_.push_back(std::move(frame));
  }

  void close() {
    if (built) return;
    const Frame done = std::move(frames_.back());
    frames_.pop_back();
    doc_.add_block(done.node, pending_, done.first);
    add_child(done.node);
  }

  void add_child(std::uint32_t node) {
    if (frames_.empty()) return doc_.set_root(node);
    Frame& top = frames_.back();
    YamlDocument::Entry entry;
    if (top.map) entry = std::move(top.entry);
    entry.value = node;
    pending_.push_back(std::move(entry));
    top.key_next = true;
  }

  void remember(YAML::anchor_t anchor, std::uint32_t node) {
    if (anchor == 0) return;
    if (anchors_.size() <= anchor) anchors_.resize(anchor + 1);
    anchors_[anchor] = node;
  }

  YamlDocument& doc_;
  std::vector<Frame> frames_;
  std::vector<YamlDocument::Entry> pending_;
  std::vector<std::uint32_t> anchors_;  // the node of each anchor, by its number
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

// Each event to the checker, and once it has passed, to the tree's builder.
class CheckedTreeBuilder : public YAML::EventHandler {
 public:
  CheckedTreeBuilder(const std::string& path, YamlDocument& doc) : checker(path), builder(doc) {}

  DocumentChecker checker;
  TreeBuilder builder;

  void OnDocumentStart(const YAML::Mark& mark) override {
    checker.OnDocumentStart(mark);
    builder.OnDocumentStart(mark);
  }
  void OnDocumentEnd() override {
    checker.OnDocumentEnd();
    builder.OnDocumentEnd();
  }
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    checker.OnNull(mark, anchor);
    builder.OnNull(mark, anchor);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    checker.OnAlias(mark, anchor);
    builder.OnAlias(mark, anchor);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    checker.OnScalar(mark, tag, anchor, value);
    builder.OnScalar(mark, tag, anchor, value);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value style) override {
    checker.OnSequenceStart(mark, tag, anchor, style);
    builder.OnSequenceStart(mark, tag, anchor, style);
  }
  void OnSequenceEnd() override {
    checker.OnSequenceEnd();
    builder.OnSequenceEnd();
  }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value style) override {
    checker.OnMapStart(mark, tag, anchor, style);
    builder.OnMapStart(mark, tag, anchor, style);
  }
  void OnMapEnd() override {
    checker.OnMapEnd();
    builder.OnMapEnd();
  }
};

// The stream's documents checked and counted from the parser's events, the first one's tree built
// into `doc`. Not YAML::LoadAll: in yaml-cpp 0.7 (Debian 12) it loops for ever, allocating, on
// streams where the parser reports a null document without consuming any text (found by
// fuzz_robot_file; fixed upstream by jbeder/yaml-cpp PR #1319). A document that starts where the
// previous one started is that loop, and is refused as a syntax error at its line. Up to three
// documents: a second one may itself be the stuck one, known only by the third.
void read_events(const std::string& text, const std::string& path, YamlDocument& doc) {
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  CheckedTreeBuilder handler(path, doc);
  const DocumentChecker& checker = handler.checker;
  std::vector<YAML::Mark> starts;
  while (starts.size() < 3 && parser.HandleNextDocument(handler)) {
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
  if (!handler.builder.built) doc.set_root(doc.add_node({}));  // no document: a null, as YAML::Load
}

// A yaml-cpp node and all it holds into `doc`; `pending` as TreeBuilder's.
std::uint32_t add_tree(YamlDocument& doc, const YAML::Node& node,
                       std::vector<YamlDocument::Entry>& pending) {
  YamlDocument::Node added;
  added.line = node.Mark().line;
  added.column = node.Mark().column;
  if (node.IsScalar()) {
    added.kind = YamlDocument::Kind::scalar;
    added.text = node.Scalar();
  } else if (node.IsMap() || node.IsSequence()) {
    added.kind = node.IsMap() ? YamlDocument::Kind::map : YamlDocument::Kind::sequence;
  }
  const std::uint32_t index = doc.add_node(std::move(added));
  if (!node.IsMap() && !node.IsSequence()) return index;
  const std::size_t first = pending.size();
  for (const auto& item : node) {
    YamlDocument::Entry entry;
    const YAML::Node& value = node.IsMap() ? item.second : item;
    if (node.IsMap()) {
      entry.key = item.first.Scalar();
      entry.key_line = item.first.Mark().line;
      entry.key_column = item.first.Mark().column;
    }
    entry.value = add_tree(doc, value, pending);
    pending.push_back(std::move(entry));
  }
  doc.add_block(index, pending, first);
  return index;
}

}  // namespace

YamlDocument load_yaml_document(const std::string& text, const std::string& path) {
  check_text(text, path);
  YamlDocument doc;
  try {
    read_events(text, path, doc);
  } catch (const YAML::DeepRecursion& e) {
    throw InputError(path + ":" + std::to_string(e.mark.line + 1) +
                     ": nested too deeply (no robot file needs more than a few levels)");
  } catch (const YAML::ParserException& e) {
    throw InputError(path + ":" + std::to_string(e.mark.line + 1) +
                     ": YAML syntax error: " + e.msg);
  }
  return doc;
}

YamlDocument yaml_document_from_tree(const YAML::Node& root) {
  YamlDocument doc;
  std::vector<YamlDocument::Entry> pending;
  doc.set_root(add_tree(doc, root, pending));
  return doc;
}

}  // namespace denoc
