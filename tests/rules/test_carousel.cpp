// Carousel, source 002 (the unnamed joker/knock game); rules/rummy.md §3.6, examples E17–E18.
#include <doctest/doctest.h>

#include <map>

#include "tests/rules/harness.h"
#include "tests/rules/playout.h"
#include "tests/rules/rummy_kit.h"

using parlour::rules::Json;
using parlour::test::Harness;
using namespace parlour::test::rummy_kit;

TEST_CASE("random deals: carousel, two to five players") {
  parlour::test::Playout spec;
  spec.game = "carousel";
  spec.min_deals = 1000;
  spec.players_lo = 2;
  spec.players_hi = 5;
  spec.pack_size = [](int players) { return std::size_t{players == 2 ? 53u : 106u}; };
  std::map<std::string, int> ends;
  spec.after_game = [&ends](Harness& h) { ++ends[h.game().result()["end"].get<std::string>()]; };
  const int games = parlour::test::random_playouts(spec);
  for (const auto& [end, count] : ends) MESSAGE(end << " " << count);
  MESSAGE(games << " games");
}
