#include "denoc/io/overrides.hpp"

#include <cctype>

#include "denoc/io/csv.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/yaml_document.hpp"

namespace denoc {

namespace {

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

std::string describe(const YamlNode& node) {
  if (node.is_map()) return "a map";
  if (node.is_sequence()) return "a list of " + std::to_string(node.size());
  if (node.is_null()) return "empty";
  return "'" + node.scalar() + "'";
}

// The key up to and including step `i`, for messages: links[2].inertia.
std::string prefix(const std::vector<KeyStep>& steps, std::size_t i) {
  std::string text;
  for (std::size_t k = 0; k <= i; ++k) {
    if (const auto* name = std::get_if<std::string>(&steps[k])) {
      text += (k == 0 ? "" : ".") + *name;
    } else {
      text += "[" + std::to_string(std::get<std::size_t>(steps[k])) + "]";
    }
  }
  return text;
}

}  // namespace

bool names_a_parent(const std::vector<KeyStep>& steps) {
  const auto* last = std::get_if<std::string>(&steps.back());
  return last && *last == "parent";
}

std::vector<KeyStep> parse_key(const std::string& key) {
  const auto bad = [&](const std::string& why) -> InputError {
    return InputError(mention(Parameter::set, key) + ": " + why +
                      " (a key is a path like links[2].mass or gravity[2])");
  };
  std::vector<KeyStep> steps;
  std::size_t i = 0;
  while (i < key.size()) {
    if (key[i] == '[') {
      const std::size_t close = key.find(']', i);
      if (close == std::string::npos) throw bad("no ] after [");
      const std::string digits = key.substr(i + 1, close - i - 1);
      if (digits.empty() || digits.size() > 9 ||
          digits.find_first_not_of("0123456789") != std::string::npos) {
        throw bad("'[" + digits + "]' is not a list index");
      }
      steps.emplace_back(static_cast<std::size_t>(std::stoul(digits)));
      i = close + 1;
    } else {
      if (!steps.empty()) {
        if (key[i] != '.') throw bad("expected . or [ at '" + key.substr(i) + "'");
        ++i;
      }
      const std::size_t start = i;
      while (i < key.size() && is_name_char(key[i]))
        ++i;
      if (i == start) throw bad("expected a name at '" + key.substr(start) + "'");
      steps.emplace_back(key.substr(start, i - start));
    }
  }
  if (steps.empty()) throw bad("empty key");
  return steps;
}

Override parse_override(const std::string& text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos) {
    throw InputError(mention(Parameter::set, text) +
                     ": expected KEY=VALUE, e.g. links[2].mass=3.5");
  }
  Override o{text.substr(0, equals), text.substr(equals + 1)};
  if (names_a_parent(parse_key(o.key))) {  // a link's name (docs/robot-file.md, trees)
    if (o.value.empty())
      throw InputError(mention(Parameter::set, o.key) + ": expected base or a link's name");
    return o;
  }
  double number = 0;
  if (!parse_double(o.value, number)) {
    throw InputError(mention(Parameter::set, o.key) + ": '" + o.value + "' is not a finite number");
  }
  // Stored as written (less surrounding spaces), so that the loader reads the same double as
  // it would from the edited file.
  const std::size_t first = o.value.find_first_not_of(" \t");
  o.value = o.value.substr(first, o.value.find_last_not_of(" \t") - first + 1);
  return o;
}

void apply_overrides(YamlDocument& document, const std::vector<Override>& overrides,
                     const std::string& path) {
  for (const Override& o : overrides) {
    const std::vector<KeyStep> steps = parse_key(o.key);
    const auto fail = [&](std::size_t i, const std::string& what) {
      const std::string where = i + 1 == steps.size() ? "" : prefix(steps, i) + ": ";
      throw InputError(path + ": " + mention(Parameter::set, o.key) + ": " + where + what);
    };
    // The leaf is replaced through its parent by a new scalar with no line in the file, so the
    // loader's messages about it name the key without a misleading line.
    YamlNode parent = document.root();
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const bool last = i + 1 == steps.size();
      const std::string parent_name = i == 0 ? std::string("the file") : prefix(steps, i - 1);
      const auto* name = std::get_if<std::string>(&steps[i]);
      YamlNode child;
      if (name) {
        if (!parent.is_map()) fail(i, "not a key here: " + parent_name + " is " + describe(parent));
        child = parent[*name];
        if (!child) {
          if (!last) fail(i, "not in the file (an override sets a number; add the block first)");
          document.set(parent, *name, o.value);  // a new key: the loader accepts or rejects it
          break;
        }
      } else {
        const std::size_t index = std::get<std::size_t>(steps[i]);
        if (!parent.is_sequence())
          fail(i, parent_name + " is " + describe(parent) + ", not a list");
        if (index >= parent.size()) {
          fail(i, "no such entry: " + parent_name + " has " + std::to_string(parent.size()));
        }
        child = parent[index];
      }
      if (!last) {
        parent = child;
        continue;
      }
      double number = 0;
      const bool text = names_a_parent(steps) && child.is_scalar();
      if (!text && (!child.is_scalar() || !parse_double(child.scalar(), number))) {
        fail(i, "is " + describe(child) + " in the file, not a number");
      }
      if (name) {
        document.set(parent, *name, o.value);
      } else {
        document.set(parent, std::get<std::size_t>(steps[i]), o.value);
      }
    }
  }
}

}  // namespace denoc
