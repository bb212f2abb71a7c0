// The browser calls a table by a title worked out from its id alone
// (web-client/js/names.js tableTitle: one of 20 words times 6 rooms, chosen by
// the id's 32-bit FNV-1a hash), so every browser says the same. The server
// chooses each new table's id so that no table open here has its title: two
// tables open at once are not both "the Willow Alcove". The browser test
// "Tables open at once have different titles" checks that the two agree.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

namespace parlour::server {

inline constexpr std::uint32_t kTableTitles = 120;

// Which of the kTableTitles titles the browser gives the table `id` (an ASCII id:
// FNV-1a over its bytes is FNV-1a over its code points, as names.js hashes).
inline std::uint32_t table_title_slot(std::string_view id) {
  std::uint32_t h = 2166136261u;
  for (const unsigned char c : id) h = (h ^ c) * 16777619u;
  return h % kTableTitles;
}

// The first id `draw` makes whose title is not `taken`. Past about a hundred
// open tables a free title takes many draws to find: after 64, two tables may
// share one.
template <class Draw>
std::string id_with_free_title(const std::set<std::uint32_t>& taken, Draw draw) {
  std::string id = draw();
  for (int tries = 1; tries < 64 && taken.contains(table_title_slot(id)); ++tries) id = draw();
  return id;
}

}  // namespace parlour::server
