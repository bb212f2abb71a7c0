// §8.1 the deal and who is player X; a game set up at a position (docs/protocol.md
// "Russian Bank" describes the position object).
#include "rules/games/russian_bank/game.h"

#include "rules/building/pile_view.h"

namespace parlour::rules::russian_bank {

// §8.1: the lowest card, then the next lowest; with equal ranks the earlier deal
// position of the equal cards, lowest rank first. -1 when still tied.
int first_by_layout(const Columns& columns) {
  std::array<std::vector<int>, players> ranks;
  for (int seat = 0; seat < players; ++seat) {
    for (auto card : columns[seat]) ranks[seat].push_back(card.rank);
    std::sort(ranks[seat].begin(), ranks[seat].end());
  }
  if (ranks[0] != ranks[1]) return ranks[0] < ranks[1] ? 0 : 1;
  for (int rank = ace; rank <= king; ++rank) {
    std::array<std::vector<int>, players> positions;
    for (int seat = 0; seat < players; ++seat)
      for (int k = 0; k < column; ++k)
        if (columns[seat][k].rank == rank) positions[seat].push_back(k);
    if (positions[0] != positions[1]) return positions[0] < positions[1] ? 0 : 1;
  }
  return -1;
}

void RussianBank::deal(Effects& fx) {
  const auto packs = building::own_packs(players, seed_, stacked_);
  Columns columns;
  for (int seat = 0; seat < players; ++seat) {
    const auto& pack = packs[seat];
    auto& side = sides_[seat];
    side.set_stock(Pile(pack.rbegin() + (pack.size() - stock_size), pack.rend()), 0);
    for (int k = 0; k < column; ++k) {
      layout_[seat * column + k] = {pack[stock_size + k]};
      columns[seat][k] = pack[stock_size + k].card;
    }
    side.hand.assign(pack.rbegin(), pack.rbegin() + (pack.size() - stock_size - column));
  }
  first_ = first_by_layout(columns);
  if (first_ < 0) {
    Rng rng(seed_ ^ 0x9e3779b97f4a7c15ULL);
    first_ = static_cast<int>(rng.below(players));
    fx.say("Both columns are alike; the draw makes " + seat_tag(first_) + " player X.");
  } else {
    fx.say(seat_tag(first_) + " dealt the lowest layout card and is player X.");
  }
  mover_ = first_;
}

void RussianBank::set_up(const Json& position) {
  if (!position.is_object()) throw SetupError("position: expected an object, got " + position.dump());
  first_ = position.value("first", 0);
  mover_ = position.value("mover", first_);
  if (first_ < 0 || first_ >= players || mover_ < 0 || mover_ >= players)
    throw SetupError("position: 'first' and 'mover' are seats 0 or 1");
  turn_number_ = position.value("turn", 1) - 1;
  const Json layout = position.value("layout", Json::array());
  const Json centre = position.value("centre", Json::array());
  const Json seats = position.value("seats", Json::array());
  if (layout.size() > piles || centre.size() > piles || seats.size() > players)
    throw SetupError("position: at most 8 layout piles, 8 bases and 2 seats");
  std::vector<const Pile*> all;
  for (std::size_t i = 0; i < layout.size(); ++i) layout_[i] = building::parse_pile(layout[i], i < column ? 0 : 1);
  for (std::size_t i = 0; i < centre.size(); ++i) {
    centre_[i] = building::parse_pile(centre[i], 0);
    check_base(centre_[i]);
  }
  for (std::size_t s = 0; s < seats.size(); ++s) set_up_side(static_cast<int>(s), seats[s]);
  for (const auto& pile : layout_) all.push_back(&pile);
  for (const auto& pile : centre_) all.push_back(&pile);
  std::vector<Pile> turned(players);
  for (int s = 0; s < players; ++s) {
    const auto& side = sides_[s];
    all.insert(all.end(), {&side.stock(), &side.hand, &side.discards[0]});
    if (side.turned) turned[s].push_back(*side.turned);
    all.push_back(&turned[s]);
  }
  building::check_copies(all, 1);
}

void RussianBank::check_base(const Pile& base) {
  Pile built;
  for (const auto& owned : base) {
    if (!building::builds_up_in_suit(owned.card, built))
      throw SetupError("position: a base must run up in suit from the ace");
    built.push_back(owned);
  }
}

// "stock_up": true (the default: the top card), false, or how many cards at
// the top lie face up: the card the owner turned up and any loaded on it.
void RussianBank::set_up_stock(int seat, Pile stock, const Json& up) {
  std::size_t face_up = stock.empty() ? 0 : 1;
  if (up.is_boolean()) face_up = up.get<bool>() ? face_up : 0;
  else if (up.is_number_integer() && up.get<std::int64_t>() >= 0 && up.get<std::uint64_t>() <= stock.size())
    face_up = up.get<std::size_t>();
  else if (!up.is_null())
    throw SetupError("position: 'stock_up' is true, false or how many of the stock's " + std::to_string(stock.size()) +
                     " cards lie face up, got " + up.dump());
  check_stock_run(seat, stock, face_up);
  sides_[seat].set_stock(std::move(stock), face_up);
}

// A stock holds its owner's cards as dealt, face down, but for the card he
// turned up and, face up on it, each card loaded on the one beneath (same
// suit, one rank up or down): the loads are what may come from either pack.
void RussianBank::check_stock_run(int seat, const Pile& stock, std::size_t face_up) {
  const std::string where = "position: stock:" + std::to_string(seat) + " ";
  const std::size_t first_loaded = stock.size() - face_up + 1;
  for (std::size_t i = 0; i < stock.size(); ++i) {
    const std::string card = to_string(stock[i].card);
    if (face_up == 0 || i < first_loaded) {
      if (stock[i].owner != seat)
        throw SetupError(where + "holds " + card + " of seat " + std::to_string(stock[i].owner) +
                         "'s pack where no load lies: a loaded card lies face up ('stock_up' counts the face-up "
                         "cards)");
    } else if (!building::loads_in_suit(stock[i].card, Pile{stock[i - 1]})) {
      throw SetupError(where + "shows " + card + " face up on " + to_string(stock[i - 1].card) +
                       ": a card lies face up on a stock card only when loaded on it (same suit, one rank up or "
                       "down)");
    }
  }
}

void RussianBank::set_up_side(int seat, const Json& json) {
  auto& side = sides_[seat];
  set_up_stock(seat, building::parse_pile(json.value("stock", Json::array()), seat), json.value("stock_up", Json()));
  side.hand = building::parse_pile(json.value("hand", Json::array()), seat);
  side.discards[0] = building::parse_pile(json.value("discard", Json::array()), seat);
  const Json turned = json.value("turned", Json());
  if (!turned.is_null()) side.turned = building::parse_owned_card(turned, seat);
}

}  // namespace parlour::rules::russian_bank
