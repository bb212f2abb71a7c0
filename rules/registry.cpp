#include "rules/registry.h"

#include "rules/snapshot.h"

#include <algorithm>
#include <cctype>

#include "rules/rng.h"
#include "rules/snapshot.h"
#include "rules/view.h"

#include "rules/games/red_dog.h"
#include "rules/games/ranter_go_round.h"
#include "rules/games/red_and_black.h"
#include "rules/games/rummy.h"
#include "rules/games/michigan_rummy.h"
#include "rules/games/five_hundred_rummy.h"
#include "rules/games/persian_rummy.h"
#include "rules/games/straight_rummy.h"
#include "rules/games/queen_city_rummy.h"
#include "rules/games/block_rummy.h"
#include "rules/games/skip_rummy.h"
#include "rules/games/round_the_corner_rummy.h"
#include "rules/games/java_rummy.h"
#include "rules/games/rummy_poker.h"
#include "rules/games/double_rummy.h"
#include "rules/games/carousel.h"
#include "rules/games/reversi.h"
#include "rules/games/rams.h"
#include "rules/games/rounce.h"
#include "rules/games/royal_cassino.h"
#include "rules/games/russian_bank.h"
#include "rules/games/rabouge.h"

namespace parlour::rules {

namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

const char* type_name(OptionSpec::Type type) {
  switch (type) {
    case OptionSpec::Type::integer: return "int";
    case OptionSpec::Type::boolean: return "bool";
    case OptionSpec::Type::enumeration: return "enum";
  }
  return "int";
}

void check_option_value(const OptionSpec& spec, const Json& value) {
  const std::string where = "option '" + spec.name + "'";
  switch (spec.type) {
    case OptionSpec::Type::boolean:
      if (!value.is_boolean()) throw SetupError(where + " expects true or false, got " + value.dump());
      return;
    case OptionSpec::Type::integer: {
      if (!value.is_number_integer())
        throw SetupError(where + " expects an integer, got " + value.dump());
      const auto n = value.get<std::int64_t>();
      if (spec.min && n < *spec.min)
        throw SetupError(where + " must be at least " + std::to_string(*spec.min) + ", got " + value.dump());
      if (spec.max && n > *spec.max)
        throw SetupError(where + " must be at most " + std::to_string(*spec.max) + ", got " + value.dump());
      break;
    }
    case OptionSpec::Type::enumeration:
      break;
  }
  if (!spec.choices.empty() && std::find(spec.choices.begin(), spec.choices.end(), value) == spec.choices.end()) {
    Json choices = spec.choices;
    throw SetupError(where + " must be one of " + choices.dump() + ", got " + value.dump());
  }
}

void add_view_constant(GameInfo& info, const std::string& key) {
  if (std::find(info.view_constants.begin(), info.view_constants.end(), key) == info.view_constants.end())
    info.view_constants.push_back(key);
}

GameInfo with_layout(GameInfo info, const char* layout) {
  info.layout = layout;
  add_view_constant(info, "layout");
  if (info.layout == view::layouts::rummy) add_view_constant(info, "rules");
  if (!info.default_action) info.default_action = default_action_for_layout(layout);
  return info;
}

}  // namespace

Json option_to_json(const OptionSpec& option) {
  Json out = {{"name", option.name},
              {"type", type_name(option.type)},
              {"default", option.default_value},
              {"description", option.description}};
  if (!option.choices.empty()) out["choices"] = option.choices;
  if (option.min) out["min"] = *option.min;
  if (option.max) out["max"] = *option.max;
  return out;
}

Json info_to_json(const GameInfo& info) {
  Json options = Json::array();
  for (const auto& option : info.options) options.push_back(option_to_json(option));
  return {{"id", info.id},
          {"name", info.name},
          {"aliases", info.aliases},
          {"min_players", info.min_players},
          {"max_players", info.max_players},
          {"summary", info.summary},
          {"source", info.source},
          {"layout", info.layout},
          {"seats_change_between_deals", info.seats_change_between_deals},
          {"options", options}};
}

const Registry& Registry::builtin() {
  static const Registry registry = [] {
    Registry r;
    r.add(with_layout(red_dog_info(), view::layouts::betting));
    r.add(with_layout(ranter_go_round_info(), view::layouts::betting));
    r.add(with_layout(red_and_black_info(), view::layouts::betting));
    r.add(with_layout(rummy_info(), view::layouts::rummy));
    r.add(with_layout(michigan_rummy_info(), view::layouts::rummy));
    r.add(with_layout(five_hundred_rummy_info(), view::layouts::rummy));
    r.add(with_layout(persian_rummy_info(), view::layouts::rummy));
    r.add(with_layout(straight_rummy_info(), view::layouts::rummy));
    r.add(with_layout(queen_city_rummy_info(), view::layouts::rummy));
    r.add(with_layout(block_rummy_info(), view::layouts::rummy));
    r.add(with_layout(skip_rummy_info(), view::layouts::rummy));
    r.add(with_layout(round_the_corner_rummy_info(), view::layouts::rummy));
    r.add(with_layout(java_rummy_info(), view::layouts::rummy));
    r.add(with_layout(rummy_poker_info(), view::layouts::rummy));
    r.add(with_layout(double_rummy_info(), view::layouts::rummy));
    r.add(with_layout(carousel_info(), view::layouts::rummy));
    r.add(with_layout(reversi_info(), view::layouts::tricks));
    r.add(with_layout(rams_info(), view::layouts::tricks));
    r.add(with_layout(rounce_info(), view::layouts::tricks));
    r.add(with_layout(royal_cassino_info(), view::layouts::cassino));
    r.add(with_layout(russian_bank_info(), view::layouts::building));
    r.add(with_layout(rabouge_info(), view::layouts::building));
    return r;
  }();
  return registry;
}

void Registry::add(GameInfo info) { games_.push_back(std::move(info)); }

const GameInfo* Registry::find(const std::string& id_or_alias) const {
  const std::string wanted = lower(id_or_alias);
  for (const auto& game : games_) {
    if (game.id == wanted || lower(game.name) == wanted) return &game;
    for (const auto& alias : game.aliases)
      if (lower(alias) == wanted) return &game;
  }
  return nullptr;
}

Json Registry::validate_options(const GameInfo& info, const Json& given) {
  if (!given.is_null() && !given.is_object())
    throw SetupError("options must be an object, got " + given.dump());
  Json options = Json::object();
  if (given.is_object()) {
    for (const auto& item : given.items()) {
      const std::string& name = item.key();
      const Json& value = item.value();
      auto spec = std::find_if(info.options.begin(), info.options.end(),
                               [&](const OptionSpec& o) { return o.name == name; });
      if (spec == info.options.end()) throw SetupError("unknown option '" + name + "' for " + info.id);
      check_option_value(*spec, value);
      options[name] = value;
    }
  }
  for (const auto& spec : info.options)
    if (!options.contains(spec.name)) options[spec.name] = spec.default_value;
  if (info.check_options) info.check_options(options);
  return options;
}

int draw_first_dealer(std::uint64_t seed, int players) {
  Rng dealer_stream(seed ^ 0xd1b54a32d192ed03ULL);
  return static_cast<int>(dealer_stream.below(static_cast<std::uint64_t>(players)));
}

std::unique_ptr<GameState> Registry::create(const GameInfo& info, GameSetup setup) {
  setup.options = validate_options(info, setup.options);
  const int max = info.max_players_with(setup.options);
  if (setup.players < info.min_players || setup.players > max)
    throw SetupError(info.name + " needs " + std::to_string(info.min_players) + " to " + std::to_string(max) +
                     " players with these options, got " + std::to_string(setup.players));
  if (static_cast<int>(setup.balances.size()) != setup.players)
    throw SetupError("expected one balance per player");
  if (!setup.first_dealer) setup.first_dealer = draw_first_dealer(setup.seed, setup.players);
  if (*setup.first_dealer < 0 || *setup.first_dealer >= setup.players)
    throw SetupError("the first dealer must be a seat from 0 to " + std::to_string(setup.players - 1) + ", got " +
                     std::to_string(*setup.first_dealer));
  return info.create(setup);
}

std::unique_ptr<GameState> Registry::restore(const GameInfo& info, GameSetup setup, const Json& snapshot) {
  auto game = create(info, std::move(setup));
  try {
    game->restore(snapshot);
  } catch (const SnapshotError&) {
    throw;
  } catch (const std::exception& e) {
    throw SnapshotError(info.name + " snapshot does not fit: " + e.what());
  }
  return game;
}

}  // namespace parlour::rules
