// The pieces of a game's snapshot that every game shares (rules/snapshot.h).
// Each game's own snapshot is checked by its randomized test (tests/rules/playout.cpp:
// restored mid-deal and at deals' ends, it shows and plays on the same).
#include <doctest/doctest.h>

#include "rules/chip_book.h"
#include "rules/registry.h"
#include "rules/shoe.h"
#include "rules/snapshot.h"
#include "tests/rules/harness.h"

namespace parlour::test {
namespace {

TEST_CASE("snapshot: cards, the special pack's included, come back as they were") {
  const auto pack = rules::make_pack({.jokers = 2, .eleven_twelve_spots = true});
  CHECK(rules::cards_from(rules::cards_json(pack)) == pack);
  CHECK(rules::optional_card_from(rules::optional_card_json(std::nullopt)) == std::nullopt);
  CHECK_THROWS_AS(rules::cards_from(Json::array({"AS", "??"})), rules::SnapshotError);
  CHECK_THROWS_AS(rules::card_from(7), rules::SnapshotError);
}

TEST_CASE("snapshot: an rng restored draws the same numbers on") {
  rules::Rng rng(42);
  rng.next();
  auto restored = rules::rng_from(Json::parse(rules::rng_json(rng).dump()));
  for (int i = 0; i < 10; ++i) CHECK(restored.next() == rng.next());
  CHECK_THROWS_AS(rules::rng_from(Json::array({1, 2, 3})), rules::SnapshotError);
  CHECK_THROWS_AS(rules::rng_from(Json::array({1, 2, 3, -4})), rules::SnapshotError);
}

TEST_CASE("snapshot: a shoe restored deals the same deals, and a stock keeps its order") {
  rules::Shoe shoe({}, 7, std::nullopt);
  shoe.next_deal();
  rules::Shoe restored({}, 7, std::nullopt);
  restored.restore(shoe.snapshot());
  CHECK(restored.deals_dealt() == 1);
  auto stock = shoe.next_deal();
  CHECK(restored.next_deal().cards_left() == stock.cards_left());
  stock.draw(5);
  CHECK(rules::Stock::restore(stock.snapshot()).cards_left() == stock.cards_left());
  CHECK_THROWS_AS(restored.restore(Json{{"rng", Json::array({1, 2, 3, 4})}, {"deals", -1}}), rules::SnapshotError);
}

TEST_CASE("snapshot: a chip book restored holds the same") {
  rules::ChipBook book(3, "pot");
  book.sync({10, 0, 5});
  rules::Effects fx;
  std::int64_t pot = 0;
  book.seat_to_pool(1, 4, pot, "ante", fx);  // unpaid: seat 1 has nothing
  book.seat_to_seat(0, 2, 3, "pays", fx);
  const auto restored = rules::ChipBook::restore(Json::parse(book.snapshot().dump()), 3);
  CHECK(restored.snapshot() == book.snapshot());
  CHECK(restored.unpaid(1) == book.unpaid(1));
  CHECK(restored.net(2) == book.net(2));
  CHECK_THROWS_AS(rules::ChipBook::restore(book.snapshot(), 2), rules::SnapshotError);  // another table's seats
  auto unpaid_elsewhere = book.snapshot();
  unpaid_elsewhere["unpaid"][0]["seat"] = 7;
  CHECK_THROWS_AS(rules::ChipBook::restore(unpaid_elsewhere, 3), rules::SnapshotError);
  unpaid_elsewhere["unpaid"][0].erase("seat");
  CHECK_THROWS_AS(rules::ChipBook::restore(unpaid_elsewhere, 3), rules::SnapshotError);
}

TEST_CASE("snapshot: a snapshot missing a field or of the wrong shape is refused with a message, not half applied") {
  Harness h("red_dog", Json::object(), {100, 100, 100});
  auto snapshot = h.game().snapshot();
  snapshot.erase("pot");
  try {
    h.restored(snapshot);
    FAIL("a snapshot without its pot was taken");
  } catch (const rules::SnapshotError& e) {
    CHECK(std::string(e.what()).find("\"pot\"") != std::string::npos);
  }
  snapshot = h.game().snapshot();
  snapshot["seats"].erase(0);
  CHECK_THROWS_AS(h.restored(snapshot), rules::SnapshotError);
  CHECK_THROWS_AS(h.restored(Json::array()), rules::SnapshotError);
  CHECK_NOTHROW(h.restored(h.game().snapshot()));
}

}  // namespace
}  // namespace parlour::test
