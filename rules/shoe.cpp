#include "rules/shoe.h"

#include <algorithm>
#include <stdexcept>

#include "rules/registry.h"
#include "rules/snapshot.h"

namespace parlour::rules {

Card Stock::draw() {
  if (empty()) throw std::logic_error("draw from an empty stock");
  return cards_[top_++];
}

std::vector<Card> Stock::draw(std::size_t count) {
  std::vector<Card> out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) out.push_back(draw());
  return out;
}

Json Stock::snapshot() const { return cards_json(cards_left()); }

Stock Stock::restore(const Json& snapshot) { return Stock(cards_from(snapshot)); }

Json Shoe::snapshot() const { return {{"rng", rng_json(rng_)}, {"deals", deals_}}; }

void Shoe::restore(const Json& snapshot) {
  auto rng = rng_from(member(snapshot, "rng"));
  const int deals = field<int>(snapshot, "deals");
  if (deals < 0) throw SnapshotError("a shoe's deals cannot be negative, got " + std::to_string(deals));
  rng_ = rng;
  deals_ = deals;
}

Shoe::Shoe(PackSpec spec, std::uint64_t seed, std::optional<std::vector<Card>> stacked)
    : spec_(spec), rng_(seed), stacked_(std::move(stacked)) {
  if (!stacked_) return;
  auto pack = make_pack(spec_);
  for (auto card : *stacked_) {
    auto it = std::find(pack.begin(), pack.end(), card);
    if (it == pack.end())
      throw SetupError("stacked deck: " + to_string(card) + " is not in the pack, or appears too often");
    pack.erase(it);
  }
}

Stock Shoe::next_deal() {
  auto pack = make_pack(spec_);
  if (deals_++ == 0 && stacked_) {
    std::vector<Card> rest = pack;
    for (auto card : *stacked_) rest.erase(std::find(rest.begin(), rest.end(), card));
    rng_.shuffle(rest);
    std::vector<Card> top_first = *stacked_;
    top_first.insert(top_first.end(), rest.begin(), rest.end());
    return Stock(std::move(top_first));
  }
  rng_.shuffle(pack);
  return Stock(std::move(pack));
}

}  // namespace parlour::rules
