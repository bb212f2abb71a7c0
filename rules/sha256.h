// SHA-256 (FIPS 180-4), small and dependency-free: it hashes player tokens and
// the commitments to each deal's seed (rules/fair.h). Pure, so a verifier can
// link it without the server.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace parlour::rules {

std::array<std::uint8_t, 32> sha256(std::string_view data);
// The digest as 64 lower-case hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace parlour::rules
