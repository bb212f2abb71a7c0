// What Michigan, Five Hundred and Persian Rummy share (rules/rummy.md §2.3–2.5):
// a spread discard pile whose deepest card taken must be melded at once, Michigan
// values, aces high or low, 13 cards for two players and 7 otherwise, two packs
// from five players. Each game adjusts the rest.
#pragma once

#include "rules/rummy/rummy_base.h"

namespace parlour::rules::rummy {

// Reads `top_card_free`, `stake`, `deals` and (if present) `max_restocks` from the options.
RummyConfig michigan_family_config(const Json& options, int players);

// The `top_card_free` option all three games offer.
OptionSpec top_card_free_option();

}  // namespace parlour::rules::rummy
