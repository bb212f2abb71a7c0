#include "server/admin/admin.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "protocol/messages.h"
#include "server/common/config.h"
#include "server/common/names.h"
#include "server/common/tokens.h"
#include "storage/store.h"

namespace parlour::server {

namespace {

using storage::IdentityChange;
using storage::Store;

// A presence row older than this is a server that stopped (they refresh every 3 s).
constexpr auto presence_fresh_for = std::chrono::seconds(10);
// How long end-table waits for the serving node to end the table.
constexpr auto end_table_wait = std::chrono::seconds(5);
// The largest adjustment taken at once: a typo's extra zeros are refused.
constexpr std::int64_t max_adjustment = 1'000'000'000;
constexpr int max_claim_hours = 24 * 7;

std::string admin_usage() {
  return "usage: parlour admin SUBCOMMAND [ARGS] [--db PATH|URI]\n"
    "  players                      every name: last seen, chips, tables in play, devices\n"
    "  online                       who is signed in now, on every running server\n"
    "  claim-link NAME [--hours H] [--url URL]\n"
    "                               a one-time code that replaces NAME's key and devices (default 24 h)\n"
    "  ban NAME | unban NAME        a banned name is signed out within a second and cannot sign in\n"
    "  rename OLD NEW               the name, its chips and its ledger move to NEW\n"
    "  adjust NAME AMOUNT --memo TEXT\n"
    "                               moves AMOUNT chips from the bank to NAME (negative: back to the bank)\n"
    "  tables                       unfinished tables, and tables that failed or were quarantined\n"
    "  end-table ID                 the serving server ends the table, sharing out its pools\n"
    "  --db defaults to " + Config{}.db + "; see docs/admin.md\n";
}

// What a subcommand was given: its words in order, and its --flags.
struct CommandLine {
  std::string command;
  std::vector<std::string> words;
  std::map<std::string, std::string> flags;
};

// A refusal: said on err, exit 1.
struct Refused {
  std::string why;
};

std::optional<CommandLine> parse(const std::vector<std::string>& args, std::ostream& err) {
  static const std::set<std::string> known{"--db", "--memo", "--hours", "--url", "--public-url"};
  CommandLine line;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto& arg = args[i];
    if (arg.starts_with("--") && !known.contains(arg)) {
      err << "unknown option " << arg << "\n" << admin_usage();
      return std::nullopt;
    }
    if (known.contains(arg)) {
      if (i + 1 >= args.size()) {
        err << "missing value after " << arg << "\n" << admin_usage();
        return std::nullopt;
      }
      line.flags[arg == "--public-url" ? "--url" : arg] = args[++i];
    } else if (line.command.empty()) {
      line.command = arg;
    } else {
      line.words.push_back(arg);
    }
  }
  return line;
}


storage::Player existing_player(Store& db, const std::string& name) {
  auto player = db.find_player(name);
  if (!player) throw Refused{"no player named '" + name + "'; nothing changed"};
  return *player;
}

std::vector<storage::TableRecord> unfinished_tables(Store& db) {
  auto tables = db.tables_with_status("waiting");
  auto playing = db.tables_with_status("playing");
  tables.insert(tables.end(), playing.begin(), playing.end());
  return tables;
}

std::vector<storage::Presence> fresh_presence(Store& db) {
  return db.presence_since(storage::utc_iso8601(std::chrono::system_clock::now() - presence_fresh_for));
}

// --- Subcommands

int players(Store& db, std::ostream& out) {
  std::map<std::string, std::string> seen;
  for (const auto& [name, time] : db.last_seen()) seen[folded_name(name)] = time;
  std::set<std::string> online;
  for (const auto& presence : fresh_presence(db))
    for (const auto& name : presence.names) online.insert(folded_name(name));
  std::map<std::string, int> in_play;
  for (const auto& table : unfinished_tables(db))
    for (const auto& seat : table.seats)
      if (!seat.bot && !seat.player.empty()) ++in_play[folded_name(seat.player)];
  std::map<std::string, int> devices;
  for (const auto& device : db.all_devices()) ++devices[folded_name(device.player)];
  std::set<std::string> banned;
  for (const auto& name : db.banned_names()) banned.insert(folded_name(name));

  out << std::left << std::setw(26) << "NAME" << std::setw(26) << "LAST SEEN" << std::right << std::setw(12) << "CHIPS"
      << std::setw(9) << "IN PLAY" << std::setw(9) << "DEVICES" << "\n";
  for (const auto& player : db.all_players()) {
    const auto key = folded_name(player.name);
    const auto last = online.contains(key) ? std::string("online now") : seen.contains(key) ? seen[key] : "never";
    const int first_device = player.token_hash.starts_with("revoked:") ? 0 : 1;
    out << std::left << std::setw(26) << (player.name + (banned.contains(key) ? " (banned)" : "")) << std::setw(26)
        << last << std::right << std::setw(12) << db.balance(storage::player_account(player.name)) << std::setw(9)
        << in_play[key] << std::setw(9) << first_device + devices[key] << "\n";
  }
  return 0;
}

int online(Store& db, std::ostream& out) {
  const auto presence = fresh_presence(db);
  if (presence.empty()) {
    out << "no running server has reported in the last " << presence_fresh_for.count() << " s\n";
    return 0;
  }
  std::size_t count = 0;
  for (const auto& server : presence) {
    for (const auto& name : server.names) out << name << "\t" << server.node << "\n";
    count += server.names.size();
  }
  out << count << " signed in on " << presence.size() << " server" << (presence.size() == 1 ? "" : "s") << "\n";
  return 0;
}

int claim_link(Store& db, const CommandLine& line, std::ostream& out) {
  if (line.words.size() != 1) throw Refused{"claim-link takes one name"};
  const auto player = existing_player(db, line.words[0]);
  int hours = 24;
  if (const auto it = line.flags.find("--hours"); it != line.flags.end()) {
    const auto& text = it->second;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), hours);
    if (ec != std::errc() || end != text.data() + text.size() || hours < 1 || hours > max_claim_hours)
      throw Refused{"bad value for --hours: '" + text + "' (1 to " + std::to_string(max_claim_hours) + ")"};
  }
  const auto code = new_recovery_code();
  const auto expires_at = storage::utc_iso8601(std::chrono::system_clock::now() + std::chrono::hours(hours));
  db.create_claim_link(player.id, sha256_hex(normalized_code(code)), expires_at);
  out << "claim code " << code << " for " << player.name << " until " << expires_at << " (one use)\n";
  std::string url = line.flags.contains("--url") ? line.flags.at("--url") : "";
  if (url.ends_with('/')) url.pop_back();
  out << "give it to " << player.name << ": on " << (url.empty() ? "the server's page" : url + "/")
      << ", \"Lost your key?\" with the name " << player.name
      << " and this code signs in with a new key and recovery code; every other key and device of the name is "
         "signed out\n";
  return 0;
}

int set_ban(Store& db, const CommandLine& line, bool ban, std::ostream& out) {
  if (line.words.size() != 1) throw Refused{std::string(ban ? "ban" : "unban") + " takes one name"};
  const auto player = existing_player(db, line.words[0]);
  if (!db.set_banned(player.id, ban)) {
    out << player.name << " was " << (ban ? "banned" : "not banned") << " already; nothing changed\n";
    return 0;
  }
  if (ban)
    out << player.name << " is banned: signed out of every server within a second, and cannot sign in; his seats "
        << "stay his, played by the turn clock as an absent player's\n";
  else
    out << player.name << " may sign in again\n";
  return 0;
}

int rename(Store& db, const CommandLine& line, std::ostream& out) {
  if (line.words.size() != 2) throw Refused{"rename takes the old name and the new one"};
  const auto player = existing_player(db, line.words[0]);
  const auto& new_name = line.words[1];
  if (!protocol::valid_player_name(new_name))
    throw Refused{"'" + new_name + "' is not a name: 1 to 24 letters, digits, '-' or '_'; nothing changed"};
  if (new_name.size() >= 4 && same_name(new_name.substr(0, 4), "bot-"))
    throw Refused{"names starting with 'bot-' are kept for bots; nothing changed"};
  for (const auto& table : unfinished_tables(db))
    for (const auto& seat : table.seats)
      if (!seat.bot && same_name(seat.player, player.name))
        throw Refused{player.name + " is seated at unfinished table " + table.id +
                      "; rename once it is over (or end it); nothing changed"};
  try {
    db.rename_player(player.id, new_name);
  } catch (const storage::NameTaken& e) {
    throw Refused{std::string(e.what()) + "; nothing changed"};
  }
  out << player.name << " is " << new_name << " now: the same key, devices, chips and ledger; finished tables' "
      << "hand histories keep the name played under\n";
  return 0;
}

std::int64_t parse_amount(const std::string& text) {
  std::int64_t amount = 0;
  const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
  const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), amount);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || amount == 0 ||
      amount > max_adjustment || amount < -max_adjustment)
    throw Refused{"bad amount '" + text + "': expected a whole number of chips other than 0, at most " +
                  std::to_string(max_adjustment) + " either way; nothing changed"};
  return amount;
}

int adjust(Store& db, const CommandLine& line, std::ostream& out) {
  if (line.words.size() != 2) throw Refused{"adjust takes a name and an amount (and --memo TEXT)"};
  const auto memo = line.flags.contains("--memo") ? line.flags.at("--memo") : "";
  if (memo.find_first_not_of(" \t") == std::string::npos)
    throw Refused{"adjust needs --memo TEXT: the reason, kept in the ledger; nothing changed"};
  const auto amount = parse_amount(line.words[1]);
  const auto player = existing_player(db, line.words[0]);
  const auto account = storage::player_account(player.name);
  const auto has = db.balance(account);
  if (amount < 0 && has + amount < 0)
    throw Refused{"refused: " + player.name + " has " + std::to_string(has) + " chips, fewer than " +
                  std::to_string(-amount) + "; nothing changed"};
  storage::Posting posting{amount > 0 ? storage::bank_account() : account,
                           amount > 0 ? account : storage::bank_account(),
                           amount > 0 ? amount : -amount,
                           "admin: " + memo,
                           "",
                           "",
                           std::nullopt,
                           std::nullopt};
  try {
    db.transfer(posting, IdentityChange{.kind = IdentityChange::balance_changed, .player_id = player.id,
                                        .name = player.name});
  } catch (const storage::StorageError& e) {
    // Spent at a table since the balance was read above.
    throw Refused{std::string("refused: ") + e.what() + "; nothing changed"};
  }
  out << (amount > 0 ? "+" : "") << amount << " chips for " << player.name << " (" << memo << "), now "
      << db.balance(account) << "\n";
  return 0;
}

int tables(Store& db, std::ostream& out) {
  auto listed = unfinished_tables(db);
  for (auto& table : db.tables_with_status("finished"))
    if (!table.failure.empty()) listed.push_back(std::move(table));
  out << std::left << std::setw(12) << "ID" << std::setw(22) << "GAME" << std::setw(10) << "STATUS" << std::setw(20)
      << "HOST" << "SEATS / FAILURE\n";
  for (const auto& table : listed) {
    std::string seats;
    for (const auto& seat : table.seats)
      if (!seat.player.empty()) seats += (seats.empty() ? "" : ", ") + seat.player;
    const auto status = table.failure.empty() ? table.status : std::string("failed");
    out << std::left << std::setw(12) << table.id << std::setw(22) << table.game << std::setw(10) << status
        << std::setw(20) << table.host << (table.failure.empty() ? seats : table.failure) << "\n";
  }
  out << listed.size() << " table" << (listed.size() == 1 ? "" : "s") << "\n";
  return 0;
}

int end_table(Store& db, const CommandLine& line, std::ostream& out) {
  if (line.words.size() != 1) throw Refused{"end-table takes one table id"};
  const auto& id = line.words[0];
  const auto table = db.find_table(id);
  if (!table) throw Refused{"no table '" + id + "'; nothing changed"};
  if (table->status == "finished") throw Refused{"table " + id + " is finished already; nothing changed"};
  // Only the server playing it may write its log: it is asked through the feed.
  if (fresh_presence(db).empty())
    throw Refused{"no running server has reported in the last " + std::to_string(presence_fresh_for.count()) +
                  " s; start the server, which ends the table it plays when asked; nothing changed"};
  db.record_identity_change(IdentityChange{.kind = IdentityChange::table_ended, .name = "", .detail = id});
  const auto deadline = std::chrono::steady_clock::now() + end_table_wait;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    if (const auto now = db.find_table(id); now && now->status == "finished") {
      out << "table " << id << " ended; its pools were shared out as a failed table's\n";
      return 0;
    }
  }
  throw Refused{"asked the running servers to end table " + id + ", but it has not ended within " +
                std::to_string(end_table_wait.count()) + " s (is a server serving it?)"};
}

int run(Store& db, const CommandLine& line, std::ostream& out) {
  const auto& command = line.command;
  const auto no_words = [&] {
    if (!line.words.empty()) throw Refused{command + " takes no arguments, got '" + line.words[0] + "'"};
  };
  if (command == "players") return no_words(), players(db, out);
  if (command == "online") return no_words(), online(db, out);
  if (command == "claim-link") return claim_link(db, line, out);
  if (command == "ban") return set_ban(db, line, true, out);
  if (command == "unban") return set_ban(db, line, false, out);
  if (command == "rename") return rename(db, line, out);
  if (command == "adjust") return adjust(db, line, out);
  if (command == "tables") return no_words(), tables(db, out);
  if (command == "end-table") return end_table(db, line, out);
  return -1;
}

}  // namespace

int admin_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    (args.empty() ? err : out) << admin_usage();
    return args.empty() ? 2 : 0;
  }
  const auto line = parse(args, err);
  if (!line) return 2;
  static const std::set<std::string> commands{"players", "online", "claim-link", "ban",     "unban",
                                              "rename",  "adjust", "tables",     "end-table"};
  if (!commands.contains(line->command)) {
    err << "unknown admin command '" << line->command << "'\n" << admin_usage();
    return 2;
  }
  const auto db_where = line->flags.contains("--db") ? line->flags.at("--db") : Config{}.db;
  try {
    const auto db = storage::open_store(db_where);
    return run(*db, *line, out);
  } catch (const Refused& refused) {
    err << "admin " << line->command << ": " << refused.why << "\n";
    return 1;
  } catch (const std::exception& e) {
    err << "admin " << line->command << ": " << e.what() << "\n";
    return 1;
  }
}

int admin_main(const std::vector<std::string>& args) { return admin_main(args, std::cout, std::cerr); }

}  // namespace parlour::server
