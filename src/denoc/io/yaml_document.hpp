// The one YAML document of a robot file, with the checks that need no knowledge of the keys:
// one document, no NUL byte, text keys given once per block, UTF-8 text, bounded nesting and
// bounded aliases (README, "Errors, faults and limits").
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

namespace denoc {

// Parses `text` (the contents of the file `path`) and returns its document. Every check is made
// on the parser's events in one pass, before any node is built: its work is bounded by the length
// of the text, never by what the aliases (*name) stand for. An alias stands for a node that is
// not copied, so later reading costs what the keys read, too. Throws InputError naming `path`,
// the key and the line.
YAML::Node load_yaml_document(const std::string& text, const std::string& path);

// True if `text` is well-formed UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
bool is_utf8(const std::string& text);

}  // namespace denoc
