// A reader of the YAML that modulemd files are written in (providers/dnf/modulemd_yaml.cc says
// what it reads and refuses), keeping of each document only what modularity needs.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace extdeps::dnf::modulemd {

// Where and why a text is not the YAML the reader takes.
struct Bad {
  std::size_t line = 0, column = 0;  // from 1
  std::string what;
};

// A kept node: a document's `document`, and its `data`'s `name`, `stream`, `module` and
// `artifacts: rpms`; every other node is read, checked and dropped.

struct Node {
  enum class Kind : unsigned char { none, scalar, map, seq } kind = Kind::none;
  std::string text;               // a scalar's
  std::vector<std::string> keys;  // a map's kept entries: keys[i] maps to items[i]
  std::vector<Node> items;        // and a list's kept items
  const Node* get(std::string_view key) const {
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == key) return &items[i];
    return nullptr;
  }
  void add(std::string key, Node value) {
    keys.push_back(std::move(key));
    items.push_back(std::move(value));
  }
  std::string scalar() const { return kind == Kind::scalar ? text : std::string(); }
};

// Calls `each` with every document's root, in order; throws Bad at the first thing that is not
// the YAML modulemd files are written in (what came before was handed on already).
void read_documents(std::string_view text, const std::function<void(const Node&)>& each);

}  // namespace extdeps::dnf::modulemd
