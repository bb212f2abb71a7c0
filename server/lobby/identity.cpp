// Identity changes made by other processes (another node, `parlour admin`)
// applied here, and this server's presence published for `parlour admin
// online` (docs/playing.md "Accounts and recovery", docs/admin.md); a player's
// chips read again from the ledger when they moved elsewhere (learn_balance).
#include <utility>

#include <algorithm>
#include <spdlog/spdlog.h>

#include "server/common/names.h"
#include "server/lobby/lobby.h"

namespace parlour::server {

namespace code = protocol::code;
using storage::IdentityChange;

namespace {

// How often this server says who is signed in here, and how long the feed keeps its rows.
constexpr auto presence_every = std::chrono::seconds(3);
constexpr auto feed_kept_for = std::chrono::hours(24);
constexpr auto prune_every = std::chrono::minutes(10);

std::shared_ptr<const std::string> farewell(const char* why) {
  return std::make_shared<const std::string>(protocol::error_message(std::nullopt, code::unauthorized, why).dump());
}

std::shared_ptr<const std::string> replaced_farewell() {
  static const auto frame =
      farewell("signed out: this name's key was replaced (recovered on another device, or by the server's operator)");
  return frame;
}

std::shared_ptr<const std::string> device_removed_farewell() {
  static const auto frame = farewell("signed out: this device was removed from the name");
  return frame;
}

std::shared_ptr<const std::string> renamed_farewell() {
  static const auto frame = farewell("signed out: the server's operator renamed this name; sign in with the new one");
  return frame;
}

}  // namespace

void Lobby::follow_identity_changes(std::int64_t after_seq) {
  writer_.run([origin = origin_](storage::Store& db) { db.set_change_origin(origin); },
              [](std::exception_ptr) {});
  feed_ = std::make_unique<IdentityFeed>(config_.db, origin_, after_seq,
                                         [this](const IdentityChange& change) { apply_identity_change(change); });
  publish_presence();
}

void Lobby::stop_following_identity_changes() {
  if (feed_) feed_->stop();
  presence_timer_.cancel();
}

void Lobby::apply_identity_change(const IdentityChange& change) {
  const auto& name = change.name;
  const auto kind = std::string_view(change.kind);
  std::size_t closed = 0;
  if (kind == IdentityChange::device_added) {
    players_.add_device(storage::Device{change.device_id, name, change.token_hash, change.detail, change.time});
  } else if (kind == IdentityChange::device_revoked) {
    players_.remove_device(name, change.device_id);
    closed = sessions_.close_token(name, change.token_hash, device_removed_farewell());
  } else if (kind == IdentityChange::token_replaced) {
    players_.add(storage::Player{change.player_id, name, change.token_hash});
    if (change.detail == "devices_cleared") players_.clear_devices(name);
    closed = sessions_.close_invalid(
        name, [&](const std::string& token_hash) { return players_.signs_in(name, token_hash); }, replaced_farewell());
  } else if (kind == IdentityChange::banned) {
    players_.set_banned(name, true);
    closed = sessions_.close_all(name, banned_farewell());
  } else if (kind == IdentityChange::unbanned) {
    players_.set_banned(name, false);
  } else if (kind == IdentityChange::renamed) {
    players_.rename(change.detail, name);
    closed = sessions_.close_all(change.detail, renamed_farewell());
    // The account moved: the new name's balance, and the old name's (0, free for a newcomer), read again.
    learn_balance(name, [] {});
    learn_balance(change.detail, [] {});
  } else if (kind == IdentityChange::balance_changed) {
    learn_balance(name, [] {});
  } else if (kind == IdentityChange::table_ended) {
    const auto table = find_loaded(change.detail);
    if (!table || (clustered() && !served_unfinished(change.detail))) return;
    spdlog::info("table {}: ended by the server's operator", change.detail);
    table->quarantine("ended by the server's operator (parlour admin end-table)",
                      "The server's operator has ended the table; its pools are shared out and its chips are safe.");
    return;
  } else {
    spdlog::warn("identity change {} has a kind this build does not know: {}", change.seq, change.kind);
    return;
  }
  spdlog::info("identity change {} from {}: {} of {}; {} connections closed", change.seq, change.origin, change.kind,
               name, closed);
}

void Lobby::publish_presence() {
  auto names = sessions_.names_online();
  // Names online now or until now are seen now: a name's last seen is when it left.
  std::vector<std::string> seen = names;
  seen.insert(seen.end(), published_names_.begin(), published_names_.end());
  std::sort(seen.begin(), seen.end());
  seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
  published_names_ = names;
  const bool prune = std::chrono::steady_clock::now() - last_prune_ >= prune_every;
  if (prune) last_prune_ = std::chrono::steady_clock::now();
  storage::Presence presence{config_.node.empty() ? "server" : config_.node, std::move(names), ""};
  writer_.run(
      [presence, seen, prune](storage::Store& db) {
        db.publish_presence(presence);
        db.mark_seen(seen);
        if (prune) db.prune_identity_changes(storage::utc_iso8601(std::chrono::system_clock::now() - feed_kept_for));
      },
      [](std::exception_ptr error) {
        if (!error) return;
        try {
          std::rethrow_exception(error);
        } catch (const std::exception& e) {
          spdlog::error("publishing who is signed in here failed: {}", e.what());
        }
      });
  presence_timer_.expires_after(presence_every);
  presence_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) publish_presence();
  });
}

bool Lobby::balance_known(const std::string& player) {
  const auto account = storage::player_account(player);
  auto held = balances_.lock({account});
  return balances_.known(account, held);
}

// On the writer's thread, between its transactions: the database's balance
// plus what this node has applied and not yet written (LiveBalances::refresh).
void Lobby::learn_balance(const std::string& player, std::function<void()> then) {
  writer_.run(
      [this, account = storage::player_account(player)](storage::Store& db) {
        balances_.refresh({{account, db.balance(account)}});
      },
      [player, then = std::move(then)](std::exception_ptr error) {
        if (error) {
          try {
            std::rethrow_exception(error);
          } catch (const std::exception& e) {
            // The welcome then says what this node knows; the next tick corrects it.
            spdlog::error("reading the chips of player {} failed: {}", player, e.what());
          }
        }
        then();
      });
}

}  // namespace parlour::server
