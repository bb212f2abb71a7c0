// Settle-up: who pays whom, in as few payments as possible, so that every
// person's net over a set of tables is squared. Pure: no database, no network.
//
// Everybody's nets sum to zero only when every chip went from person to person.
// Chips won from or lost to bots and pools belong to no person, so nobody can
// pay them: settle() adds "the house" (bots and pools together) as one more
// party with the opposite of the persons' sum, settles everybody, and reports the
// house's part apart (`from_house`/`to_house` lines) rather than as payments.
//
// The fewest payments is NP-hard in general (it is a partition into the most
// zero-sum groups: a group of k parties needs k-1 payments, and never fewer).
// Up to `exact_limit` parties with a non-zero net it is solved exactly by
// dynamic programming over subsets (2^n states); beyond that it falls back to
// the greedy rule "the largest debtor pays the largest creditor", which needs at
// most n-1 payments but may use more than the fewest.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace parlour::server {

struct Net {
  std::string name;
  std::int64_t amount = 0;  // + won, - lost
  friend bool operator==(const Net&, const Net&) = default;
};

struct Payment {
  std::string from;
  std::string to;
  std::int64_t amount = 0;  // > 0
  friend bool operator==(const Payment&, const Payment&) = default;
};

struct Settlement {
  std::vector<Payment> payments;  // person to person, in the order they were found
  // What no person pays: a person's winnings that came from bots or pools
  // (from_house), a person's losses that went to them (to_house).
  std::vector<Net> from_house;
  std::vector<Net> to_house;
  bool exact = true;  // false when the greedy fallback was used
};

inline constexpr int exact_limit = 16;

// `nets` are the persons' nets, one per name (names unique). Deterministic:
// ties are broken by name, and the output does not depend on the input order.
Settlement settle(std::vector<Net> nets);

// The greedy rule alone, for comparison and for groups beyond exact_limit; the
// nets must sum to zero.
std::vector<Payment> settle_greedily(std::vector<Net> nets);

}  // namespace parlour::server
