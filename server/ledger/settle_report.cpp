#include "server/ledger/settle_report.h"

#include <algorithm>
#include <map>

#include "server/ledger/settle.h"

namespace parlour::server {

namespace {

constexpr std::string_view player_prefix = "player:";
constexpr std::string_view bot_prefix = "player:bot-";
constexpr std::string_view pool_prefix = "pool:";

bool starts_with(const std::string& text, std::string_view prefix) { return text.rfind(prefix, 0) == 0; }

struct Totals {
  std::map<std::string, std::int64_t> persons;  // display name → net
  std::map<std::string, std::int64_t> bots;     // bot name → net
  Json pools = Json::array();                   // {"table","pool","left"}
  std::int64_t pools_left = 0;
};

// Largest winner first, ties by name.
Json nets_json(const std::map<std::string, std::int64_t>& nets) {
  std::vector<std::pair<std::string, std::int64_t>> sorted(nets.begin(), nets.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  Json out = Json::array();
  for (const auto& [name, net] : sorted) out.push_back({{"player", name}, {"net", net}});
  return out;
}

Json house_json(const std::vector<Net>& lines) {
  Json out = Json::array();
  for (const auto& line : lines) out.push_back({{"player", line.name}, {"amount", line.amount}});
  return out;
}

// One table's nets, added to the totals; returns the table's line of the reply.
Json add_table(storage::Store& db, const storage::TableRecord& table, const RegisteredName& registered_name,
               Totals& totals) {
  Json nets = Json::array();
  Json pools = Json::array();
  for (const auto& [account, amount] : db.table_nets(table.id)) {
    if (starts_with(account, bot_prefix)) {
      const auto name = account.substr(player_prefix.size());
      totals.bots[name] += amount;
      nets.push_back({{"player", name}, {"net", amount}, {"bot", true}});
    } else if (starts_with(account, player_prefix)) {
      const auto lower = account.substr(player_prefix.size());
      const auto name = registered_name(lower).value_or(lower);
      totals.persons[name] += amount;
      nets.push_back({{"player", name}, {"net", amount}, {"bot", false}});
    } else if (starts_with(account, pool_prefix) && amount != 0) {  // an emptied pool is nothing left
      const auto pool = account.substr(account.rfind(':') + 1);
      totals.pools.push_back({{"table", table.id}, {"pool", pool}, {"left", amount}});
      totals.pools_left += amount;
      pools.push_back({{"pool", pool}, {"left", amount}});
    }
  }
  return {{"table", table.id},       {"game", table.game}, {"host", table.host}, {"status", table.status},
          {"created_at", table.created_at}, {"nets", nets},       {"pools", pools}};
}

}  // namespace

Json settle_report(storage::Store& db, const std::vector<storage::TableRecord>& tables,
                   const RegisteredName& registered_name) {
  Totals totals;
  Json table_lines = Json::array();
  for (const auto& table : tables) table_lines.push_back(add_table(db, table, registered_name, totals));

  std::vector<Net> persons;
  for (const auto& [name, net] : totals.persons) persons.push_back({name, net});
  const Settlement settlement = settle(persons);
  Json payments = Json::array();
  for (const auto& payment : settlement.payments)
    payments.push_back({{"from", payment.from}, {"to", payment.to}, {"amount", payment.amount}});
  std::int64_t bots_net = 0;
  for (const auto& [name, net] : totals.bots) bots_net += net;

  return {{"tables", table_lines},
          {"nets", nets_json(totals.persons)},
          {"payments", payments},
          {"from_bots_and_pools", house_json(settlement.from_house)},
          {"to_bots_and_pools", house_json(settlement.to_house)},
          {"bots", nets_json(totals.bots)},
          {"bots_net", bots_net},
          {"pools", totals.pools},
          {"pools_left", totals.pools_left},
          {"method", settlement.exact ? "exact" : "greedy"}};
}

}  // namespace parlour::server
