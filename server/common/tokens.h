// Secret tokens for players: random, shown to the player once, stored only as a
// SHA-256 hash so a stolen database file does not hand out identities.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace parlour::server {

std::string new_token();                          // 256 random bits, hex
std::string random_id(std::size_t hex_digits);    // for table ids and invites
std::uint64_t random_seed();                      // for table seeds and bots
std::string sha256_hex(std::string_view data);
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace parlour::server
