#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <stdexcept>

#include "server/common/csv.h"
#include "server/ledger/settle.h"

using namespace parlour::server;

namespace {

using Nets = std::vector<Net>;
using Payments = std::vector<Payment>;

// Each person's net after the payments: what they were owed less what they got.
std::map<std::string, std::int64_t> left_after(const Nets& nets, const Settlement& settlement) {
  std::map<std::string, std::int64_t> left;
  for (const auto& net : nets) left[net.name] = net.amount;
  for (const auto& p : settlement.payments) {
    left[p.from] += p.amount;
    left[p.to] -= p.amount;
  }
  for (const auto& h : settlement.from_house) left[h.name] -= h.amount;
  for (const auto& h : settlement.to_house) left[h.name] += h.amount;
  return left;
}

bool all_square(const std::map<std::string, std::int64_t>& left) {
  return std::all_of(left.begin(), left.end(), [](const auto& entry) { return entry.second == 0; });
}

}  // namespace

// Worked by hand. alice +6, bob -3, carol -3, dave +4, erin -4 (sum 0).
// Greedy, the largest debtor paying the largest creditor:
//   erin (-4) pays alice (+6) 4   -> alice +2
//   bob (-3, before carol by name) pays dave (+4) 3 -> dave +1
//   carol (-3) pays alice (+2) 2  -> carol -1
//   carol (-1) pays dave (+1) 1
// four payments. But {erin, dave} and {alice, bob, carol} each sum to zero, so
// two groups of 2 and 3 people need (2-1) + (3-1) = 3 payments:
//   bob pays alice 3, carol pays alice 3, erin pays dave 4.
TEST_CASE("settle-up: five friends whom greedy settles in 4 payments are settled in 3") {
  const Nets nets{{"alice", 6}, {"bob", -3}, {"carol", -3}, {"dave", 4}, {"erin", -4}};
  CHECK(settle_greedily(nets) ==
        Payments{{"erin", "alice", 4}, {"bob", "dave", 3}, {"carol", "alice", 2}, {"carol", "dave", 1}});

  const auto settlement = settle(nets);
  CHECK(settlement.exact);
  CHECK(settlement.payments == Payments{{"bob", "alice", 3}, {"carol", "alice", 3}, {"erin", "dave", 4}});
  CHECK(settlement.from_house.empty());
  CHECK(settlement.to_house.empty());
}

TEST_CASE("settle-up: the order the nets come in does not change the payments") {
  const Nets nets{{"erin", -4}, {"carol", -3}, {"dave", 4}, {"bob", -3}, {"alice", 6}};
  CHECK(settle(nets).payments == Payments{{"bob", "alice", 3}, {"carol", "alice", 3}, {"erin", "dave", 4}});
}

TEST_CASE("settle-up: one loser pays one winner; nobody square pays or is paid") {
  const auto settlement = settle({{"bob", -37}, {"alice", 37}, {"carol", 0}});
  CHECK(settlement.payments == Payments{{"bob", "alice", 37}});
}

TEST_CASE("settle-up: nobody, or everybody square, needs no payment") {
  CHECK(settle({}).payments.empty());
  const auto square = settle({{"alice", 0}, {"bob", 0}});
  CHECK(square.payments.empty());
  CHECK(square.from_house.empty());
  CHECK(square.to_house.empty());
}

// alice won 30: 20 from bob and 10 from a bot. Bob pays alice his 20; the 10
// she won from the bot is nobody's to pay.
TEST_CASE("settle-up: winnings from bots and pools are shown apart, not paid by a person") {
  const auto settlement = settle({{"alice", 30}, {"bob", -20}});
  CHECK(settlement.payments == Payments{{"bob", "alice", 20}});
  CHECK(settlement.from_house == Nets{{"alice", 10}});
  CHECK(settlement.to_house.empty());
}

TEST_CASE("settle-up: losses to bots and pools are shown apart, not paid to a person") {
  const auto settlement = settle({{"alice", 5}, {"bob", -12}});
  CHECK(settlement.payments == Payments{{"bob", "alice", 5}});
  CHECK(settlement.to_house == Nets{{"bob", 7}});
  CHECK(settlement.from_house.empty());
}

TEST_CASE("settle-up: a person listed twice or without a name is refused") {
  CHECK_THROWS_AS(settle({{"alice", 1}, {"alice", -1}}), std::invalid_argument);
  CHECK_THROWS_AS(settle({{"", 1}, {"bob", -1}}), std::invalid_argument);
  CHECK_THROWS_AS(settle_greedily({{"alice", 1}}), std::invalid_argument);
}

// Pairs (+k, -k) for k = 1..9 hide among 18 people: the exact search is past
// its limit, so the greedy rule is used and still squares everybody, in at most
// n - 1 payments.
TEST_CASE("settle-up: beyond 16 people the greedy rule is used and squares everybody") {
  Nets nets;
  for (int k = 1; k <= 9; ++k) {
    nets.push_back({"win" + std::to_string(k), k});
    nets.push_back({"lose" + std::to_string(k), -k});
  }
  const auto settlement = settle(nets);
  CHECK_FALSE(settlement.exact);
  CHECK(all_square(left_after(nets, settlement)));
  CHECK(settlement.payments.size() <= nets.size() - 1);
  // Greedy meets each largest debtor with the equal largest creditor here.
  CHECK(settlement.payments.size() == 9);
}

// Random groups of up to 16: the exact answer squares everybody, never uses
// more payments than greedy, and never fewer than people less zero-sum groups
// allow (at least ceil(n/2): every payment squares at most two people).
TEST_CASE("settle-up: random groups are squared in no more payments than greedy") {
  std::mt19937 random(16);
  for (int round = 0; round < 300; ++round) {
    CAPTURE(round);
    const int people = 2 + static_cast<int>(random() % 12);
    Nets nets;
    std::int64_t sum = 0;
    for (int i = 0; i + 1 < people; ++i) {
      const std::int64_t amount = static_cast<std::int64_t>(random() % 21) - 10;
      nets.push_back({"p" + std::to_string(i), amount});
      sum += amount;
    }
    nets.push_back({"p" + std::to_string(people - 1), -sum});
    const auto settlement = settle(nets);
    CHECK(settlement.exact);
    CHECK(settlement.from_house.empty());
    CHECK(settlement.to_house.empty());
    CHECK(all_square(left_after(nets, settlement)));
    CHECK(settlement.payments.size() <= settle_greedily(nets).size());
    const auto nonzero = std::count_if(nets.begin(), nets.end(), [](const Net& n) { return n.amount != 0; });
    CHECK(static_cast<long>(settlement.payments.size()) >= (nonzero + 1) / 2);
    for (const auto& payment : settlement.payments) CHECK(payment.amount > 0);
  }
}

TEST_CASE("CSV: a field with a comma, a quote or a line break is quoted, its quotes doubled") {
  CHECK(csv_cell("plain") == "plain");
  CHECK(csv_cell("") == "");
  CHECK(csv_cell("a,b") == "\"a,b\"");
  CHECK(csv_cell("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_cell("two\nlines") == "\"two\nlines\"");
  CHECK(csv_cell("cr\rhere") == "\"cr\rhere\"");
  CHECK(csv_row({"a", "b,c", ""}) == "a,\"b,c\",\r\n");
}

TEST_CASE("CSV: a text cell a spreadsheet would take as a formula starts with a quote; numbers stay numbers") {
  CHECK(csv_cell("-2-3") == "'-2-3");
  CHECK(csv_cell("-A1") == "'-A1");
  CHECK(csv_cell("=1+1") == "'=1+1");
  CHECK(csv_cell("+1") == "'+1");
  CHECK(csv_cell("@SUM(A1:A2)") == "'@SUM(A1:A2)");
  CHECK(csv_cell("\tx") == "'\tx");
  CHECK(csv_cell("\rx") == "\"'\rx\"");
  CHECK(csv_cell("=HYPERLINK(\"http://x\",\"y\")") == "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
  CHECK(csv_cell("a-b=c") == "a-b=c");
  CHECK(csv_cell(Json(-25)) == "-25");
  CHECK(csv_cell(Json(0)) == "0");
  CHECK(csv_cell(Json()) == "");
  const Json ledger = {{"entries",
                        {{{"entry", 3},
                          {"time", "2026-11-22T22:30:00.000Z"},
                          {"amount", -25},
                          {"balance", 975},
                          {"table", "t1"},
                          {"game", "red_dog"},
                          {"memo", "-2-3's bet of 25"},
                          {"seq", 1},
                          {"deal", 1}}}}};
  CHECK(ledger_csv(ledger) ==
        "entry,time,amount,balance,table,game,deal,seq,memo\r\n"
        "3,2026-11-22T22:30:00.000Z,-25,975,t1,red_dog,1,1,'-2-3's bet of 25\r\n");
  const Json settled = {{"nets", {{{"player", "-A1"}, {"net", -25}}, {{"player", "@x"}, {"net", 25}}}},
                        {"payments", {{{"from", "-A1"}, {"to", "=cmd"}, {"amount", 25}}}}};
  CHECK(settle_csv(settled) ==
        "kind,from,to,amount,table,game\r\n"
        "net,'-A1,,-25,,\r\n"
        "net,'@x,,25,,\r\n"
        "payment,'-A1,'=cmd,25,,\r\n");
}

TEST_CASE("CSV: the ledger has a header row and one row per entry, nulls empty") {
  const Json ledger = {{"player", "alice"},
                       {"balance", 990},
                       {"entries",
                        {{{"entry", 7},
                          {"time", "2026-11-22T22:30:00.123Z"},
                          {"amount", -10},
                          {"balance", 990},
                          {"table", "t1"},
                          {"game", "red_dog"},
                          {"memo", "Red Dog: bob's bet of 10, lost: the 5H was not between, into the pot"},
                          {"seq", 4},
                          {"deal", 2}},
                         {{"entry", 1},
                          {"time", "2026-11-22T22:00:00.000Z"},
                          {"amount", 1000},
                          {"balance", 1000},
                          {"table", nullptr},
                          {"game", nullptr},
                          {"memo", "starting chips"},
                          {"seq", nullptr},
                          {"deal", nullptr}}}}};
  CHECK(ledger_csv(ledger) ==
        "entry,time,amount,balance,table,game,deal,seq,memo\r\n"
        "7,2026-11-22T22:30:00.123Z,-10,990,t1,red_dog,2,4,"
        "\"Red Dog: bob's bet of 10, lost: the 5H was not between, into the pot\"\r\n"
        "1,2026-11-22T22:00:00.000Z,1000,1000,,,,,starting chips\r\n");
}

TEST_CASE("CSV: settle-up lists tables, nets, payments, house lines, bots and pools") {
  const Json settled = {{"tables", {{{"table", "t1"}, {"game", "red_dog"}, {"host", "alice"}}}},
                        {"nets", {{{"player", "alice"}, {"net", 30}}, {{"player", "bob"}, {"net", -20}}}},
                        {"payments", {{{"from", "bob"}, {"to", "alice"}, {"amount", 20}}}},
                        {"from_bots_and_pools", {{{"player", "alice"}, {"amount", 10}}}},
                        {"to_bots_and_pools", Json::array()},
                        {"bots", {{{"player", "bot-t1-2"}, {"net", -7}}}},
                        {"pools", {{{"table", "t1"}, {"pool", "pot"}, {"left", -3}}}}};
  CHECK(settle_csv(settled) ==
        "kind,from,to,amount,table,game\r\n"
        "table,alice,,,t1,red_dog\r\n"
        "net,alice,,30,,\r\n"
        "net,bob,,-20,,\r\n"
        "payment,bob,alice,20,,\r\n"
        "from_bots_and_pools,,alice,10,,\r\n"
        "bot,bot-t1-2,,-7,,\r\n"
        "pool,pot,,-3,t1,\r\n");
}
