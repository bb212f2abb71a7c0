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

// Recovery codes (docs/playing.md "Accounts and recovery"): 100 random bits written as
// 20 letters and digits in groups of four, "7KQ2-M9XD-...", in Crockford's
// base32 (no I, L, O or U). Typed back in any case, with or without dashes,
// an O for a 0 and an I or L for a 1.
std::string new_recovery_code();
// The code as compared: upper case, spaces and dashes dropped, O read as 0, I and L as 1.
std::string normalized_code(std::string_view typed);
// "SALT:HASH", the SHA-256 of a random salt and the normalized code, so that a
// stolen database gives nothing to look up; checked in constant time.
std::string salted_hash(std::string_view code);
bool salted_hash_matches(std::string_view code, std::string_view stored);

// Passphrases: Argon2id through libsodium (its string holds salt and
// parameters; interactive limits, 64 MiB a hash: run it off the I/O threads).
std::string passphrase_hash(std::string_view passphrase);
bool passphrase_matches(std::string_view passphrase, const std::string& stored);

}  // namespace parlour::server
