// --set KEY=VALUE (docs/batches.md): one number of a robot file replaced by the path that error
// messages use (links[2].mass, links[0].inertia.xx, gravity[2], initial.q[1], payload.mass, ...).
// The override is applied to the parsed YAML document before the robot file is read, so the loader
// checks the result exactly as it checks the file, and its messages name the key.
#pragma once

#include <string>
#include <variant>
#include <vector>

namespace denoc {

class YamlDocument;

struct Override {
  std::string key;    // e.g. "links[2].mass"
  std::string value;  // the number as written on the command line, e.g. "3.5" or "-1e-3"
};

// One step of a key: a map key ("links", "mass") or a list index ([2]).
using KeyStep = std::variant<std::string, std::size_t>;

// Parses "KEY=VALUE"; throws InputError naming the override (Parameter::set) unless KEY is a
// well-formed path and VALUE a finite number, or for a key ending in `parent`
// (links[2].parent=base) non-empty text.
Override parse_override(const std::string& text);

// Splits a key into its steps: "links[2].inertia.xx" -> links, 2, inertia, xx. Throws
// InputError for a malformed key. Exposed for loaders of other formats (URDF) that map the same
// paths onto their own trees.
std::vector<KeyStep> parse_key(const std::string& key);

// Whether a key's last step is `parent`, whose value is a name, not a number.
bool names_a_parent(const std::vector<KeyStep>& steps);

// Applies the overrides in order (a later one for the same key wins) to a robot file's YAML
// document (yaml_document.hpp); `path` names the file in messages. Every step but the last must
// already be in the file: a map key present, a list index within the list. The last step is
// either a number already in the file, replaced, or a key absent from a map that is in the file,
// added (the loader then accepts it or rejects it as an unknown key, as it would in the file).
// Throws InputError naming the file and the key otherwise (a list, a map or text where a number
// is expected, an index out of range, a block the file does not have).
void apply_overrides(YamlDocument& document, const std::vector<Override>& overrides,
                     const std::string& path);

}  // namespace denoc
