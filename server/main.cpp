// parlour: the card-table server. Parses flags, opens the database, rebuilds the
// unfinished tables from their logs, and serves HTTP and WebSocket until SIGINT
// or SIGTERM.
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <iostream>
#include <spdlog/spdlog.h>
#include <thread>

#include "server/bank.h"
#include "server/config.h"
#include "server/lobby.h"
#include "server/net.h"
#include "server/writer.h"

using namespace parlour::server;

int main(int argc, char** argv) {
  auto parsed = parse_args(std::vector<std::string>(argv + 1, argv + argc));
  if (!parsed.config) {
    (parsed.help ? std::cout : std::cerr) << parsed.message;
    return parsed.help ? 0 : 2;
  }
  const Config config = *parsed.config;
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");

  try {
    boost::asio::io_context io(config.threads);
    Writer writer(config.db);
    parlour::storage::Database bank_reader(config.db);
    Bank bank([&bank_reader](const std::string& account) { return bank_reader.balance(account); });
    Lobby lobby(io, config, writer, bank);
    lobby.restore();
    Metrics metrics;
    const auto port = listen(io, config, lobby, writer, metrics);
    spdlog::info("parlour listening on http://{}:{} (database {}, web client {})", config.bind, port, config.db,
                 config.web_root);

    boost::asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](const boost::system::error_code&, int signal) {
      spdlog::info("signal {}: shutting down", signal);
      io.stop();
    });

    std::vector<std::thread> threads;
    for (int i = 1; i < config.threads; ++i) threads.emplace_back([&io] { io.run(); });
    io.run();
    for (auto& t : threads) t.join();
    writer.stop();
    spdlog::info("parlour stopped; every committed step is on disk");
  } catch (const std::exception& e) {
    spdlog::critical("parlour cannot run: {}", e.what());
    return 1;
  }
  return 0;
}
