#include "rules/building/packs.h"

#include <algorithm>
#include <map>

#include "rules/registry.h"
#include "rules/rng.h"

namespace parlour::rules::building {

namespace {

constexpr std::size_t pack_size = 52;

}  // namespace

std::vector<std::vector<OwnedCard>> own_packs(int seats, std::uint64_t seed,
                                              const std::optional<std::vector<Card>>& stacked) {
  const std::vector<Card> listed_all = stacked.value_or(std::vector<Card>{});
  if (listed_all.size() > pack_size * static_cast<std::size_t>(seats))
    throw SetupError("stacked deck: " + std::to_string(listed_all.size()) + " cards, but " + std::to_string(seats) +
                     " packs hold only " + std::to_string(pack_size * seats));
  Rng rng(seed);
  std::vector<std::vector<OwnedCard>> packs;
  for (int seat = 0; seat < seats; ++seat) {
    const auto first = std::min(listed_all.size(), pack_size * seat);
    const auto last = std::min(listed_all.size(), pack_size * (seat + 1));
    std::vector<Card> rest = make_pack(PackSpec{});
    std::vector<Card> pack;
    for (auto i = first; i < last; ++i) {
      auto it = std::find(rest.begin(), rest.end(), listed_all[i]);
      if (it == rest.end())
        throw SetupError("stacked deck: " + to_string(listed_all[i]) + " appears twice in seat " +
                         std::to_string(seat) + "'s pack");
      rest.erase(it);
      pack.push_back(listed_all[i]);
    }
    rng.shuffle(rest);
    pack.insert(pack.end(), rest.begin(), rest.end());
    std::vector<OwnedCard> owned;
    for (auto card : pack) owned.push_back({card, seat});
    packs.push_back(std::move(owned));
  }
  return packs;
}

OwnedCard parse_owned_card(const Json& text, int default_owner) {
  if (!text.is_string()) throw SetupError("position: a card must be a string like \"7C\" or \"7C/1\", got " + text.dump());
  const auto value = text.get<std::string>();
  const auto slash = value.find('/');
  const auto card = parse_card(value.substr(0, slash));
  int owner = default_owner;
  if (slash != std::string::npos) {
    const auto seat = value.substr(slash + 1);
    if (seat.size() != 1 || seat[0] < '0' || seat[0] > '9') throw SetupError("position: bad owner in " + value);
    owner = seat[0] - '0';
  }
  if (!card || card->is_joker()) throw SetupError("position: not a card: " + value);
  return {*card, owner};
}

Pile parse_pile(const Json& cards, int default_owner) {
  if (cards.is_null()) return {};
  if (!cards.is_array()) throw SetupError("position: a pile must be an array of cards, got " + cards.dump());
  Pile pile;
  for (const auto& card : cards) pile.push_back(parse_owned_card(card, default_owner));
  return pile;
}

void check_copies(const std::vector<const Pile*>& piles, int copies) {
  std::map<std::pair<int, std::string>, int> seen;
  for (const auto* pile : piles)
    for (const auto& owned : *pile)
      if (++seen[{owned.owner, to_string(owned.card)}] > copies)
        throw SetupError("position: " + to_string(owned.card) + " of seat " + std::to_string(owned.owner) +
                         "'s pack appears more than " + std::to_string(copies) + " time(s)");
}

}  // namespace parlour::rules::building
