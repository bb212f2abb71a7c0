#include "server/table/table_state.h"

#include <algorithm>

#include "rules/action.h"
#include "rules/fair.h"
#include "server/common/names.h"

namespace parlour::server {

using Json = nlohmann::json;

namespace {

std::string json_quoted(const std::string& line) {
  return Json(line).dump(-1, ' ', false, Json::error_handler_t::replace);
}

// An action in a log line: its type and its plain values, e.g. "discard 9D", "bet 1".
std::string describe(const Json& action) {
  std::string text = action.value("type", "?");
  for (const auto& [key, value] : action.items()) {
    if (key == "type") continue;
    if (value.is_string()) text += " " + value.get<std::string>();
    else if (value.is_number() || value.is_boolean()) text += " " + value.dump();
  }
  return text;
}

std::vector<rules::Card> stacked_deck(const std::string& deck_json) {
  std::vector<rules::Card> deck;
  for (const auto& card : Json::parse(deck_json)) {
    const auto parsed = rules::parse_card(card.get<std::string>());
    if (!parsed) throw std::runtime_error("the stacked deck holds '" + card.get<std::string>() + "', not a card");
    deck.push_back(*parsed);
  }
  return deck;
}

SeatState seat_from(const storage::Seat& seat) { return {seat.player, seat.bot, seat.bot_level, false, {}}; }

}  // namespace

TableState::TableState(storage::TableRecord record, const rules::GameInfo& game)
    : record_(std::move(record)), info_(&game), options_(Json::parse(record_.options_json)) {
  for (const auto& seat : record_.seats) seats_.push_back(seat_from(seat));
}

TableState::TableState(TableState&&) noexcept = default;
TableState& TableState::operator=(TableState&&) noexcept = default;
TableState::~TableState() = default;

TableState TableState::replay(storage::TableRecord record, const rules::GameInfo& game,
                              const std::vector<storage::Event>& events, const Observer& observe) {
  std::optional<TableState> state;
  const auto id = record.id;
  try {
    state.emplace(TableState(std::move(record), game));
  } catch (const std::exception& e) {
    throw ReplayError("table " + id + " cannot be restored: its options cannot be read: " + e.what());
  }
  state->replay_more(events, observe);
  return std::move(*state);
}

void TableState::replay_more(const std::vector<storage::Event>& events, const Observer& observe) {
  for (const auto& stored : events) {
    if (stored.seq <= seq_)
      throw ReplayError("the log of table " + record_.id + " has seq " + std::to_string(stored.seq) +
                        " after seq " + std::to_string(seq_));
    try {
      replay_event(stored, observe);
    } catch (const ReplayError&) {
      throw;
    } catch (const std::exception& e) {
      throw ReplayError("the log of table " + record_.id + " cannot be replayed at seq " + std::to_string(stored.seq) +
                        ": " + e.what());
    }
  }
}

void TableState::replay_event(const storage::Event& stored, const Observer& observe) {
  auto event = Json::parse(stored.json);
  const auto applied = apply_event(event, nullptr, stored.seq);
  seq_ = stored.seq;
  if (observe) observe(*this, ReplayedStep{stored.seq, event, applied});
}

AppliedEvent TableState::apply(Json& event, const ChipsNow& chips_now) {
  // Only a start or a deal event deals; the state before it is kept with it
  // where keeps_state says.
  const std::string& kind = event.at("kind").get_ref<const std::string&>();
  const bool may_deal = kind == "start" || kind == "deal";
  std::optional<Json> before;
  if (may_deal && keeps_state(deal_seq_, seq_ + 1)) before = snapshot();
  const int deals_before = deals_started_;
  auto applied = apply_event(event, chips_now ? &chips_now : nullptr, seq_ + 1);
  ++seq_;
  if (may_deal && deals_started_ > deals_before)
    applied.deal_start = storage::DealStart{
        deals_started_, seq_, deal_entry(seq_).dump(),
        before ? before->dump(-1, ' ', false, Json::error_handler_t::replace) : std::string()};
  return applied;
}

bool TableState::is_talk(const std::string& kind) {
  return kind == "chat" || kind == "mute" || kind == "rematch" || kind == "rematch_of" || kind == "ending";
}

// The one interpreter of events, live and replayed alike. `chips_now` is the
// live table's ledger; a replay reads the chips each event was applied to from
// the event itself.
AppliedEvent TableState::apply_event(Json& event, const ChipsNow* chips_now, std::int64_t seq) {
  const std::string kind = event.at("kind");
  if (is_talk(kind)) {
    if (chips_now) event["balances"] = (*chips_now)(seats_);
    AppliedEvent applied;
    applied.lines = apply_talk(event);
    if (const auto balances = event.find("balances"); balances != event.end())
      chips_ = balances->get<rules::Balances>();
    return applied;
  }
  rules::Balances chips = chips_now ? (*chips_now)(seats_) : event.at("balances").get<rules::Balances>();
  rules::Effects effects;
  const int deals_before = deals_started_;
  if (kind == "start") {
    start_game(event, chips, effects, chips_now != nullptr);
  } else if (!game_) {
    throw std::runtime_error("event '" + kind + "' before the game started");
  } else if (kind == "deal") {
    ++deals_without_action_;
    if (const auto changes = event.find("seats"); changes != event.end()) {
      change_seats(*changes, chips, effects);
      // The deal is dealt to the seats' new players, from their own chips.
      if (chips_now) chips = (*chips_now)(seats_);
    }
    if (game_->phase() == rules::Phase::deal_over) {
      effects.append(game_->start_next_deal(chips));
      deal_committed(effects);
    }
  } else if (kind == "act") {
    const int seat = event.at("seat").get<int>();
    effects = game_->apply(seat, event.at("action"), chips);
    deals_without_action_ = 0;
    if (const auto id = event.find("action_id"); id != event.end()) remember_action(seat, id->get<std::string>(), seq);
    // An action the table played when the seat's clock ran out says so.
    if (event.value("by", "") == "clock")
      effects.log.insert(effects.log.begin(),
                         rules::seat_tag(seat) + "'s time ran out: the table plays " + describe(event.at("action")) + ".");
  } else if (kind == "leave") {
    const int seat = event.at("seat").get<int>();
    seats_.at(seat).left = true;
    effects = game_->seat_left(seat, chips);
  } else if (kind == "unseat") {
    // The seat changes hands at the next deal; until then a bot plays it.
    const int seat = event.at("seat").get<int>();
    seats_.at(seat).leaving = event.at("replace").get<std::string>();
    if (event.value("by", "") == "player")
      effects.say(rules::seat_tag(seat) + " leaves the table: a bot plays their hand to the end of this deal, and " +
                  (info_->seats_change_between_deals ? "the seat is open from the next deal."
                                                     : "the game goes on without them from the next deal."));
    else if (!info_->seats_change_between_deals)
      effects.say("The host takes " + rules::seat_tag(seat) + " out of the game: a bot plays their hand to the end "
                  "of this deal, and the game goes on without them from the next deal.");
    else
      effects.say("The host frees " + rules::seat_tag(seat) + "'s seat: from the next deal it goes to " +
                  (seats_[seat].leaving == "bot" ? "a bot." : "a new player (or stays empty)."));
  } else if (kind == "close") {
    effects = game_->close(chips);
    closed_ = true;
  } else {
    throw std::runtime_error("unknown event kind '" + kind + "'");
  }
  if (deals_started_ != deals_before) deal_seq_ = seq;
  if (chips_now) event["balances"] = chips;
  // Replayed steps' chips are in the ledger already: their postings only tell a
  // history what moved, and one for a seat nobody holds (a log from before the
  // start event said who sat where) is left out rather than stop the replay.
  AppliedEvent applied;
  applied.postings = to_postings(effects.transfers, chips_now == nullptr);
  standings_.add_transfers(effects.transfers);
  note_deal_settled(kind);
  applied.lines = add_log(effects.log);
  chips_after(event, applied.postings);
  return applied;
}

// Play uses the occupied seats only, renumbered in order, except in games that
// take players between deals, whose empty seats stay in the game, out of play,
// for friends who come late. Nothing changes unless the game is made.
void TableState::start_game(Json& event, rules::Balances& chips, rules::Effects& effects, bool live) {
  auto seats = seats_;
  if (const auto seated = event.find("seated"); seated != event.end()) {
    // The seats change hands later: a replay starts from these, not the record's.
    for (std::size_t s = 0; s < seated->size() && s < seats.size(); ++s) {
      const auto& at = (*seated)[s];
      seats[s] = SeatState{at.value("player", ""), at.value("bot", false), at.value("level", 0), false, {}};
    }
  } else if (!info_->seats_change_between_deals) {
    std::vector<std::size_t> kept;
    for (std::size_t s = 0; s < seats.size(); ++s)
      if (!seats[s].player.empty()) kept.push_back(s);
    if (kept.size() != seats.size()) {
      std::vector<SeatState> compact;
      rules::Balances compact_chips;
      for (auto s : kept) {
        compact.push_back(seats[s]);
        if (s < chips.size()) compact_chips.push_back(chips[s]);
      }
      seats = std::move(compact);
      if (compact_chips.size() == seats.size()) chips = std::move(compact_chips);
    }
  }
  const auto open = event.value("open", std::vector<int>{});
  std::vector<int> occupied;
  for (int s = 0; s < static_cast<int>(seats.size()); ++s)
    if (std::find(open.begin(), open.end(), s) == open.end()) occupied.push_back(s);
  // The first dealer is drawn from the seed, among the seats taken, and kept in
  // the event; logs written before it was drawn had seat 0 deal first.
  if (live && !event.contains("first_dealer"))
    event["first_dealer"] = occupied.at(rules::draw_first_dealer(record_.seed, static_cast<int>(occupied.size())));
  auto game = rules::Registry::create(*info_, game_setup(static_cast<int>(seats.size()), chips, event.value("first_dealer", 0)));
  for (int s : open) {
    // Out of play until someone takes it; what the game says of a seat leaving is not news here.
    seats.at(s) = SeatState{};
    seats.at(s).left = true;
    game->seat_left(s, chips);
  }
  effects = game->start_next_deal(chips);
  // Made: from here on nothing throws on a sound log.
  seats_ = std::move(seats);
  game_ = std::move(game);
  standings_.start(static_cast<int>(seats_.size()));
  // The salt joins the seed in every deal's commitment (rules/fair.h); logs
  // written before it was kept have none.
  fair_salt_ = event.value("fair_salt", "");
  deal_committed(effects);
}

// A deal event's seat changes. A seat that changes hands starts afresh in the
// game; one left empty is out of play until taken.
void TableState::change_seats(const Json& changes, const rules::Balances& chips, rules::Effects& effects) {
  for (const auto& change : changes) {
    const int seat = change.at("seat").get<int>();
    auto& s = seats_.at(seat);
    const std::string before = s.player;
    if (change.value("left", false)) {
      // A game played to its end by those who started it: the player who left
      // in the middle of the last deal is out of the game now, between deals.
      if (!s.left) effects.append(game_->seat_left(seat, chips));
      s.left = true;
      s.leaving.clear();
      continue;
    }
    if (change.at("player").is_null()) {
      if (!s.left) game_->seat_left(seat, chips);
      standings_.seat_changes_hands(seat, before, s.bot);
      s = SeatState{};
      s.left = true;
      effects.say(before.empty() ? "Seat " + std::to_string(seat) + " is open."
                                 : before + " has gone; seat " + std::to_string(seat) + " is open.");
      continue;
    }
    effects.append(game_->seat_taken(seat, chips));
    standings_.seat_changes_hands(seat, before, s.bot);
    s = SeatState{change.at("player").get<std::string>(), change.value("bot", false), change.value("level", 0), false, {}};
    effects.say(s.player + " takes seat " + std::to_string(seat) + " and is dealt in.");
  }
}

// A deal has started: its commitment is announced with its first cards, in the
// same push and before them in the log (docs/protocol.md "Provably fair deals").
void TableState::deal_committed(rules::Effects& effects) {
  ++deals_started_;
  commitment_ = commitment(deals_started_);
  effects.log.insert(effects.log.begin(), "Deal " + std::to_string(deals_started_) +
                                              " is dealt from a committed deck: sha256 " + commitment_ + ".");
}

// A deal that settled (by an action, a deal that could not be played, a player
// leaving) counts in the standings; the table's close is no deal of its own.
void TableState::note_deal_settled(const std::string& kind) {
  if (kind == "close" || !game_ || game_->phase() == rules::Phase::playing) return;
  standings_.add_settled_deal(game_->result());
}

// Applies a talk event to the table's memory, when it happens and when the log
// is replayed alike.
std::vector<std::string> TableState::apply_talk(const Json& event) {
  const std::string kind = event.at("kind");
  if (kind == "chat") {
    const std::string player = event.at("player");
    Json line = {{"player", player}, {"time", event.value("time", std::int64_t{0})}, {"log_at", log_total_}};
    if (event.contains("text")) line["text"] = event["text"];
    else line["reaction"] = event.at("reaction");
    talk_.chat.push_back(line.dump(-1, ' ', false, Json::error_handler_t::replace));
    ++talk_.chat_total;
    if (talk_.chat.size() > chat_lines_kept) talk_.chat.pop_front();
    talk_.chatters[folded_name(player)] = player;
  } else if (kind == "mute") {
    const std::string player = event.at("player");
    if (event.at("muted").get<bool>()) {
      talk_.muted[folded_name(player)] = player;
      return add_log({"The host muted " + player + " at this table."});
    }
    talk_.muted.erase(folded_name(player));
    return add_log({"The host lifted " + player + "'s mute."});
  } else if (kind == "rematch") {
    talk_.rematch = Json{{"table", event.at("table")}, {"same_seed", event.value("same_seed", false)}};
    return add_log({std::string("The host opened a rematch") + (event.value("same_seed", false) ? " with the same deals" : "") +
             ": table " + event.at("table").get<std::string>() + "."});
  } else if (kind == "rematch_of") {
    talk_.rematch_of = Json{{"table", event.at("table")},
                            {"same_seed", event.value("same_seed", false)},
                            {"standings", event.value("standings", Json())}};
  } else if (kind == "ending") {
    ending_ = true;
    return add_log({"The host ends the table after this deal (send end again to stop it now)."});
  }
  return {};
}

// The game's setup at the start, and for a snapshot's game before it is restored.
rules::GameSetup TableState::game_setup(int players, rules::Balances chips, int first_dealer) const {
  rules::GameSetup setup{options_, players, record_.seed, std::nullopt, std::move(chips)};
  setup.first_dealer = first_dealer;
  if (!record_.deck_json.empty()) setup.stacked_deck = stacked_deck(record_.deck_json);
  return setup;
}

int TableState::draw_first_dealer() const {
  std::vector<int> occupied;
  for (int s = 0; s < static_cast<int>(seats_.size()); ++s)
    if (!seats_[s].player.empty()) occupied.push_back(s);
  if (occupied.empty()) return 0;
  return occupied.at(rules::draw_first_dealer(record_.seed, static_cast<int>(occupied.size())));
}

void TableState::set_seat(int seat, SeatState state) { seats_.at(seat) = std::move(state); }

void TableState::set_failure(const std::string& failure) {
  record_.failure = failure;
  record_.status = "finished";
}

void TableState::say(const std::string& line) { add_log({line}); }

std::vector<std::string> TableState::add_log(const std::vector<std::string>& lines) {
  std::vector<std::string> named;
  for (const auto& line : lines) {
    named.push_back(name_seats(line));
    log_.push_back(json_quoted(named.back()));
    ++log_total_;
    if (log_.size() > log_lines_kept) log_.pop_front();
  }
  return named;
}

std::string TableState::name_seats(const std::string& line) const {
  std::string out = line;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat) {
    const std::string tag = rules::seat_tag(seat);
    const std::string name = seats_[seat].player.empty() ? "seat " + std::to_string(seat) : seats_[seat].player;
    for (auto pos = out.find(tag); pos != std::string::npos; pos = out.find(tag, pos + name.size()))
      out.replace(pos, tag.size(), name);
  }
  return out;
}

std::vector<storage::Posting> TableState::to_postings(const std::vector<rules::Transfer>& transfers,
                                                     bool skip_unheld) const {
  std::vector<storage::Posting> out;
  auto held = [&](const rules::Account& a) {
    return !a.is_seat() || (a.seat >= 0 && a.seat < static_cast<int>(seats_.size()) && !seats_[a.seat].player.empty());
  };
  auto account = [&](const rules::Account& a) {
    if (!held(a)) throw std::logic_error("the rules moved chips for seat " + std::to_string(a.seat) + ", which nobody holds");
    return a.is_seat() ? storage::player_account(seats_[a.seat].player) : storage::pool_account(record_.id, a.pool);
  };
  std::optional<std::int64_t> deal;
  if (game_ && game_->deals_played() > 0) deal = game_->deals_played();
  for (const auto& t : transfers) {
    if (skip_unheld && (!held(t.from) || !held(t.to))) continue;
    // Every movement names its game and the players the rules named by seat.
    out.push_back({account(t.from), account(t.to), t.amount, info_->name + ": " + name_seats(t.memo), record_.id,
                   info_->id, std::nullopt, deal});
  }
  return out;
}

// Each seat's chips after the event: as the rules saw them before it, plus what it moved.
void TableState::chips_after(const Json& event, const std::vector<storage::Posting>& postings) {
  const auto before = event.value("balances", Json::array());
  chips_.assign(seats_.size(), 0);
  for (std::size_t seat = 0; seat < seats_.size(); ++seat) {
    std::int64_t amount = seat < before.size() ? before[seat].get<std::int64_t>() : 0;
    if (!seats_[seat].player.empty()) {
      const auto account = storage::player_account(seats_[seat].player);
      for (const auto& posting : postings) {
        if (posting.from == account) amount -= posting.amount;
        if (posting.to == account) amount += posting.amount;
      }
    }
    chips_[seat] = amount;
  }
}

void TableState::remember_action(int seat, const std::string& action_id, std::int64_t seq) {
  auto& ids = action_ids_[seat];
  ids.emplace_back(action_id, seq);
  if (ids.size() > max_action_ids_per_seat) ids.pop_front();
}

std::optional<std::int64_t> TableState::seq_of_action(int seat, const std::string& action_id) const {
  const auto it = action_ids_.find(seat);
  if (it == action_ids_.end()) return std::nullopt;
  for (const auto& [id, seq] : it->second)
    if (id == action_id) return seq;
  return std::nullopt;
}

std::optional<int> TableState::seat_of(const std::string& player) const {
  if (player.empty()) return std::nullopt;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat)
    if (!seats_[seat].bot && same_name(seats_[seat].player, player)) return seat;
  return std::nullopt;
}

std::vector<storage::Seat> TableState::stored_seats() const {
  std::vector<storage::Seat> out;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat)
    out.push_back({seat, seats_[seat].player, seats_[seat].bot, seats_[seat].bot_level});
  return out;
}

std::string TableState::commitment(int deal) const {
  return rules::fair::commitment(record_.id, deal, record_.seed, fair_salt_);
}

Json TableState::fair_json() const {
  if (deals_started_ == 0) return Json();
  Json fair = {{"deal", deals_started_}, {"commitment", commitment_}};
  if (finished()) {
    // The table is over: the seed is revealed (as a string: it does not fit a JavaScript number).
    fair["scheme"] = rules::fair::scheme;
    fair["seed"] = std::to_string(record_.seed);
    fair["salt"] = fair_salt_;
  }
  return fair;
}

void TableState::write_legal_for(int seat, const rules::Balances& chips, rules::JsonWriter& out) const {
  const auto nothing = [&] { out.array([] {}); };
  if (!in_play() || seats_.at(seat).left) return nothing();
  if (game_->phase() == rules::Phase::deal_over) {
    if (ending_) return nothing();
    return out.array([&] { rules::write_bare_action(out, "continue"); });
  }
  const auto acting = game_->to_act();
  if (std::find(acting.begin(), acting.end(), seat) == acting.end()) return nothing();
  game_->write_legal_actions(seat, chips, out);
}

Json TableState::legal_for(int seat, const rules::Balances& chips) const {
  return rules::json_tree_of([&](rules::JsonWriter& out) { write_legal_for(seat, chips, out); });
}

bool TableState::is_muted(const std::string& player) const { return talk_.muted.count(folded_name(player)) > 0; }

Json TableState::standings() const {
  if (!standings_.started() || failed()) return Json();
  std::vector<std::string> names;
  std::vector<bool> bots;
  for (const auto& seat : seats_) {
    names.push_back(seat.player);
    bots.push_back(seat.bot);
  }
  return standings_.to_json(names, bots);
}

}  // namespace parlour::server
