// Strings interned to dense ids 0, 1, 2, ...: the bytes are copied once into blocks that never
// move, and found again through one flat open-addressing table of (hash, id) pairs. Built for
// the hundreds of thousands of names, versions and file names of a big index, where a
// std::unordered_map costs a node allocation per string and a cache miss or two per lookup.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace extdeps {

class StringIndex {
 public:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  StringIndex() : slots_(16) {}

  // The id of `s`, added when new; `added` says which.
  std::uint32_t insert(std::string_view s, bool* added = nullptr) {
    const std::uint32_t tag = tag_of(hash(s));
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = tag & mask;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (slot.id == kNone) break;
      if (slot.tag == tag && strings_[slot.id] == s) {
        if (added) *added = false;
        return slot.id;
      }
    }
    const auto id = static_cast<std::uint32_t>(strings_.size());
    strings_.push_back(store(s));
    if (strings_.size() * 2 > slots_.size()) grow();
    place(Slot{tag, id});
    if (added) *added = true;
    return id;
  }

  // The id of `s`, or kNone.
  std::uint32_t find(std::string_view s) const {
    const std::uint32_t tag = tag_of(hash(s));
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = tag & mask;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (slot.id == kNone) return kNone;
      if (slot.tag == tag && strings_[slot.id] == s) return slot.id;
    }
  }

  bool contains(std::string_view s) const { return find(s) != kNone; }
  std::string_view at(std::uint32_t id) const { return strings_[id]; }
  std::size_t size() const { return strings_.size(); }

  // 64-bit, 8 bytes a step (a multiply-xorshift mix); good enough to spread keys over the table,
  // not meant to resist chosen collisions (a collision costs a string comparison, not a wrong
  // answer).
  static std::uint64_t hash(std::string_view s) {
    constexpr std::uint64_t k = 0x9E3779B97F4A7C15ull;
    std::uint64_t h = s.size() * k;
    const char* p = s.data();
    std::size_t n = s.size();
    while (n >= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      h = (h ^ w) * k;
      h ^= h >> 29;
      p += 8;
      n -= 8;
    }
    if (n > 0) {
      std::uint64_t w = 0;
      std::memcpy(&w, p, n);
      h = (h ^ w) * k;
      h ^= h >> 29;
    }
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
  }

 private:
  // The tag, 32 bits of the hash, places the string in the table and ends most mismatches
  // without reading the string; growing the table moves slots by their tags alone.
  struct Slot {
    std::uint32_t tag = 0;
    std::uint32_t id = kNone;
  };
  static std::uint32_t tag_of(std::uint64_t h) { return static_cast<std::uint32_t>(h >> 32); }

  void place(Slot slot) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = slot.tag & mask;
    while (slots_[i].id != kNone) i = (i + 1) & mask;
    slots_[i] = slot;
  }

  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Slot& slot : old)
      if (slot.id != kNone) place(slot);
  }

  std::string_view store(std::string_view s) {
    if (blocks_.empty() || blocks_.back().capacity() - blocks_.back().size() < s.size()) {
      blocks_.emplace_back();
      blocks_.back().reserve(s.size() > kBlock ? s.size() : kBlock);
    }
    std::string& b = blocks_.back();
    const std::size_t at = b.size();
    b.append(s);  // within the reserved capacity: no reallocation, earlier views stay valid
    return std::string_view(b.data() + at, s.size());
  }

  static constexpr std::size_t kBlock = 1 << 20;
  std::vector<std::string> blocks_;
  std::vector<std::string_view> strings_;
  std::vector<Slot> slots_;  // a power of two, at most half full
};

}  // namespace extdeps
