// The strong guarantee of GameState::apply (rules/game.h): an action refused with
// a RulesError leaves the WHOLE state as it was, hidden parts included (the
// stock's order, other seats' hands, the rng), and an action accepted does the
// same on every copy of a state. Checked without a serializer of any game's
// state: a copy taken before is compared with the state after on everything a
// game shows (every seat's view and a spectator's, who is to act, every seat's
// listed actions, the phase, the result, the deals played), and then both are
// driven with the same random legal actions and next deals for some steps,
// compared after each: a hidden difference shows as soon as a card is drawn or
// dealt. Shared by the rules tests (tests/rules/playout.cpp) and the fuzzer
// (tests/fuzz/fuzz_games.cpp), so it reports problems as text, not through doctest.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rules/game.h"
#include "rules/rng.h"

namespace parlour::test {

using rules::Json;

// Where two states differ in what they show anyone; empty when they do not.
std::string differences(const rules::GameState& a, const rules::GameState& b, const rules::Balances& balances);

// Plays both states on with the same random legal actions (and next deals), for
// `steps` steps or until the game is over, comparing them and the effects after
// every step; the first difference, or empty. `balances` are the seats' chips,
// kept up to date with the effects.
std::string drive_apart(rules::GameState& a, rules::GameState& b, rules::Balances balances, rules::Rng& rng,
                        int steps);

// Applies `action` as `seat` to a copy of `game` (which stays as it is) and checks
// the guarantee: refused with a RulesError, the copy is the same as another copy
// taken before; accepted, a second copy given the same action has the same
// effects and state. Either way both are then driven `steps` steps on. Empty when
// it held, else what broke it. Any exception but a RulesError is a problem too.
std::string check_action(const rules::GameState& game, const rules::Balances& balances, int seat, const Json& action,
                         rules::Rng& rng, int steps);

// Actions made from a listed one (numbers in range filled in) that a game should
// mostly refuse: a made-up type, each field missing, given the wrong type, out
// of its range or made up, a card that is not one or another card, an array
// with an element dropped or doubled, an unknown field added. One of each kind
// the listed action allows, in random order.
std::vector<Json> mutations(const Json& listed, rules::Rng& rng);

// The guarantee at one step of a game: `tries` of the listed actions' mutations,
// as the seat to act and as a seat not to act, and one listed action as the
// seat to act (the accepted case). Problems, each naming the action.
std::vector<std::string> check_refusals(const rules::GameState& game, const rules::Balances& balances, int seat,
                                        const Json& legal, rules::Rng& rng, int tries, int steps);

}  // namespace parlour::test
