#include "rules/rummy/rules_json.h"

#include <array>
#include <string>
#include <utility>

namespace parlour::rules::rummy {

namespace {

constexpr std::array<std::pair<AceMode, const char*>, 4> ace_names = {{
    {AceMode::low, "low"},
    {AceMode::high, "high"},
    {AceMode::low_or_high, "low_or_high"},
    {AceMode::around, "around"},
}};

const char* ace_name(AceMode mode) {
  for (const auto& [m, name] : ace_names)
    if (m == mode) return name;
  return "low";
}

AceMode ace_mode(const std::string& name) {
  for (const auto& [m, written] : ace_names)
    if (name == written) return m;
  return AceMode::low;
}

}  // namespace

void write_meld_rules(JsonWriter& out, const MeldRules& m) {
  out.object([&] {
    out.field("set_min", m.set_min);
    out.field("set_max", m.set_max);
    out.field("set_duplicates", m.set_duplicates);
    out.field("set_distinct_suits", m.set_distinct_suits);
    out.field("run_min", m.run_min);
    out.field("ace", ace_name(m.ace));
    out.field("deuces_wild", m.deuces_wild);
    out.field("jokers_wild", m.jokers_wild);
    out.field("jokers_own_rank", m.jokers_own_rank);
  });
}

void write_card_values(JsonWriter& out, const CardValues& v) {
  out.object([&] {
    out.field("ace", v.ace);
    out.field("ace_low_run", v.ace_low_run);
    out.field("face", v.face);
    out.field("joker", v.joker);
    out.field("wild_deuce", v.wild_deuce);
  });
}

Json meld_rules_json(const MeldRules& m) {
  return json_tree_of([&](JsonWriter& out) { write_meld_rules(out, m); });
}

Json card_values_json(const CardValues& v) {
  return json_tree_of([&](JsonWriter& out) { write_card_values(out, v); });
}

MeldRules meld_rules_from(const Json& m) {
  MeldRules r;
  if (!m.is_object()) return r;
  r.set_min = m.value("set_min", r.set_min);
  r.set_max = m.value("set_max", r.set_max);
  r.set_duplicates = m.value("set_duplicates", r.set_duplicates);
  r.set_distinct_suits = m.value("set_distinct_suits", r.set_distinct_suits);
  r.run_min = m.value("run_min", r.run_min);
  r.ace = ace_mode(m.value("ace", std::string(ace_name(r.ace))));
  r.deuces_wild = m.value("deuces_wild", r.deuces_wild);
  r.jokers_wild = m.value("jokers_wild", r.jokers_wild);
  r.jokers_own_rank = m.value("jokers_own_rank", r.jokers_own_rank);
  return r;
}

CardValues card_values_from(const Json& v) {
  CardValues c;
  if (!v.is_object()) return c;
  c.ace = v.value("ace", c.ace);
  c.ace_low_run = v.value("ace_low_run", c.ace_low_run);
  c.face = v.value("face", c.face);
  c.joker = v.value("joker", c.joker);
  c.wild_deuce = v.value("wild_deuce", c.wild_deuce);
  return c;
}

bool option_on(const Json& options, const char* name) { return options.at(name).get<bool>(); }

}  // namespace parlour::rules::rummy
