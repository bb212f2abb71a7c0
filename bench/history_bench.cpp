#include "bench/history_bench.h"

#include <algorithm>
#include <ctime>

#include <nlohmann/json.hpp>

#include "bench/report.h"
#include "rules/random_play.h"
#include "rules/registry.h"
#include "rules/rng.h"
#include "server/history/history.h"
#include "server/table/table_state.h"

namespace parlour::bench {

namespace {

using Json = nlohmann::json;

double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// A table's log and stored deal starts, held in memory as the store holds them.
class PlayedTable final : public server::TableLog {
 public:
  PlayedTable(const rules::GameInfo& info, int events, std::uint64_t seed) {
    record.id = "h1";
    record.game = info.id;
    record.options_json = rules::Registry::validate_options(info, Json::object()).dump();
    record.seed = seed;
    record.host = "p0";
    record.status = "playing";
    for (int seat = 0; seat < 4; ++seat) record.seats.push_back({seat, "p" + std::to_string(seat), false, 0});
    auto state = server::TableState::replay(record, info, {});
    const auto chips_now = [](const std::vector<server::SeatState>& seats) {
      return rules::Balances(seats.size(), 1'000'000'000);
    };
    rules::Rng rng(seed);
    Json event = {{"kind", "start"}};
    while (static_cast<int>(log.size()) < events) {
      auto applied = state.apply(event, chips_now);
      log.push_back({state.seq(), event.dump()});
      if (applied.deal_start) starts.push_back(std::move(*applied.deal_start));
      const auto* game = state.game();
      if (game->phase() == rules::Phase::game_over) break;
      if (game->phase() == rules::Phase::deal_over) {
        event = {{"kind", "deal"}};
        continue;
      }
      const int seat = game->to_act().front();
      const auto legal = state.legal_for(seat, rules::Balances(4, 1'000'000'000));
      event = {{"kind", "act"}, {"seat", seat}, {"action", rules::random_legal_action(legal, rng)}};
    }
    record.status = "finished";
  }

  std::vector<storage::DealStart> deal_starts() override {
    std::vector<storage::DealStart> out;
    out.reserve(starts.size());
    for (const auto& start : starts) out.push_back(start.listed());
    return out;
  }
  std::optional<std::string> deal_state(int deal) override {
    const auto& state = starts.at(static_cast<std::size_t>(deal - 1)).state_json;
    return state.empty() ? std::nullopt : std::optional<std::string>(state);
  }
  std::vector<storage::Event> events(std::int64_t after, std::optional<std::int64_t> upto) override {
    std::vector<storage::Event> out;
    for (const auto& stored : log)
      if (stored.seq > after && (!upto || stored.seq <= *upto)) out.push_back(stored);
    return out;
  }

  storage::TableRecord record;
  std::vector<storage::Event> log;
  std::vector<storage::DealStart> starts;
};

// The mean CPU time of `read` over at least `seconds` (and at least 3 reads).
template <typename Read>
double mean_cpu_ms(double seconds, Read&& read) {
  int reads = 0;
  const double begin = cpu_seconds();
  while (reads < 3 || cpu_seconds() - begin < seconds) {
    read();
    ++reads;
  }
  return (cpu_seconds() - begin) * 1000 / reads;
}

}  // namespace

void run_history_bench(const Options& options) {
  const auto* info = rules::Registry::builtin().find("red_dog");
  for (const int events : {3'000, 30'000}) {
    PlayedTable table(*info, events, options.seed);
    const auto& record = table.record;
    const server::HistoryQuery first_deal{"p0", 1, std::nullopt, false};
    const double whole = mean_cpu_ms(options.micro_seconds(), [&] {
      server::build_history(record, *info, table.log, first_deal);
    });
    // The dearest deal to read: the last before a kept state, the most events from the one before.
    int dearest = 1;
    for (std::size_t d = 1; d < table.starts.size(); ++d)
      if (!table.starts[d].state_json.empty() && d >= 2) {
        dearest = static_cast<int>(d);
        break;
      }
    std::string figures;
    for (const int deal : {1, dearest}) {
      const server::HistoryQuery query{"p0", deal, std::nullopt, false};
      // A cold read: nothing kept, as after a restart or for a table nobody read lately.
      const double cold = mean_cpu_ms(options.micro_seconds(), [&] {
        server::HistoryCache cache;
        cache.build(table, record, query);
      });
      server::HistoryCache warm_cache;
      warm_cache.build(table, record, query);
      const double warm = mean_cpu_ms(options.micro_seconds(), [&] { warm_cache.build(table, record, query); });
      figures += "deal " + std::to_string(deal) + " " + fixed(cold, 1) + " ms CPU cold, " + fixed(warm, 1) + " kept; ";
    }
    std::size_t stored = 0;
    for (const auto& start : table.starts) stored += start.state_json.size() + start.entry_json.size();
    const std::string name = "history/red_dog " + std::to_string(table.log.size()) + " events";
    print_line(name, figures + "whole-log replay " + fixed(whole, 1) + " ms (" + std::to_string(table.starts.size()) +
                         " deals, " + std::to_string(stored / std::max<std::size_t>(table.starts.size(), 1)) +
                         " bytes stored a deal)");
  }
}

}  // namespace parlour::bench
