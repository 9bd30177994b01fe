// The one YAML document of a robot file, with the checks that need no knowledge of the keys:
// one document, no NUL byte, text keys given once per block, UTF-8 text, bounded nesting and
// bounded aliases (docs/errors.md).
//
// The document is kept as a compact tree built from the parser's events in the same pass as the
// checks: scalars with their marks, maps as ordered key/value entries, sequences, and an alias as
// the very node its anchor names (shared, not copied). yaml-cpp's own node tree took about a
// hundred times the text's size (17.6 MB for a 1000-link file of 189 KB: ridim's peak 21.9 MB);
// this one, about 56 bytes a node and 48 an entry, leaves that run's peak at 9.0 MB.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace YAML {
class Node;
}

namespace denoc {

class YamlDocument;

// A handle on one node of a YamlDocument: a scalar, a null (`~`, `null` or nothing), a sequence,
// a map, or no node at all (a key the map does not have, an index past the sequence's end),
// which converts to false. Valid while its document is.
class YamlNode {
 public:
  YamlNode() = default;

  explicit operator bool() const { return doc_ != nullptr; }
  bool is_null() const;
  bool is_scalar() const;
  bool is_sequence() const;
  bool is_map() const;

  const std::string& scalar() const;  // the text of a scalar, "" for any other node
  std::size_t size() const;           // entries of a map or a sequence, 0 for any other node
  long line() const;                  // 1-based; 0 for a node not from the text (--set)

  YamlNode operator[](const std::string& key) const;  // in a map; no node otherwise
  YamlNode operator[](std::size_t index) const;       // in a sequence; no node otherwise
  const std::string& key_at(std::size_t k) const;     // the key of a map's entry k < size()
  long key_line(std::size_t k) const;                 // and its line, as line()

 private:
  friend class YamlDocument;
  YamlNode(const YamlDocument* doc, std::uint32_t index) : doc_(doc), index_(index) {}
  const YamlDocument* doc_ = nullptr;
  std::uint32_t index_ = 0;
};

class YamlDocument {
 public:
  enum class Kind : std::uint8_t { null, scalar, sequence, map };

  YamlNode root() const { return YamlNode(this, root_); }

  // --set: a scalar with no line, `text`, replaces `parent`'s value for `key` or is added as its
  // last entry; or replaces its entry `index`. `parent` is a map (a sequence), and the change
  // shows through every alias of it.
  void set(YamlNode parent, const std::string& key, const std::string& text);
  void set(YamlNode parent, std::size_t index, const std::string& text);

  // Building, from the parser's events or from a yaml-cpp tree (yaml_document.cpp): a node is
  // added once complete, a block's entries when it closes.
  struct Node {
    std::string text;         // a scalar's
    std::uint32_t first = 0;  // a block's entries: entries_[first, first + count)
    std::uint32_t count = 0;
    std::int32_t line = -1;    // 0-based, as YAML::Mark; -1: not from the text
    std::int32_t column = -1;  // 0-based
    Kind kind = Kind::null;
  };
  struct Entry {
    std::string key;  // in a map; "" in a sequence
    std::int32_t key_line = -1;
    std::int32_t key_column = -1;
    std::uint32_t value = 0;  // index into nodes_
  };
  std::uint32_t add_node(Node node);
  // pending[first..] become the entries of `block`, and leave `pending`.
  void add_block(std::uint32_t block, std::vector<Entry>& pending, std::size_t first);
  void set_root(std::uint32_t node) { root_ = node; }
  const Node& node(std::uint32_t index) const { return nodes_[index]; }

 private:
  friend class YamlNode;
  std::uint32_t append_scalar(const std::string& text);

  std::vector<Node> nodes_;
  std::vector<Entry> entries_;
  std::uint32_t root_ = 0;
};

// Parses `text` (the contents of the file `path`) and returns its document. Every check is made
// on the parser's events in one pass, with the tree built from the same events: the work is
// bounded by the length of the text, never by what the aliases (*name) stand for. Throws
// InputError naming `path`, the key and the line.
YamlDocument load_yaml_document(const std::string& text, const std::string& path);

// The same tree from one yaml-cpp built in memory (no marks: its nodes have no lines).
YamlDocument yaml_document_from_tree(const YAML::Node& root);

// True if `text` is well-formed UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
bool is_utf8(const std::string& text);

// A scalar read as a double exactly as yaml-cpp's Node::as<double> reads it (a stream read that
// must consume the text, then .inf, -.inf, .nan and their spellings); false if it is not one.
bool yaml_double(const std::string& text, double& value);

}  // namespace denoc
