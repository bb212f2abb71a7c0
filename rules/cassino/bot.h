// The level-1 Cassino bot: from the seat's view and legal list only. It takes
// the most valuable capture there is, else makes the most valuable build (never
// giving up the card that takes a build it owns: the legal list keeps that duty),
// else trails its least useful card.
#pragma once

#include "rules/bot.h"

namespace parlour::rules::cassino {

Json cassino_bot(const Json& view, const Json& legal, Rng& rng);

}  // namespace parlour::rules::cassino
