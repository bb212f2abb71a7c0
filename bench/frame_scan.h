// Reading a few top-level fields of a JSON frame without parsing all of it: the
// benchmark's clients share the machine with the server under test, and every
// cycle they spend parsing a whole state push is one the server does not get.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace parlour::bench {

// The raw JSON text of `key`'s value in the top-level object `text`, or nothing.
// Only understands well-formed JSON (which is what the server sends).
inline std::optional<std::string_view> top_level_field(std::string_view text, std::string_view key) {
  int depth = 0;
  bool in_string = false;
  std::size_t string_start = 0;
  std::string_view last_key;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') {
        in_string = false;
        if (depth == 1) last_key = text.substr(string_start, i - string_start);
      }
      continue;
    }
    switch (c) {
      case '"': in_string = true; string_start = i + 1; break;
      case '{': case '[': ++depth; break;
      case '}': case ']': --depth; break;
      case ':':
        if (depth == 1 && last_key == key) {
          // The value runs to the next ',' or '}' at depth 1.
          std::size_t end = i + 1;
          int inner = 0;
          bool quoted = false;
          for (; end < text.size(); ++end) {
            const char v = text[end];
            if (quoted) {
              if (v == '\\') ++end;
              else if (v == '"') quoted = false;
              continue;
            }
            if (v == '"') quoted = true;
            else if (v == '{' || v == '[') ++inner;
            else if (v == '}' || v == ']') {
              if (inner == 0) break;
              --inner;
            } else if (v == ',' && inner == 0) break;
          }
          return text.substr(i + 1, end - i - 1);
        }
        break;
      default: break;
    }
  }
  return std::nullopt;
}

inline std::optional<std::int64_t> top_level_int(std::string_view text, std::string_view key) {
  const auto raw = top_level_field(text, key);
  if (!raw) return std::nullopt;
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(raw->data(), raw->data() + raw->size(), value);
  if (ec != std::errc()) return std::nullopt;
  return value;
}

}  // namespace parlour::bench
