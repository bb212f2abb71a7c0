// Player names are matched without regard to case, everywhere the same way
// (ASCII only: names are ASCII, docs/protocol.md "Names").
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace parlour::server {

// The name as it is compared and keyed: lower case.
inline std::string folded_name(std::string_view name) {
  std::string out(name);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

inline bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace parlour::server
