#include "server/common/tokens.h"

#include <array>
#include <cctype>
#include <cstdint>
#include <random>

#include <sodium.h>
#include <stdexcept>

#include "rules/sha256.h"

namespace parlour::server {

namespace {

std::string hex(const unsigned char* bytes, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(digits[bytes[i] >> 4]);
    out.push_back(digits[bytes[i] & 15]);
  }
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view data) { return rules::sha256_hex(data); }

std::string random_id(std::size_t hex_digits) {
  thread_local std::random_device device;
  std::string out;
  while (out.size() < hex_digits) {
    const std::uint32_t word = device();
    unsigned char bytes[4] = {static_cast<unsigned char>(word), static_cast<unsigned char>(word >> 8),
                              static_cast<unsigned char>(word >> 16), static_cast<unsigned char>(word >> 24)};
    out += hex(bytes, 4);
  }
  out.resize(hex_digits);
  return out;
}

std::string new_token() { return random_id(64); }

std::uint64_t random_seed() {
  thread_local std::random_device device;
  return (std::uint64_t(device()) << 32) ^ device();
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

std::string new_recovery_code() {
  // Crockford's base32: 32 symbols, so each 5 bits of randomness is one symbol.
  static constexpr std::string_view symbols = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  thread_local std::random_device device;
  std::string code;
  for (int i = 0; i < 20; ++i) {
    if (i > 0 && i % 4 == 0) code.push_back('-');
    code.push_back(symbols[device() % symbols.size()]);
  }
  return code;
}

std::string normalized_code(std::string_view typed) {
  std::string code;
  for (const char c : typed) {
    if (c == '-' || c == ' ') continue;
    const char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    // Crockford's decoding: the letters a code never holds read as the digits they look like.
    code.push_back(upper == 'O' ? '0' : upper == 'I' || upper == 'L' ? '1' : upper);
  }
  return code;
}

std::string salted_hash(std::string_view code) {
  const auto salt = random_id(32);
  return salt + ":" + sha256_hex(salt + normalized_code(code));
}

bool salted_hash_matches(std::string_view code, std::string_view stored) {
  const auto colon = stored.find(':');
  if (colon == std::string_view::npos) return false;
  const std::string salt(stored.substr(0, colon));
  return constant_time_equal(sha256_hex(salt + normalized_code(code)), stored.substr(colon + 1));
}

namespace {

void sodium_ready() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw std::runtime_error("libsodium could not start");
}

}  // namespace

std::string passphrase_hash(std::string_view passphrase) {
  sodium_ready();
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, passphrase.data(), passphrase.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                            crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13) != 0)
    throw std::runtime_error("hashing a passphrase failed: out of memory");
  return out;
}

bool passphrase_matches(std::string_view passphrase, const std::string& stored) {
  sodium_ready();
  if (stored.empty()) return false;
  return crypto_pwhash_str_verify(stored.c_str(), passphrase.data(), passphrase.size()) == 0;
}

}  // namespace parlour::server
