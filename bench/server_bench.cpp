#include "bench/server_bench.h"

// Boost 1.74's Asio with GCC 12 in C++20 needs <utility> before its first header.
#include <utility>

#include <boost/asio/io_context.hpp>
#include <cstdio>
#include <thread>

#include "bench/report.h"
#include "bench/server_process.h"
#include "bench/table_client.h"

namespace parlour::bench {

namespace {

namespace asio = boost::asio;
using Client = std::shared_ptr<TableClient>;

// Acts sent just before the window closed get this long to be answered.
constexpr auto drain_limit = std::chrono::seconds(5);
// After the last answer the server may still deal the next hand by itself;
// its step should be in the "after" transaction count.
constexpr auto settle_pause = std::chrono::milliseconds(300);
constexpr auto close_limit = std::chrono::seconds(3);

struct BenchTable {
  Client host;   // seat 0; created and started the table
  Client guest;  // seat 1
  std::int64_t start_seq = 0;
};

// Two players sign in, the first creates a two-seat Red Dog table with an ante
// of 1, both sit down, and the first starts it.
BenchTable seat_table(asio::io_context& io, unsigned short port, int index) {
  BenchTable table{std::make_shared<TableClient>(io, port), std::make_shared<TableClient>(io, port), 0};
  table.host->request({{"type", "hello"}, {"name", "host" + std::to_string(index)}});
  table.guest->request({{"type", "hello"}, {"name", "guest" + std::to_string(index)}});
  const Json created =
      table.host->request({{"type", "create"}, {"game", "red_dog"}, {"options", {{"ante", 1}}}, {"seats", 2}});
  const std::string id = created.at("table");
  auto handover = std::make_shared<Handover>();
  table.host->set_table(id, handover);
  table.guest->set_table(id, handover);
  table.host->request({{"type", "join"}, {"table", id}, {"seat", 0}});
  table.guest->request({{"type", "join"}, {"table", id}, {"seat", 1}});
  table.start_seq = table.host->request({{"type", "start"}, {"table", id}}).at("seq").get<std::int64_t>();
  return table;
}

// The threads that run the clients. However the measurement ends, even by an
// exception, they are stopped and joined before the clients go away.
class ClientThreads {
 public:
  ClientThreads(asio::io_context& io, int count) : io_(io) {
    io_.restart();  // setup ran `io` until it had no work, which leaves it stopped
    for (int i = 0; i < count; ++i) threads_.emplace_back([this] { io_.run(); });
  }
  ~ClientThreads() {
    io_.stop();  // a no-op when every client has closed and run() has returned
    for (auto& thread : threads_) thread.join();
  }
  ClientThreads(const ClientThreads&) = delete;
  ClientThreads& operator=(const ClientThreads&) = delete;

 private:
  asio::io_context& io_;
  std::vector<std::thread> threads_;
};

// Polls `done` until it holds or `limit` passes; true if it held.
template <typename Pred>
bool wait_until(Pred done, std::chrono::milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  while (!done()) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

struct Totals {
  std::int64_t actions = 0;
  std::int64_t states = 0;
  std::int64_t steps = 0;  // events the server logged: acts and the deals it started
  std::vector<double> latencies_ms;
  std::vector<double> handovers_ms;
  std::map<std::string, std::int64_t> errors;
};

Totals add_up(const std::vector<BenchTable>& tables) {
  Totals totals;
  for (const auto& table : tables) {
    for (const auto& client : {table.host, table.guest}) {
      const auto& stats = client->stats();
      totals.actions += stats.actions;
      totals.states += stats.states;
      totals.latencies_ms.insert(totals.latencies_ms.end(), stats.latencies_ms.begin(), stats.latencies_ms.end());
      totals.handovers_ms.insert(totals.handovers_ms.end(), stats.handovers_ms.begin(), stats.handovers_ms.end());
      for (const auto& [code, count] : stats.errors) totals.errors[code] += count;
    }
    totals.steps += std::max(table.host->latest_seq(), table.guest->latest_seq()) - table.start_seq;
  }
  return totals;
}

// Each connection may send this many messages a second (--rate-limit); the bench
// raises the server's default of 50 so that it measures the server, not the limiter.
constexpr int server_rate_limit = 100000;

void report(const Options& options, const Totals& totals, double seconds, std::uint64_t transactions) {
  char shape[160];
  std::snprintf(shape, sizeof shape, "%d tables, %d connections, %d server threads, %.1f s", options.tables(),
                options.clients, options.server_threads, seconds);
  print_rate("server/red_dog accepted actions", static_cast<double>(totals.actions), seconds, "actions/s", shape);
  print_line("server/act->ok latency", describe_ms(totals.latencies_ms, "acts"));
  print_line("server/turn handover", describe_ms(totals.handovers_ms, "turns") + ", ok -> next turn's state");
  print_rate("server/state frames delivered", static_cast<double>(totals.states), seconds, "frames/s",
             "every step pushes a state to both seats");
  char text[160];
  std::snprintf(text, sizeof text, "%.2f steps per transaction (%lld steps, %llu transactions)",
                transactions ? static_cast<double>(totals.steps) / static_cast<double>(transactions) : 0.0,
                static_cast<long long>(totals.steps), static_cast<unsigned long long>(transactions));
  print_line("server/group commit", text);
  std::string errors;
  for (const auto& [code, count] : totals.errors)
    errors += (errors.empty() ? "" : ", ") + code + " " + std::to_string(count);
  print_line("server/refused or failed", errors.empty() ? "none" : errors);
}

}  // namespace

void run_server_bench(const Options& options) {
  ServerProcess server(options.server_binary,
                       {"--starting-chips", "1000000000", "--threads", std::to_string(options.server_threads),
                        "--rate-limit", std::to_string(server_rate_limit)});
  asio::io_context io(options.client_threads);

  Stopwatch setup_clock;
  std::vector<BenchTable> tables;
  for (int i = 0; i < options.tables(); ++i) tables.push_back(seat_table(io, server.port(), i));
  print_line("server/setup",
             std::to_string(tables.size()) + " tables seated and started in " + fixed(setup_clock.seconds()) + " s");

  const auto transactions_before = server.metric("parlour_storage_transactions_total");
  Window window;
  window.start = Clock::now();
  window.end =
      window.start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.seconds));
  for (const auto& table : tables) {
    table.host->play(window);
    table.guest->play(window);
  }
  std::uint64_t transactions = 0;
  {
    ClientThreads threads(io, options.client_threads);
    std::this_thread::sleep_until(window.end);
    wait_until([&] { return window.in_flight == 0; }, drain_limit);
    std::this_thread::sleep_for(settle_pause);
    transactions = server.metric("parlour_storage_transactions_total") - transactions_before;
    for (const auto& table : tables) {
      table.host->close();
      table.guest->close();
    }
    // A close the server never answers is cut short when the threads stop.
    wait_until([&] { return window.open_clients == 0; }, close_limit);
  }
  report(options, add_up(tables), options.seconds, transactions);
  server.stop();
}

}  // namespace parlour::bench
