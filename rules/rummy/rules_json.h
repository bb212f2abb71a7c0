// The Rummy engine's meld rules and card values as the view's "rules" block
// writes them (docs/protocol.md, "Rummy family"), and read back from it: both
// directions in one place, so that a field the view gains is one a view-only
// reader (the level-1 bot, rules/rummy/bot.h) can read.
#pragma once

#include "rules/game.h"
#include "rules/rummy/meld.h"
#include "rules/rummy/values.h"

namespace parlour::rules::rummy {

void write_meld_rules(JsonWriter& out, const MeldRules& rules);
void write_card_values(JsonWriter& out, const CardValues& values);
Json meld_rules_json(const MeldRules& rules);
Json card_values_json(const CardValues& values);

// Fields missing (or a value that is not an object) keep the defaults.
MeldRules meld_rules_from(const Json& written);
CardValues card_values_from(const Json& written);

// A game option that is on or off (the options were checked against the game's schema).
bool option_on(const Json& options, const char* name);

}  // namespace parlour::rules::rummy
