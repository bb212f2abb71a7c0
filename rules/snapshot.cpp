#include "rules/snapshot.h"

namespace parlour::rules {

Json card_json(Card card) { return to_string(card); }

Card card_from(const Json& json) {
  if (!json.is_string()) throw SnapshotError("expected a card, got " + json.dump());
  const auto card = parse_card(json.get<std::string>(), Ranks::with_eleven_twelve);
  if (!card) throw SnapshotError("expected a card, got " + json.dump());
  return *card;
}

Json cards_json(const std::vector<Card>& cards) {
  Json out = Json::array();
  for (const auto card : cards) out.push_back(card_json(card));
  return out;
}

std::vector<Card> cards_from(const Json& json) {
  if (!json.is_array()) throw SnapshotError("expected an array of cards, got " + json.dump());
  std::vector<Card> out;
  out.reserve(json.size());
  for (const auto& card : json) out.push_back(card_from(card));
  return out;
}

Json card_lists_json(const std::vector<std::vector<Card>>& lists) {
  Json out = Json::array();
  for (const auto& cards : lists) out.push_back(cards_json(cards));
  return out;
}

std::vector<std::vector<Card>> card_lists_from(const Json& json) {
  if (!json.is_array()) throw SnapshotError("expected an array of card lists, got " + json.dump());
  std::vector<std::vector<Card>> out;
  out.reserve(json.size());
  for (const auto& cards : json) out.push_back(cards_from(cards));
  return out;
}

Json optional_card_json(const std::optional<Card>& card) { return card ? card_json(*card) : Json(nullptr); }

std::optional<Card> optional_card_from(const Json& json) {
  if (json.is_null()) return std::nullopt;
  return card_from(json);
}

Json rng_json(const Rng& rng) { return rng.state(); }

Rng rng_from(const Json& json) {
  if (!json.is_array() || json.size() != 4) throw SnapshotError("expected an rng's four words, got " + json.dump());
  std::array<std::uint64_t, 4> state{};
  for (std::size_t i = 0; i < 4; ++i) {
    if (!json[i].is_number_unsigned() && !(json[i].is_number_integer() && json[i].get<std::int64_t>() >= 0))
      throw SnapshotError("expected an rng's four words, got " + json.dump());
    state[i] = json[i].get<std::uint64_t>();
  }
  return Rng::from_state(state);
}

void expect_size(const Json& json, std::size_t size, const char* what) {
  if (!json.is_array() || json.size() != size)
    throw SnapshotError(std::string("expected ") + std::to_string(size) + " " + what + ", got " +
                        (json.is_array() ? std::to_string(json.size()) : json.dump()));
}

const Json& member(const Json& json, const char* key) {
  if (!json.is_object()) throw SnapshotError(std::string("expected an object holding \"") + key + "\"");
  const auto found = json.find(key);
  if (found == json.end()) throw SnapshotError(std::string("expected \"") + key + "\" in the snapshot");
  return *found;
}

}  // namespace parlour::rules
