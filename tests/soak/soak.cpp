// The soak: a busy server for a long while, by hand (docs/tests.md "Tests").
//
//   ./build/tests/parlour_soak [--minutes 30] [--clients 8] [--port P [--pid PID]]
//
// It starts the real parlour binary (or drives one already listening on --port)
// and keeps it busy: a table of bots for every game of the catalogue, made again
// when it finishes (and ended by its host after a while, so tables keep turning
// over); clients that each host a table of one game after another, sit at it with
// bots and play random legal actions with action ids, chat, drop their connection
// and come back with their token (resending an unanswered act with its id), leave
// in the middle, watch others' tables, and read ledgers and hand histories.
// A watcher follows every table started. Every 30 s one line: elapsed, the
// server's RSS and CPU, acts acknowledged, table events seen, tables, errors by
// code; and any table that should be moving but has not for 60 s is reported as
// stuck with its last state. The exit code is non-zero if a table was stuck, the
// server died, an unexpected error came, or the RSS grew by more than 25 % after
// the warm-up (the first 5 minutes; the server it starts gets small caches, so
// that they are full by then: --default-caches), the median of the last quarter
// of the samples against that of the first. Errors are counted by their code;
// `dropped` counts a connection that broke, or a request not answered within 5 s.
// A client acts at most every 25 ms, as no person does faster: a game with long
// turns of one's own (Russian Bank) otherwise sent past the 50 a second allowed.
//
// Everything stays inside the server's limits: at most 20 names registered (the
// per-address limit an hour), one connection per client, chat far below 5 lines
// in 10 s per table, at most 15 open tables per host.
#include <utility>  // before Asio: std::exchange in Boost 1.74's awaitable.hpp

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <dirent.h>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "tests/support/random_play.h"
#include "tests/support/server_process.h"
#include "tests/support/ws_client.h"

namespace {

using parlour::support::Json;
using parlour::support::WsClient;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point then) {
  return std::chrono::duration<double>(Clock::now() - then).count();
}

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// The request id a frame answers, or -1 (a push, or a reply to a request sent without one).
std::int64_t answers(const Json& frame) {
  const auto re = frame.find("re");
  return re != frame.end() && re->is_number_integer() ? re->get<std::int64_t>() : -1;
}

// ---------------------------------------------------------------------------
// Options

struct Options {
  double minutes = 30;
  int clients = 8;
  unsigned short port = 0;  // 0: start our own server
  pid_t pid = 0;            // the attached server's process (found from the port when not given)
  double report_s = 30;
  double stuck_s = 60;
  double rss_growth_percent = 25;  // the late median over the early one, after the warm-up
  std::optional<double> warmup_minutes;  // default: 5, or a third of a shorter run
  std::uint64_t seed = 0;
  double table_minutes = 4;  // a host ends his table after this long (bots' tables: 5 min)
  bool default_caches = false;
};

const char* const usage =
    "usage: parlour_soak [--minutes M] [--clients N] [--port P [--pid PID]] [--seed S]\n"
    "                    [--report-s S] [--stuck-s S] [--rss-growth-percent P] [--warmup-minutes W]\n"
    "                    [--default-caches]\n"
    "  --minutes M             how long to run (default 30)\n"
    "  --clients N             client threads that host, play, chat, reconnect, watch, read (default 8, at most 16)\n"
    "  --port P                drive the server listening on 127.0.0.1:P instead of starting one\n"
    "  --pid PID               its process, for RSS and CPU (default: the process listening on P)\n"
    "  --report-s S            seconds between report lines (default 30)\n"
    "  --stuck-s S             a table that has not moved for S seconds is stuck (default 60)\n"
    "  --rss-growth-percent P  allowed RSS growth after the warm-up: the median of the last quarter of\n"
    "                          the samples against that of the first (default 25)\n"
    "  --warmup-minutes W      the warm-up (default 5, or a third of a shorter run)\n"
    "  --seed S                random seed (default: from the clock)\n"
    "  --default-caches        start the server with its default cache sizes (64 MiB of hand\n"
    "                          histories, 100 finished tables), which fill in about 12 minutes of\n"
    "                          this load; by default the soak's own server gets small ones (4 MiB,\n"
    "                          10 tables) that fill within the warm-up, so growth after it is a leak\n";

std::optional<Options> parse_options(int argc, char** argv) {
  Options o;
  o.seed = static_cast<std::uint64_t>(Clock::now().time_since_epoch().count());
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") return std::nullopt;
    if (flag == "--default-caches") {
      o.default_caches = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::cerr << "parlour_soak: " << flag << " needs a value\n";
      return std::nullopt;
    }
    const std::string value = argv[++i];
    try {
      if (flag == "--minutes") o.minutes = std::stod(value);
      else if (flag == "--clients") o.clients = std::stoi(value);
      else if (flag == "--port") o.port = static_cast<unsigned short>(std::stoi(value));
      else if (flag == "--pid") o.pid = std::stoi(value);
      else if (flag == "--report-s") o.report_s = std::stod(value);
      else if (flag == "--stuck-s") o.stuck_s = std::stod(value);
      else if (flag == "--rss-growth-percent") o.rss_growth_percent = std::stod(value);
      else if (flag == "--warmup-minutes") o.warmup_minutes = std::stod(value);
      else if (flag == "--seed") o.seed = std::stoull(value);
      else {
        std::cerr << "parlour_soak: unknown flag " << flag << "\n";
        return std::nullopt;
      }
    } catch (const std::exception&) {
      std::cerr << "parlour_soak: " << flag << " expects a number, got '" << value << "'\n";
      return std::nullopt;
    }
  }
  // 16 clients + 2 bot hosts + the watcher stay under the 20 names an address may register an hour.
  if (o.minutes <= 0 || o.clients < 1 || o.clients > 16 || o.report_s < 1 || o.stuck_s < 1) {
    std::cerr << "parlour_soak: expected --minutes > 0, --clients 1..16, --report-s and --stuck-s >= 1\n";
    return std::nullopt;
  }
  return o;
}

// ---------------------------------------------------------------------------
// The server's process: RSS and CPU from /proc, found by its listening port.

// The inode of the socket listening on 127.0.0.1:port or 0.0.0.0:port, from /proc/net/tcp.
std::string listening_inode(unsigned short port) {
  std::ifstream in("/proc/net/tcp");
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
    fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >> timeout >> inode;
    const auto colon = local.find(':');
    if (state == "0A" && colon != std::string::npos && std::stoul(local.substr(colon + 1), nullptr, 16) == port)
      return inode;
  }
  return "";
}

pid_t pid_listening_on(unsigned short port) {
  const auto inode = listening_inode(port);
  if (inode.empty()) return 0;
  const std::string wanted = "socket:[" + inode + "]";
  std::unique_ptr<DIR, int (*)(DIR*)> proc(opendir("/proc"), closedir);
  if (!proc) return 0;
  while (auto* entry = readdir(proc.get())) {
    const std::string pid = entry->d_name;
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string fd_dir = "/proc/" + pid + "/fd";
    std::unique_ptr<DIR, int (*)(DIR*)> fds(opendir(fd_dir.c_str()), closedir);
    if (!fds) continue;
    while (auto* fd = readdir(fds.get())) {
      char target[256];
      const auto length = readlink((fd_dir + "/" + fd->d_name).c_str(), target, sizeof target - 1);
      if (length > 0 && std::string(target, static_cast<std::size_t>(length)) == wanted) return std::stoi(pid);
    }
  }
  return 0;
}

// Alive: the process exists and is not a zombie.
bool process_alive(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] != 'Z' && text[paren + 2] != 'X';
}

double rss_mib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  return 0;
}

// ---------------------------------------------------------------------------
// What every thread counts; the reporter takes the interval's share.

class Tally {
 public:
  // Errors the soak's own play can meet: an act on a state the clock or a
  // departure overtook; an end, a chat or a join at a table that finished
  // meanwhile; a history of a table ended before its first deal, or the busy
  // reader's answer. Every other error is unexpected.
  static bool expected(const std::string& request, const std::string& code) {
    if (request == "act")
      return code == "not_your_turn" || code == "illegal_action" || code == "conflict" || code == "forbidden";
    if (request == "end" || request == "chat" || request == "join") return code == "conflict";
    if (request == "history") return code == "not_found" || code == "rate_limited";
    if (request == "ledger") return code == "rate_limited";
    return false;
  }

  void count(const std::string& what, long n = 1) {
    std::lock_guard lock(mutex_);
    interval_[what] += n;
    totals_[what] += n;
  }
  void error(const std::string& code, bool expected, const std::string& context) {
    std::lock_guard lock(mutex_);
    interval_errors_[code] += 1;
    total_errors_[code] += 1;
    auto& examples = examples_[code];
    if (examples.size() < 3) examples.push_back(context);
    if (expected) return;
    ++unexpected_;
    if (unexpected_examples_.size() < 20) unexpected_examples_.push_back(code + " (" + context + ")");
    std::cout << "  unexpected error " << code << ": " << context << std::endl;
  }

  struct Share {
    std::map<std::string, long> counts;
    std::map<std::string, long> errors;
  };
  Share take_interval() {
    std::lock_guard lock(mutex_);
    return {std::exchange(interval_, {}), std::exchange(interval_errors_, {})};
  }
  Share totals() const {
    std::lock_guard lock(mutex_);
    return {totals_, total_errors_};
  }
  long unexpected() const {
    std::lock_guard lock(mutex_);
    return unexpected_;
  }
  std::vector<std::string> unexpected_examples() const {
    std::lock_guard lock(mutex_);
    return unexpected_examples_;
  }
  // The first few errors of each code, expected or not, to look into.
  std::map<std::string, std::vector<std::string>> examples() const {
    std::lock_guard lock(mutex_);
    return examples_;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, long> interval_, totals_;
  std::map<std::string, long> interval_errors_, total_errors_;
  long unexpected_ = 0;
  std::vector<std::string> unexpected_examples_;
  std::map<std::string, std::vector<std::string>> examples_;
};

std::string join_counts(const std::map<std::string, long>& counts) {
  if (counts.empty()) return "none";
  std::string out;
  for (const auto& [name, n] : counts) out += (out.empty() ? "" : ", ") + name + " " + std::to_string(n);
  return out;
}

// A name unique to this run (names are 1-24 of [A-Za-z0-9_-]).
std::string run_prefix(std::uint64_t seed) {
  const char* digits = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string out = "soak";
  for (int i = 0; i < 6; ++i, seed /= 36) out += digits[seed % 36];
  return out;
}

// A connection signed in as one name, again with its token after a drop.
class Session {
 public:
  Session(unsigned short port, std::string name) : port_(port), name_(std::move(name)) {}
  WsClient& ws() {
    if (!ws_ || ws_->broken()) connect();
    return *ws_;
  }
  void drop() { ws_.reset(); }
  const std::string& name() const { return name_; }
  bool connected() const { return ws_ && !ws_->broken(); }

 private:
  void connect() {
    ws_.reset();
    auto ws = std::make_unique<WsClient>(port_);
    ws->keep_frames(false);
    token_ = ws->hello(name_, token_);
    ws_ = std::move(ws);
  }
  unsigned short port_;
  std::string name_;
  std::string token_;
  std::unique_ptr<WsClient> ws_;
};

// ---------------------------------------------------------------------------
// The watcher: follows every table started, to tell moving from stuck.

class Watcher {
 public:
  Watcher(Session session, Tally& tally, double stuck_s)
      : session_(std::move(session)), tally_(tally), stuck_s_(stuck_s) {}

  void track(const std::string& table, const std::string& game, const std::string& by) {
    std::lock_guard lock(mutex_);
    Followed followed;
    followed.game = game;
    followed.by = by;
    followed.last_progress = Clock::now();
    tables_[table] = std::move(followed);
    to_watch_.push_back(table);
  }
  bool finished(const std::string& table) const {
    std::lock_guard lock(mutex_);
    return !tables_.count(table);
  }
  std::pair<std::size_t, long> active_and_finished() const {
    std::lock_guard lock(mutex_);
    return {tables_.size(), finished_};
  }

  // Tables that should be moving but have not for stuck_s: reported once each.
  std::vector<std::string> newly_stuck() {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (auto& [id, table] : tables_) {
      const double still = seconds_since(table.last_progress);
      if (table.stuck_reported || still < stuck_s_) continue;
      table.stuck_reported = true;
      std::ostringstream line;
      line << "table " << id << " (" << table.game << ", by " << table.by << ") has not moved for "
           << static_cast<int>(still) << " s; last state: " << table.last_state;
      out.push_back(line.str());
    }
    return out;
  }

  void run(const std::atomic<bool>& stop) {
    while (!stop) {
      try {
        follow(stop);
      } catch (const std::exception& e) {
        tally_.error("dropped", false, "the watcher: " + std::string(e.what()));
        tally_.count("watcher reconnects");
        session_.drop();
        sleep_ms(200);
        std::lock_guard lock(mutex_);
        for (const auto& [id, table] : tables_) to_watch_.push_back(id);  // watch again after a drop
      }
    }
  }

 private:
  struct Followed {
    std::string game;
    std::string by;
    Clock::time_point last_progress;
    std::int64_t seq = 0;
    std::string fingerprint;
    std::string last_state = "no state received yet";
    bool stuck_reported = false;
  };

  void follow(const std::atomic<bool>& stop) {
    auto& ws = session_.ws();
    while (!stop) {
      for (const auto& table : take_to_watch()) {
        const auto id = next_id_++;
        watches_[id] = table;
        ws.send_raw(Json({{"type", "watch"}, {"table", table}, {"id", id}}).dump());
      }
      const auto frame = ws.read(200);
      if (!frame) {
        if (ws.broken()) throw std::runtime_error("the watcher's connection dropped");
        continue;
      }
      if (frame->value("type", "") == "state") note_state(*frame, ws);
      else if (frame->value("type", "") == "error") {
        const auto watch = watches_.find(answers(*frame));
        tally_.error(frame->value("code", "?"), false,
                     "watch " + (watch == watches_.end() ? std::string("?") : watch->second) + ": " +
                         frame->value("message", ""));
      }
      watches_.erase(answers(*frame));
    }
  }

  std::vector<std::string> take_to_watch() {
    std::lock_guard lock(mutex_);
    return std::exchange(to_watch_, {});
  }

  // Progress is a change of the game (view, turn, status), not a chat line,
  // which moves the seq of a table that may be stuck all the same.
  void note_state(const Json& state, WsClient& ws) {
    const std::string id = state.value("table", "");
    const auto seq = state.value("seq", std::int64_t{0});
    const std::string status = state.value("status", "");
    std::string fingerprint = state.value("view", Json()).dump() + state.value("to_act", Json()).dump() + status;
    std::lock_guard lock(mutex_);
    const auto it = tables_.find(id);
    if (it == tables_.end()) return;
    auto& table = it->second;
    if (seq > table.seq) tally_.count("events", seq - table.seq);
    table.seq = std::max(table.seq, seq);
    if (fingerprint != table.fingerprint) {
      if (table.stuck_reported)
        std::cout << "  table " << id << " (" << table.game << ") moved again after "
                  << static_cast<int>(seconds_since(table.last_progress)) << " s" << std::endl;
      table.fingerprint = std::move(fingerprint);
      table.last_progress = Clock::now();
    }
    table.last_state = describe(state);
    if (status != "finished") return;
    if (state.contains("failure")) tally_.error("table_failure", false, id + ": " + state["failure"].dump());
    tables_.erase(it);
    ++finished_;
    tally_.count("tables finished");
    ws.send_raw(Json({{"type", "leave"}, {"table", id}}).dump());
    ws.forget(id);
  }

  static std::string describe(const Json& state) {
    std::ostringstream out;
    out << "seq " << state.value("seq", 0) << ", status " << state.value("status", "?") << ", to_act "
        << state.value("to_act", Json()).dump();
    if (state.contains("view") && state["view"].contains("phase")) out << ", phase " << state["view"]["phase"].dump();
    out << ", players";
    for (const auto& p : state.value("players", Json::array()))
      out << " " << p.value("player", "?") << (p.value("connected", true) ? "" : "(away)");
    const auto log = state.value("log", Json::array());
    if (!log.empty()) out << ", last log " << log.back().dump();
    return out.str();
  }

  Session session_;
  Tally& tally_;
  double stuck_s_;
  mutable std::mutex mutex_;
  std::map<std::string, Followed> tables_;
  std::vector<std::string> to_watch_;
  long finished_ = 0;
  std::map<std::int64_t, std::string> watches_;  // request id -> table (watcher thread only)
  std::int64_t next_id_ = 1;
};

// ---------------------------------------------------------------------------
// Seats for a game: three where two to more may play, else its least.

int seats_for(const Json& game) {
  const int least = game["min_players"].get<int>(), most = game["max_players"].get<int>();
  return least == 2 && most >= 3 ? 3 : least;
}

// A request whose reply must be `expected`; an error is counted (and is
// unexpected unless Tally::expected says otherwise); no reply in 5 s throws.
std::optional<Json> ask(Session& session, Tally& tally, Json message, const std::string& expected) {
  const std::string what = message.value("type", "?");
  auto reply = session.ws().request(message);
  if (reply.value("type", "") == expected) return reply;
  const std::string code = reply.value("code", "?");
  tally.error(code, Tally::expected(what, code), session.name() + " " + what + ": " + reply.value("message", reply.dump()));
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// The bots' tables: one playing for every game of the catalogue.

class BotTables {
 public:
  BotTables(unsigned short port, const std::string& prefix, const Json& games, Tally& tally, Watcher& watcher)
      : games_(games), tally_(tally), watcher_(watcher) {
    // At most 15 open tables per host, inside --max-open-tables (20).
    const std::size_t hosts = (games.size() + 14) / 15;
    for (std::size_t i = 0; i < hosts; ++i) hosts_.emplace_back(port, prefix + "-h" + std::to_string(i));
    live_.resize(games.size());
  }

  void run(const std::atomic<bool>& stop) {
    while (!stop) {
      for (std::size_t i = 0; i < games_.size() && !stop; ++i) {
        auto& host = hosts_[i % hosts_.size()];
        try {
          keep_going(i, host);
        } catch (const std::exception& e) {
          tally_.error("dropped", false, host.name() + ": " + e.what());
          tally_.count("bot host reconnects");
          host.drop();
        }
      }
      sleep_ms(1000);
    }
  }

 private:
  struct Live {
    std::string table;
    Clock::time_point started;
    int ends_sent = 0;
  };

  // Five minutes of a bots' table are enough: its host ends it (and again a
  // minute later: a second `end` ends a deal in progress at once).
  void keep_going(std::size_t index, Session& host) {
    auto& live = live_[index];
    if (!live.table.empty() && !watcher_.finished(live.table)) {
      const double age = seconds_since(live.started);
      if (age > 300 + 60.0 * live.ends_sent) {
        ++live.ends_sent;
        ask(host, tally_, {{"type", "end"}, {"table", live.table}}, "ok");
        tally_.count("ends");
      }
      return;
    }
    const auto& game = games_[index];
    const std::string id = game["id"];
    auto created = ask(host, tally_, {{"type", "create"}, {"game", id}, {"seats", seats_for(game)}}, "created");
    if (!created) return;
    const std::string table = (*created)["table"];
    for (int seat = 0; seat < seats_for(game); ++seat)
      if (!ask(host, tally_, {{"type", "bot"}, {"table", table}}, "ok")) return;
    if (!ask(host, tally_, {{"type", "start"}, {"table", table}}, "ok")) return;
    watcher_.track(table, id, "bots");
    tally_.count("tables started");
    live = {table, Clock::now(), 0};
  }

  const Json& games_;
  Tally& tally_;
  Watcher& watcher_;
  std::deque<Session> hosts_;
  std::vector<Live> live_;
};

// ---------------------------------------------------------------------------
// A client: hosts a table of one game after another and plays a seat there
// with bots; chats, drops and comes back, sometimes leaves; between tables
// watches someone else's and reads a ledger and a history.

class Client {
 public:
  Client(unsigned short port, std::string name, std::size_t first_game, const Json& games, Tally& tally,
         Watcher& watcher, std::uint64_t seed, double table_minutes)
      : session_(port, std::move(name)),
        next_game_(first_game),
        games_(games),
        tally_(tally),
        watcher_(watcher),
        rng_(seed),
        table_s_(table_minutes * 60) {}

  void run(const std::atomic<bool>& stop) {
    while (!stop) {
      try {
        play_a_table(stop);
        if (chance(0.5)) watch_a_table(stop);
        if (chance(0.5)) read_a_ledger_and_a_history();
      } catch (const std::exception& e) {
        tally_.error("dropped", false, session_.name() + ": " + e.what());
        tally_.count("client reconnects");
        session_.drop();
        sleep_ms(200);
      }
    }
  }

 private:
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }

  void play_a_table(const std::atomic<bool>& stop) {
    end_overdue_tables_left();
    const auto& game = games_[next_game_++ % games_.size()];
    const std::string id = game["id"];
    auto created = ask(session_, tally_, {{"type", "create"}, {"game", id}, {"seats", seats_for(game)}}, "created");
    if (!created) return sleep_ms(1000);
    table_ = (*created)["table"];
    if (!ask(session_, tally_, {{"type", "join"}, {"table", table_}}, "joined")) return;
    for (int seat = 1; seat < seats_for(game); ++seat)
      if (!ask(session_, tally_, {{"type", "bot"}, {"table", table_}}, "ok")) return;
    if (!ask(session_, tally_, {{"type", "start"}, {"table", table_}}, "ok")) return;
    watcher_.track(table_, id, session_.name());
    tally_.count("tables started");
    play(stop);
    session_.ws().forget(table_);
    last_finished_ = table_;
  }

  // Plays until the table finishes, ending it after table_s_ and perhaps leaving it.
  void play(const std::atomic<bool>& stop) {
    const auto started = Clock::now();
    auto next_chat = Clock::now() + seconds(uniform(5, 20));
    auto next_drop = Clock::now() + seconds(uniform(30, 120));
    const auto leave_at = chance(0.2) ? Clock::now() + seconds(uniform(20, 90)) : Clock::time_point::max();
    int ends_sent = 0;
    finished_ = false;
    applied_seq_ = 0;
    unanswered_.reset();
    latest_.reset();
    for (const auto& state : session_.ws().take_kept_states()) on_state(state);
    while (!stop) {
      if (finished_) return;
      if (Clock::now() > next_chat) {
        chat();
        next_chat = Clock::now() + seconds(uniform(5, 20));
      }
      if (Clock::now() > next_drop) {
        reconnect();
        next_drop = Clock::now() + seconds(uniform(30, 120));
      }
      if (Clock::now() > leave_at) {
        send({{"type", "leave"}, {"table", table_}}, "leave");
        tally_.count("leaves");
        left_.push_back({table_, started});  // still his to end: he hosts it
        return;
      }
      if (seconds_since(started) > table_s_ + 60.0 * ends_sent) {
        send({{"type", "end"}, {"table", table_}}, "end");
        tally_.count("ends");
        ++ends_sent;
      }
      try {
        auto frame = session_.ws().read(500);
        if (!frame) {
          if (session_.ws().broken()) reconnect();
          continue;
        }
        if (answers(*frame) >= 0) on_reply(*frame);
        else if (frame->value("type", "") == "state") on_state(*frame);
      } catch (const std::exception&) {
        reconnect();  // a send or read on a connection that broke
      }
    }
  }

  // A table he left goes on with its bots; its host ends it in time, as his own,
  // so that his open tables stay within --max-open-tables.
  void end_overdue_tables_left() {
    std::erase_if(left_, [&](const auto& left) {
      if (watcher_.finished(left.first)) return true;
      if (seconds_since(left.second) < table_s_) return false;
      ask(session_, tally_, {{"type", "end"}, {"table", left.first}}, "ok");
      tally_.count("ends");
      return false;  // kept until it has finished (a second end ends a deal at once)
    });
  }

  static Clock::duration seconds(double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  }

  void on_state(const Json& state) {
    if (state.value("table", "") != table_) return;
    if (state.value("status", "") == "finished") {
      finished_ = true;
      return;
    }
    // A push sent before his last act was applied (it was on its way when he
    // acted) offers what he has just done: only a push from that act on counts.
    if (state.value("seq", std::int64_t{0}) < applied_seq_) return;
    latest_ = state;
    act_if_due();
  }

  void act_if_due() {
    if (unanswered_ || !latest_ || latest_->value("legal", Json::array()).empty()) return;
    const auto since = Clock::now() - last_act_;
    if (since < kActEvery) std::this_thread::sleep_for(kActEvery - since);
    last_act_ = Clock::now();
    const auto action = parlour::support::random_legal_action((*latest_)["legal"], rng_);
    Json act = {{"type", "act"},
                {"table", table_},
                {"action", action},
                {"action_id", session_.name() + "-" + std::to_string(++acts_)}};
    unanswered_ = send(act, "act");
    latest_.reset();  // acted on: the next act waits for the next push
  }

  void on_reply(const Json& reply) {
    const auto re = answers(reply);
    const auto kind = sent_.find(re);
    const std::string what = kind == sent_.end() ? "?" : kind->second;
    if (kind != sent_.end()) sent_.erase(kind);
    const bool error = reply.value("type", "") == "error";
    if (what == "act" && unanswered_ && (*unanswered_)["id"] == re) {
      const Json action = (*unanswered_)["action"];
      unanswered_.reset();
      if (error)
        tally_.error(reply.value("code", "?"), Tally::expected("act", reply.value("code", "")),
                     session_.name() + " act " + action.dump() + " at " + table_ + ": " + reply.value("message", ""));
      else {
        tally_.count("acks");
        applied_seq_ = reply.value("seq", std::int64_t{0});
        if (latest_ && latest_->value("seq", std::int64_t{0}) < applied_seq_) latest_.reset();
      }
      // A push that came after the act (and only such a one is kept) may ask for the next.
      act_if_due();
      return;
    }
    if (error)
      tally_.error(reply.value("code", "?"), Tally::expected(what, reply.value("code", "")),
                   session_.name() + " " + what + " at " + table_ + ": " + reply.value("message", ""));
  }

  Json send(Json message, const std::string& kind) {
    message["id"] = next_id_;
    sent_[next_id_++] = kind;
    session_.ws().send_raw(message.dump());
    return message;
  }

  void chat() {
    static const char* const reactions[] = {"gg", "nice", "oops", "thanks", "wow", "thumbs_up"};
    Json line = {{"type", "chat"}, {"table", table_}};
    if (chance(0.5)) line["reaction"] = reactions[rng_() % std::size(reactions)];
    else line["text"] = "soak line " + std::to_string(++chats_) + " from " + session_.name();
    send(line, "chat");
    tally_.count("chat lines");
  }

  // Drops the connection without a word and comes back with the token: the
  // seat is his again, and an act whose answer was lost goes again with its id.
  void reconnect() {
    session_.drop();
    tally_.count("client reconnects");
    sent_.clear();
    for (int tries = 1; !session_.connected(); ++tries) {
      try {
        session_.ws();
      } catch (const std::exception&) {
        if (tries == 50) throw;  // ten seconds without the server: give up this table
        sleep_ms(200);
      }
    }
    send({{"type", "join"}, {"table", table_}}, "join");
    if (unanswered_) {
      (*unanswered_)["id"] = next_id_;
      sent_[next_id_++] = "act";
      session_.ws().send_raw(unanswered_->dump());
      tally_.count("acts resent");
    }
  }

  // Someone else's table for a while, with a line of chat.
  void watch_a_table(const std::atomic<bool>& stop) {
    auto listed = ask(session_, tally_, {{"type", "tables"}}, "tables");
    if (!listed) return;
    std::vector<std::string> playing;
    for (const auto& line : (*listed)["tables"])
      if (line.value("status", "") == "playing") playing.push_back(line["table"]);
    if (playing.empty()) return;
    table_ = playing[rng_() % playing.size()];
    finished_ = false;
    send({{"type", "watch"}, {"table", table_}}, "watch");
    tally_.count("watches");
    const auto until = Clock::now() + seconds(uniform(5, 20));
    bool chatted = false;
    while (!stop && Clock::now() < until) {
      auto frame = session_.ws().read(500);
      if (!frame) {
        if (session_.ws().broken()) return;
        continue;
      }
      if (answers(*frame) >= 0) on_reply(*frame);
      if (!chatted && frame->value("type", "") == "state") {
        chat();
        chatted = true;
      }
    }
    send({{"type", "leave"}, {"table", table_}}, "leave");
    session_.ws().drain(200);
    session_.ws().take_kept_states();
    session_.ws().forget(table_);
  }

  void read_a_ledger_and_a_history() {
    if (ask(session_, tally_, {{"type", "ledger"}, {"player", session_.name()}, {"limit", 20}}, "ledger"))
      tally_.count("reads");
    if (last_finished_.empty() || !watcher_.finished(last_finished_)) return;
    if (ask(session_, tally_, {{"type", "history"}, {"table", last_finished_}, {"deal", 1}}, "history"))
      tally_.count("reads");
    session_.ws().take_kept_states();
  }

  Session session_;
  std::size_t next_game_;
  const Json& games_;
  Tally& tally_;
  Watcher& watcher_;
  std::mt19937_64 rng_;
  double table_s_;
  std::string table_;
  std::string last_finished_;
  std::vector<std::pair<std::string, Clock::time_point>> left_;  // tables he left, hosted still
  bool finished_ = false;
  std::optional<Json> latest_;      // the last state of the table, while its legal is unanswered
  std::optional<Json> unanswered_;  // the act sent and not yet answered
  std::int64_t applied_seq_ = 0;    // the seq his last acknowledged act made
  std::map<std::int64_t, std::string> sent_;  // request id -> what it was
  std::int64_t next_id_ = 1000;
  int acts_ = 0;
  int chats_ = 0;
  static constexpr std::chrono::milliseconds kActEvery{25};  // inside the server's 50 messages a second
  Clock::time_point last_act_{};
};

// ---------------------------------------------------------------------------
// The run: report lines, the stuck check, the summary.

struct Sample {
  double minute;
  double rss;
};

int soak(const Options& options) {
  std::unique_ptr<parlour::support::ServerProcess> own;
  unsigned short port = options.port;
  pid_t pid = options.pid;
  if (port == 0) {
    // A busy server: bots think 100 ms, a deal's result stays up 1 s, and
    // nobody runs out of chips in a long run.
    std::vector<std::string> args{"--bot-delay-ms", "100", "--deal-pause-ms", "1000", "--starting-chips", "1000000",
                                  // Its hosts make a table every few seconds all run long.
                                  "--tables-per-hour", "100000"};
    // The server's bounded caches grow until they are full; small ones are full
    // within the warm-up, so that the RSS check after it sees leaks, not caches.
    if (!options.default_caches)
      args.insert(args.end(), {"--history-cache-mb", "4", "--max-finished-tables", "10"});
    own = std::make_unique<parlour::support::ServerProcess>(parlour::support::ServerProcess::fresh_db("soak"),
                                                            std::move(args));
    port = own->port();
    pid = own->pid();
    std::cout << "soak: started " << parlour::support::parlour_binary() << " (pid " << pid << ") on port " << port << ", database "
              << own->db() << std::endl;
  } else if (pid == 0) {
    pid = pid_listening_on(port);
    if (pid == 0) {
      std::cerr << "parlour_soak: no process of ours listens on port " << port << "; give its --pid\n";
      return 2;
    }
  }
  if (!process_alive(pid)) {
    std::cerr << "parlour_soak: process " << pid << " is not running\n";
    return 2;
  }
  const double warmup = options.warmup_minutes.value_or(std::min(5.0, options.minutes / 3));
  const std::string prefix = run_prefix(options.seed);
  std::cout << "soak: " << options.minutes << " min, " << options.clients << " clients, seed " << options.seed
            << ", names " << prefix << "-*, warm-up " << warmup << " min" << std::endl;

  Tally tally;
  Session watching(port, prefix + "-w");
  const Json games = watching.ws().request({{"type", "games"}})["games"];
  if (!games.is_array() || games.empty()) {
    std::cerr << "parlour_soak: the server listed no games\n";
    return 2;
  }
  std::atomic<bool> stop{false};
  Watcher watcher(std::move(watching), tally, options.stuck_s);
  BotTables bots(port, prefix, games, tally, watcher);
  std::vector<std::unique_ptr<Client>> clients;
  std::mt19937_64 seeds(options.seed);
  for (int i = 0; i < options.clients; ++i)
    clients.push_back(std::make_unique<Client>(port, prefix + "-c" + std::to_string(i),
                                               static_cast<std::size_t>(i) * games.size() / options.clients, games,
                                               tally, watcher, seeds(), options.table_minutes));
  std::vector<std::thread> threads;
  threads.reserve(2 + clients.size());
  threads.emplace_back([&] { watcher.run(stop); });
  threads.emplace_back([&] { bots.run(stop); });
  for (auto& client : clients) threads.emplace_back([&, c = client.get()] { c->run(stop); });

  const auto began = Clock::now();
  std::vector<Sample> samples;
  std::vector<double> cpu_percents;
  std::vector<std::string> stuck;
  bool died = false;
  double last_cpu = parlour::support::process_cpu_seconds(pid);
  auto last_tick = Clock::now();
  samples.push_back({0, rss_mib(pid)});
  while (seconds_since(began) < options.minutes * 60) {
    const double wait = std::min(options.report_s, options.minutes * 60 - seconds_since(began));
    for (double waited = 0; waited < wait && !died; waited += 0.5) {
      sleep_ms(500);
      died = !process_alive(pid);
    }
    if (died) {
      std::cout << "soak: the server (pid " << pid << ") died at " << seconds_since(began) << " s" << std::endl;
      break;
    }
    const double cpu = parlour::support::process_cpu_seconds(pid);
    const double cpu_percent = 100 * (cpu - last_cpu) / seconds_since(last_tick);
    last_cpu = cpu;
    last_tick = Clock::now();
    cpu_percents.push_back(cpu_percent);
    const double elapsed = seconds_since(began);
    samples.push_back({elapsed / 60, rss_mib(pid)});
    const auto share = tally.take_interval();
    const auto [active, finished] = watcher.active_and_finished();
    auto counted = [&](const char* what) { return share.counts.count(what) ? share.counts.at(what) : 0L; };
    char line[512];
    std::snprintf(line, sizeof line,
                  "[%02d:%02d] rss %.1f MiB  cpu %.0f%%  acks %ld  events %ld  tables %zu active / %ld finished  "
                  "errors: %s",
                  static_cast<int>(elapsed) / 60, static_cast<int>(elapsed) % 60, samples.back().rss, cpu_percent,
                  counted("acks"), counted("events"), active, finished, join_counts(share.errors).c_str());
    std::cout << line << std::endl;
    for (auto& report : watcher.newly_stuck()) {
      std::cout << "  STUCK " << report << std::endl;
      stuck.push_back(std::move(report));
    }
  }
  stop = true;
  for (auto& thread : threads) thread.join();

  // The summary.
  double rss_min = samples.front().rss, rss_max = rss_min;
  for (const auto& s : samples) rss_min = std::min(rss_min, s.rss), rss_max = std::max(rss_max, s.rss);
  // Growth is the trend, not one sample: the median of the last quarter of the
  // samples after the warm-up against the median of the first quarter. A burst
  // (a long history read, many deals ending at once) lifts one sample by 15 MiB
  // and is gone at the next; a leak lifts them all.
  std::vector<double> after_warmup;
  for (const auto& s : samples)
    if (s.minute >= warmup) after_warmup.push_back(s.rss);
  auto median = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  double cpu_mean = 0;
  for (double c : cpu_percents) cpu_mean += c / static_cast<double>(cpu_percents.size());
  const auto totals = tally.totals();
  std::cout << "\nsoak summary: " << seconds_since(began) / 60 << " min, server " << (died ? "DIED" : "alive") << "\n";
  char rss_line[256];
  std::snprintf(rss_line, sizeof rss_line, "  RSS MiB: first %.1f, min %.1f, max %.1f, last %.1f", samples.front().rss,
                rss_min, rss_max, samples.back().rss);
  std::cout << rss_line;
  bool grew = false;
  if (after_warmup.size() >= 4) {
    const auto quarter = static_cast<std::ptrdiff_t>(after_warmup.size() / 4);
    const double early = median({after_warmup.begin(), after_warmup.begin() + quarter});
    const double late = median({after_warmup.end() - quarter, after_warmup.end()});
    const double growth = 100 * (late - early) / early;
    grew = growth > options.rss_growth_percent;
    std::snprintf(rss_line, sizeof rss_line,
                  "; after the %.1f min warm-up, median of the first quarter %.1f -> of the last %.1f (%+.0f %%, limit "
                  "%.0f %%), max %.1f",
                  warmup, early, late, growth, options.rss_growth_percent,
                  *std::max_element(after_warmup.begin(), after_warmup.end()));
    std::cout << rss_line;
  }
  std::printf("\n  CPU: mean %.0f%% of one core over %zu intervals\n", cpu_mean, cpu_percents.size());
  std::cout << std::flush;
  std::cout << "  totals: " << join_counts(totals.counts) << "\n";
  std::cout << "  errors by code: " << join_counts(totals.errors) << "; unexpected: " << tally.unexpected() << "\n";
  for (const auto& example : tally.unexpected_examples()) std::cout << "    " << example << "\n";
  for (const auto& [code, examples] : tally.examples())
    for (const auto& example : examples) std::cout << "    e.g. " << code << ": " << example << "\n";
  std::cout << "  stuck tables: " << stuck.size() << "\n";
  for (const auto& report : stuck) std::cout << "    " << report << "\n";
  std::vector<std::string> failures;
  if (died) failures.push_back("the server died");
  if (!stuck.empty()) failures.push_back(std::to_string(stuck.size()) + " stuck tables");
  if (grew) failures.push_back("RSS grew beyond the limit after the warm-up");
  if (tally.unexpected() > 0) failures.push_back(std::to_string(tally.unexpected()) + " unexpected errors");
  std::string verdict;
  for (const auto& f : failures) verdict += (verdict.empty() ? "" : "; ") + f;
  std::cout << "  result: " << (failures.empty() ? "PASS" : "FAIL (" + verdict + ")") << std::endl;
  return failures.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const auto options = parse_options(argc, argv);
  if (!options) {
    std::cerr << usage;
    return 2;
  }
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return soak(*options);
  } catch (const std::exception& e) {
    std::cerr << "parlour_soak: " << e.what() << "\n";
    return 2;
  }
}
