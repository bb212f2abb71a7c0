#include "rules/fair.h"

#include <map>

#include "rules/sha256.h"
#include "rules/shoe.h"

namespace parlour::rules::fair {

using Json = nlohmann::json;

std::string seed_material(const std::string& table, int deal, std::uint64_t seed, const std::string& salt) {
  return std::string(scheme) + "|" + table + "|" + std::to_string(deal) + "|" + std::to_string(seed) + "|" + salt;
}

std::string commitment(const std::string& table, int deal, std::uint64_t seed, const std::string& salt) {
  return sha256_hex(seed_material(table, deal, seed, salt));
}

std::vector<Card> shoe_deck(const PackSpec& pack, std::uint64_t seed, int shuffle,
                            const std::optional<std::vector<Card>>& stacked) {
  if (shuffle < 1) throw std::invalid_argument("shoe_deck: deals are numbered from 1, got " + std::to_string(shuffle));
  Shoe shoe(pack, seed, stacked);
  Stock stock;
  for (int deal = 1; deal <= shuffle; ++deal) stock = shoe.next_deal();
  return stock.cards_left();
}

namespace {

// "JK=8H" (a wild and what it stands for) is the card "JK".
std::string card_itself(const std::string& written) { return written.substr(0, written.find('=')); }

void collect(const Json& cards, std::vector<std::string>& out) {
  if (!cards.is_array()) return;
  for (const auto& card : cards)
    if (card.is_string() && card.get<std::string>() != "??") out.push_back(card_itself(card.get<std::string>()));
}

}  // namespace

std::optional<std::string> check_dealt(const std::vector<Card>& deck, const std::vector<Json>& seat_views,
                                       const Json& spectator_view) {
  std::size_t dealt = deck.size();
  for (const auto& pile : spectator_view.value("piles", Json::array()))
    if (pile.value("id", "") == "stock") {
      const auto stock = pile.value("count", std::size_t{0});
      if (stock > deck.size())
        return "the stock holds " + std::to_string(stock) + " cards; the deck has only " + std::to_string(deck.size());
      dealt = deck.size() - stock;
    }
  std::map<std::string, int> available;
  for (std::size_t i = 0; i < dealt; ++i) ++available[to_string(deck[i])];
  std::vector<std::pair<std::string, std::string>> shown;  // card, where
  for (std::size_t seat = 0; seat < seat_views.size(); ++seat) {
    std::vector<std::string> cards;
    for (const auto& entry : seat_views[seat].value("seats", Json::array()))
      if (entry.value("seat", -1) == static_cast<int>(seat)) collect(entry.value("cards", Json::array()), cards);
    for (auto& card : cards) shown.emplace_back(card, "seat " + std::to_string(seat) + "'s hand");
  }
  for (const auto& pile : spectator_view.value("piles", Json::array())) {
    const std::string id = pile.value("id", "");
    if (id == "stock") continue;
    std::vector<std::string> cards;
    if (pile.contains("cards")) collect(pile["cards"], cards);
    else if (pile.contains("top") && pile["top"].is_string()) collect(Json::array({pile["top"]}), cards);
    for (auto& card : cards) shown.emplace_back(card, "pile " + id);
  }
  for (const auto& meld : spectator_view.value("melds", Json::array())) {
    std::vector<std::string> cards;
    collect(meld.value("cards", Json::array()), cards);
    for (auto& card : cards) shown.emplace_back(card, "a meld");
  }
  if (const auto trick = spectator_view.find("trick"); trick != spectator_view.end() && trick->is_object())
    for (const auto& play : trick->value("plays", Json::array()))
      if (play.contains("card")) {
        std::vector<std::string> cards;
        collect(Json::array({play["card"]}), cards);
        for (auto& card : cards) shown.emplace_back(card, "the trick");
      }
  for (const auto& [card, where] : shown) {
    auto it = available.find(card);
    if (it == available.end() || it->second == 0)
      return card + " (" + where + ") is not among the top " + std::to_string(dealt) + " cards of the deck";
    --it->second;
  }
  return std::nullopt;
}

}  // namespace parlour::rules::fair
