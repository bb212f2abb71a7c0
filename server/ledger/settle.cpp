#include "server/ledger/settle.h"

#include <algorithm>
#include <bit>
#include <numeric>
#include <stdexcept>

namespace parlour::server {

namespace {

// Bots and pools together; no person's name is empty, so it cannot collide.
const std::string house;

bool by_name(const Net& a, const Net& b) { return a.name < b.name; }

// The largest debtor (most negative), ties to the first by name; nets sorted by name.
std::size_t largest_debtor(const std::vector<Net>& nets) {
  std::size_t found = nets.size();
  for (std::size_t i = 0; i < nets.size(); ++i)
    if (nets[i].amount < 0 && (found == nets.size() || nets[i].amount < nets[found].amount)) found = i;
  return found;
}

std::size_t largest_creditor(const std::vector<Net>& nets) {
  std::size_t found = nets.size();
  for (std::size_t i = 0; i < nets.size(); ++i)
    if (nets[i].amount > 0 && (found == nets.size() || nets[i].amount > nets[found].amount)) found = i;
  return found;
}

// Every step squares at least one party, so a group of k parties takes at most
// k-1 steps and the loop always ends.
std::vector<Payment> greedy_sorted(std::vector<Net> nets) {
  std::vector<Payment> payments;
  for (;;) {
    const auto debtor = largest_debtor(nets);
    const auto creditor = largest_creditor(nets);
    if (debtor == nets.size() || creditor == nets.size()) break;
    const auto amount = std::min(-nets[debtor].amount, nets[creditor].amount);
    payments.push_back({nets[debtor].name, nets[creditor].name, amount});
    nets[debtor].amount += amount;
    nets[creditor].amount -= amount;
  }
  return payments;
}

// The most zero-sum groups the parties can be split into (each group then needs
// its size less one payment). best[mask] is the most zero-sum groups along a
// chain of subsets that adds one party at a time up to `mask`, counting each
// subset on the chain whose sum is zero; the groups are the differences between
// consecutive zero-sum subsets on the best chain to the whole set.
std::vector<std::vector<Net>> zero_sum_groups(const std::vector<Net>& nets) {
  const int n = static_cast<int>(nets.size());
  const std::uint32_t everyone = (std::uint32_t{1} << n) - 1;
  std::vector<std::int64_t> sum(everyone + 1, 0);
  std::vector<int> best(everyone + 1, 0);
  std::vector<int> last_added(everyone + 1, -1);
  for (std::uint32_t mask = 1; mask <= everyone; ++mask) {
    const int low = std::countr_zero(mask);
    sum[mask] = sum[mask & (mask - 1)] + nets[low].amount;
    for (int i = 0; i < n; ++i) {
      const std::uint32_t bit = std::uint32_t{1} << i;
      if (!(mask & bit)) continue;
      if (last_added[mask] < 0 || best[mask ^ bit] > best[mask]) {
        best[mask] = best[mask ^ bit];
        last_added[mask] = i;
      }
    }
    if (sum[mask] == 0) ++best[mask];
  }
  std::vector<std::vector<Net>> groups;
  std::vector<Net> group;
  for (std::uint32_t mask = everyone; mask != 0;) {
    const int i = last_added[mask];
    group.push_back(nets[i]);
    mask ^= std::uint32_t{1} << i;
    if (sum[mask] == 0) {
      std::sort(group.begin(), group.end(), by_name);
      groups.push_back(std::move(group));
      group.clear();
    }
  }
  // Groups were found from the end; present them in the order of their first name.
  std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.front().name < b.front().name; });
  return groups;
}

}  // namespace

std::vector<Payment> settle_greedily(std::vector<Net> nets) {
  std::sort(nets.begin(), nets.end(), by_name);
  const auto total = std::accumulate(nets.begin(), nets.end(), std::int64_t{0},
                                     [](std::int64_t sum, const Net& net) { return sum + net.amount; });
  if (total != 0) throw std::invalid_argument("settle_greedily: the nets sum to " + std::to_string(total) + ", not 0");
  return greedy_sorted(std::move(nets));
}

Settlement settle(std::vector<Net> nets) {
  std::sort(nets.begin(), nets.end(), by_name);
  for (std::size_t i = 1; i < nets.size(); ++i)
    if (nets[i].name == nets[i - 1].name) throw std::invalid_argument("settle: " + nets[i].name + " is listed twice");
  std::int64_t persons_total = 0;
  std::vector<Net> parties;
  for (const auto& net : nets) {
    if (net.name.empty()) throw std::invalid_argument("settle: a person without a name");
    persons_total += net.amount;
    if (net.amount != 0) parties.push_back(net);
  }
  if (persons_total != 0) parties.insert(parties.begin(), Net{house, -persons_total});

  Settlement settlement;
  std::vector<Payment> payments;
  if (static_cast<int>(parties.size()) <= exact_limit) {
    for (auto& group : zero_sum_groups(parties)) {
      auto found = greedy_sorted(std::move(group));
      payments.insert(payments.end(), found.begin(), found.end());
    }
  } else {
    settlement.exact = false;
    payments = greedy_sorted(std::move(parties));
  }
  for (auto& payment : payments) {
    if (payment.from == house)
      settlement.from_house.push_back({payment.to, payment.amount});
    else if (payment.to == house)
      settlement.to_house.push_back({payment.from, payment.amount});
    else
      settlement.payments.push_back(std::move(payment));
  }
  return settlement;
}

}  // namespace parlour::server
