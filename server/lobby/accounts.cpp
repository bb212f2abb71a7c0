// The lobby's account requests (docs/playing.md "Accounts and recovery"): who may take a
// new name (--registration), sign-up links, and recovery codes. Secrets are
// stored as hashes only and never logged.
#include <utility>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <spdlog/spdlog.h>

#include "server/common/names.h"
#include "server/common/tokens.h"
#include "server/lobby/lobby.h"

namespace parlour::server {

namespace code = protocol::code;

namespace {

std::string minutes_until(std::int64_t wait_ms) { return std::to_string((wait_ms + 59'999) / 60'000); }

// What a write that threw said, for its log line; nullopt when it did not throw.
std::optional<std::string> failure(std::exception_ptr error) {
  if (!error) return std::nullopt;
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an unknown exception";
  }
}

// What a live connection of a recovered name hears before it is closed.
std::shared_ptr<const std::string> revoked_farewell() {
  static const auto frame = std::make_shared<const std::string>(
      protocol::error_message(std::nullopt, code::unauthorized,
                              "signed out: this name was recovered with its recovery code on another device")
          .dump());
  return frame;
}

}  // namespace

std::shared_ptr<const std::string> banned_farewell() {
  static const auto frame = std::make_shared<const std::string>(
      protocol::error_message(std::nullopt, code::forbidden, "signed out: this name is banned on this server").dump());
  return frame;
}

std::optional<ProtocolError> Lobby::registration_refused(const protocol::Hello& hello) const {
  switch (config_.registration) {
    case Config::Registration::open: return std::nullopt;
    case Config::Registration::closed:
      return ProtocolError(code::registration_closed,
                           "this server takes no new names; sign in with a name you have, or ask its host");
    case Config::Registration::invite:
      // Checked in the store as the name is stored: any node's table, unfinished.
      if (hello.invite) return std::nullopt;
      if (hello.signup) return std::nullopt;  // its uses are taken as the name is stored
      return ProtocolError(code::invite_required,
                           "this server takes new names by invitation only: open your host's invite or sign-up link");
  }
  return std::nullopt;
}

void Lobby::register_name(const protocol::Hello& hello, HelloDone done) {
  auto token = new_token();
  auto recovery_code = new_recovery_code();
  storage::Registration registration{hello.name, sha256_hex(token), config_.starting_chips, salted_hash(recovery_code),
                                     std::nullopt, std::nullopt};
  // A table's invite was checked already; a sign-up link is taken as the name is stored.
  if (config_.registration == Config::Registration::invite) {
    if (hello.invite) registration.invite = *hello.invite;
    else if (hello.signup) registration.signup_hash = sha256_hex(*hello.signup);
  }
  const auto name = hello.name;
  const auto chips = config_.starting_chips;
  const bool by_link = registration.signup_hash.has_value();
  writer_.run(
      [this, registration](storage::Store& db) {
        const auto player = db.register_player(registration);
        // In memory as soon as it is on disk, before anyone can hear of it.
        players_.add(player);
        mark_recovery_known(player.id);
        auto lock = balances_.lock();
        balances_.apply_committed({{storage::bank_account(), storage::player_account(player.name),
                                    registration.starting_chips, "starting chips", "", "", std::nullopt,
                                    std::nullopt}},
                                  lock);
      },
      [name, token, recovery_code, chips, by_link, done](std::exception_ptr error) {
        if (error) {
          try {
            std::rethrow_exception(error);
          } catch (const storage::NameTaken&) {
            return done(std::nullopt, ProtocolError(code::name_taken, "the name '" + name + "' is taken"));
          } catch (const storage::InviteRefused&) {
            spdlog::info("new name {} refused: no unfinished table has its invite", name);
            return done(std::nullopt, ProtocolError(code::invite_required,
                                                    "no open table has that invite; ask your host for a new invite "
                                                    "or a sign-up link"));
          } catch (const storage::SignupRefused&) {
            spdlog::info("new name {} refused: its sign-up link is unknown, used up or expired", name);
            return done(std::nullopt, ProtocolError(code::invite_required,
                                                    "that sign-up link is unknown, used up or expired; ask your "
                                                    "host for a new one"));
          } catch (const std::exception& e) {
            spdlog::error("registering {} failed: {}", name, e.what());
            return done(std::nullopt, ProtocolError(code::internal, "could not register the name"));
          }
        }
        spdlog::info("player {} registered with {} chips{}", name, chips, by_link ? " through a sign-up link" : "");
        done(Welcome{name, token, chips, recovery_code}, std::nullopt);
      });
}

// Made where each is answered, never copied between threads: an exception's
// message is a reference-counted string that ThreadSanitizer cannot follow across
// the reader thread and an I/O thread (a copy captured by a read raced with the
// original's end, as it saw it).
static ProtocolError wrong_recovery_code() {
  return ProtocolError(code::unauthorized, "that name and recovery code do not go together");
}
static ProtocolError wrong_passphrase() { return ProtocolError(code::unauthorized, "that name and passphrase do not go together"); }

std::optional<ProtocolError> Lobby::secret_try_refused(const std::string& name, const std::string& address) {
  const auto now = steady_ms();
  // Every try counts, for any name given, so that the limit says nothing of
  // which names exist; the address first, so that one address cannot use up a
  // name's tries without spending its own.
  auto wait = recovery_by_address_.take(address, now);
  if (!wait) wait = recovery_by_name_.take(folded_name(name), now);
  if (!wait) return std::nullopt;
  spdlog::info("a secret try for {} from {} refused: too many tries", name, address);
  return ProtocolError(code::rate_limited, "too many tries; try again in " + minutes_until(*wait) + " minutes");
}

void Lobby::recover(const protocol::Recover& recover, const std::string& address, HelloDone done) {
  if (auto refused = secret_try_refused(recover.name, address)) return done(std::nullopt, std::move(refused));
  const auto player = players_.find(recover.name);
  if (!player) return done(std::nullopt, wrong_recovery_code());
  if (players_.banned(player->name))
    return done(std::nullopt, ProtocolError(code::forbidden, "the name '" + player->name + "' is banned on this server"));
  const bool queued = reader_.run([this, player = *player, typed = recover.code, done](storage::Store& db) {
    std::string stored;
    try {
      stored = db.recovery_hash(player.id);
    } catch (const std::exception& e) {
      spdlog::error("reading the recovery code of {} failed: {}", player.name, e.what());
      return done(std::nullopt, ProtocolError(code::internal, "could not check the recovery code; try again"));
    }
    if (!stored.empty() && salted_hash_matches(typed, stored)) return replace_secrets(player, stored, done);
    // The operator's claim link of the name (parlour admin claim-link) is a one-time code typed here too.
    std::string claim;
    try {
      claim = db.claim_link_hash(player.id, storage::utc_iso8601(std::chrono::system_clock::now()));
    } catch (const std::exception& e) {
      spdlog::error("reading the claim link of {} failed: {}", player.name, e.what());
    }
    if (!claim.empty() && constant_time_equal(sha256_hex(normalized_code(typed)), claim))
      return claim_name(player, claim, done);
    spdlog::info("recovery of {} refused: wrong code", player.name);
    done(std::nullopt, wrong_recovery_code());
  });
  if (!queued) done(std::nullopt, ProtocolError(code::rate_limited, "the server is busy; try again"));
}

void Lobby::replace_secrets(const storage::Player& player, const std::string& used_hash, HelloDone done) {
  replace_credentials(player, used_hash, false, std::move(done));
}

void Lobby::claim_name(const storage::Player& player, const std::string& claim_hash, HelloDone done) {
  replace_credentials(player, claim_hash, true, std::move(done));
}

void Lobby::replace_credentials(const storage::Player& player, const std::string& used_hash, bool by_claim,
                                HelloDone done) {
  auto token = new_token();
  auto recovery_code = new_recovery_code();
  auto replaced = std::make_shared<bool>(false);
  writer_.run(
      [this, player, used_hash, by_claim, token_hash = sha256_hex(token), recovery_hash = salted_hash(recovery_code),
       replaced](storage::Store& db) {
        *replaced = by_claim ? db.use_claim_link(player.id, used_hash, token_hash, recovery_hash)
                             : db.replace_secrets(player.id, used_hash, token_hash, recovery_hash);
        if (!*replaced) return;
        players_.add(storage::Player{player.id, player.name, token_hash});
        players_.clear_devices(player.name);
      },
      [this, player, by_claim, token, recovery_code, replaced, done](std::exception_ptr error) {
        if (const auto failed = failure(error)) {
          spdlog::error("replacing the token of {} failed: {}", player.name, *failed);
          return done(std::nullopt, ProtocolError(code::internal, "could not recover the name; try again"));
        }
        // Another recovery used the same code first.
        if (!*replaced)
          return done(std::nullopt, ProtocolError(code::unauthorized, "that name and recovery code do not go together"));
        const auto closed = sessions_.close_others(player.name, sha256_hex(token), revoked_farewell());
        spdlog::info("player {} {} the name; the old token is revoked, {} connections closed", player.name,
                     by_claim ? "claimed (operator's claim link)" : "recovered", closed);
        const auto chips = balances_.balance(storage::player_account(player.name));
        done(Welcome{player.name, token, chips, recovery_code}, std::nullopt);
      });
}

void Lobby::signup_link(const std::string& player, const protocol::SignupLink& link, Done done) {
  if (config_.registration == Config::Registration::open)
    return done({}, ProtocolError(code::conflict, "this server takes new names without a link (--registration open)"));
  if (config_.registration == Config::Registration::closed)
    return done({}, ProtocolError(code::forbidden, "this server takes no new names (--registration closed)"));
  if (const auto wait = signup_links_.take(folded_name(player), steady_ms()))
    return done({}, ProtocolError(code::rate_limited, "at most " + std::to_string(config_.signup_links_per_day) +
                                                          " sign-up links a day; try again in " +
                                                          minutes_until(*wait) + " minutes"));
  auto code = random_id(32);
  const auto expires_at = storage::utc_iso8601(std::chrono::system_clock::now() + std::chrono::hours(link.hours));
  storage::SignupLink stored{sha256_hex(code), player, link.uses, expires_at};
  writer_.run([stored](storage::Store& db) { db.create_signup_link(stored); },
              [player, code, uses = link.uses, expires_at, done](std::exception_ptr error) {
                if (const auto failed = failure(error)) {
                  spdlog::error("storing a sign-up link of {} failed: {}", player, *failed);
                  return done({}, ProtocolError(code::internal, "could not make the sign-up link"));
                }
                spdlog::info("player {} made a sign-up link for {} new names until {}", player, uses, expires_at);
                done({{"code", code}, {"uses", uses}, {"expires_at", expires_at}}, std::nullopt);
              });
}

namespace {

// A device code: 80 random bits in four groups, "7KQ2-M9XD-4PTA-W3HC".
std::string new_device_code() { return new_recovery_code().substr(0, 19); }

std::shared_ptr<const std::string> device_revoked_farewell() {
  static const auto frame = std::make_shared<const std::string>(
      protocol::error_message(std::nullopt, code::unauthorized, "signed out: this device was removed from the name")
          .dump());
  return frame;
}

}  // namespace

void Lobby::device_link(const std::string& player, std::function<void(Json, std::optional<ProtocolError>)> done) {
  const auto now = steady_ms();
  if (const auto wait = device_links_.take(folded_name(player), now))
    return done({}, ProtocolError(code::rate_limited, "too many device codes this hour; try again in " +
                                                          minutes_until(*wait) + " minutes"));
  const auto registered = players_.find(player);
  if (!registered) return done({}, ProtocolError(code::not_found, "no player " + player));
  const auto device_code = new_device_code();
  const auto expires_at =
      storage::utc_iso8601(std::chrono::system_clock::now() + std::chrono::seconds(config_.device_link_seconds));
  // In the store, so that the code signs in on any node.
  writer_.run(
      [id = registered->id, hash = sha256_hex(normalized_code(device_code)), expires_at](storage::Store& db) {
        db.create_device_code(id, hash, expires_at);
      },
      [this, player, device_code, expires_at, done](std::exception_ptr error) {
        if (const auto failed = failure(error)) {
          spdlog::error("storing a device code of {} failed: {}", player, *failed);
          return done({}, ProtocolError(code::internal, "could not make the device code; try again"));
        }
        spdlog::info("player {} made a device code, valid {} s", player, config_.device_link_seconds);
        done({{"code", device_code}, {"expires_at", expires_at}}, std::nullopt);
      });
}

void Lobby::device_sign_in(const protocol::DeviceSignIn& request, const std::string& address, HelloDone done) {
  const auto now = steady_ms();
  if (const auto wait = recovery_by_address_.take(address, now)) {
    spdlog::info("device sign-in from {} refused: too many tries", address);
    return done(std::nullopt, ProtocolError(code::rate_limited, "too many tries; try again in " +
                                                                    minutes_until(*wait) + " minutes"));
  }
  auto token = new_token();
  storage::Device device{random_id(16), "", sha256_hex(token), request.label.empty() ? "another device" : request.label,
                         storage::utc_iso8601(std::chrono::system_clock::now())};
  auto signed_in = std::make_shared<std::optional<storage::Player>>();
  // Used up by this try, whatever comes of it, in the transaction that adds the device.
  writer_.run(
      [this, hash = sha256_hex(normalized_code(request.code)), device, signed_in](storage::Store& db) {
        *signed_in = db.use_device_code(hash, device.created_at, device);
        if (!*signed_in) return;
        auto added = device;
        added.player = (*signed_in)->name;
        players_.add_device(added);
      },
      [this, address, token, device, signed_in, done](std::exception_ptr error) {
        if (const auto failed = failure(error)) {
          spdlog::error("signing in with a device code from {} failed: {}", address, *failed);
          return done(std::nullopt, ProtocolError(code::internal, "could not add the device; try again"));
        }
        if (!*signed_in) {
          spdlog::info("device sign-in from {} refused: unknown, used or expired code", address);
          return done(std::nullopt, ProtocolError(code::unauthorized, "that device code is unknown, used or expired; "
                                                                      "make a new one on your signed-in device"));
        }
        const auto& name = (*signed_in)->name;
        if (players_.banned(name))
          return done(std::nullopt, ProtocolError(code::forbidden, "the name '" + name + "' is banned on this server"));
        spdlog::info("player {} signed in a new device ({})", name, device.id);
        done(Welcome{name, token, balances_.balance(storage::player_account(name)), std::nullopt}, std::nullopt);
      });
}

void Lobby::add_device(const storage::Player& player, const std::string& label, HelloDone done) {
  auto token = new_token();
  storage::Device device{random_id(16), player.name, sha256_hex(token), label.empty() ? "another device" : label,
                         storage::utc_iso8601(std::chrono::system_clock::now())};
  writer_.run(
      [this, player, device](storage::Store& db) {
        db.add_device(player.id, device);
        players_.add_device(device);
      },
      [this, name = player.name, token, device, done](std::exception_ptr error) {
        if (const auto failed = failure(error)) {
          spdlog::error("adding a device of {} failed: {}", name, *failed);
          return done(std::nullopt, ProtocolError(code::internal, "could not add the device; try again"));
        }
        spdlog::info("player {} signed in a new device ({})", name, device.id);
        done(Welcome{name, token, balances_.balance(storage::player_account(name)), std::nullopt}, std::nullopt);
      });
}

void Lobby::set_passphrase(const std::string& player, const std::string& passphrase,
                           std::function<void(Json, std::optional<ProtocolError>)> done) {
  const auto registered = players_.find(player);
  if (!registered) return done({}, ProtocolError(code::not_found, "no player " + player));
  // Hashing takes 64 MiB and a moment: on the reader's thread, never an I/O thread.
  const bool queued = reader_.run([this, player = *registered, passphrase, done](storage::Store&) {
    std::string hash;
    try {
      hash = passphrase_hash(passphrase);
    } catch (const std::exception& e) {
      spdlog::error("hashing the passphrase of {} failed: {}", player.name, e.what());
      return done({}, ProtocolError(code::internal, "could not set the passphrase; try again"));
    }
    writer_.run([player, hash](storage::Store& db) { db.set_passphrase_hash(player.id, hash); },
                [name = player.name, done](std::exception_ptr error) {
                  if (const auto failed = failure(error)) {
                    spdlog::error("storing the passphrase of {} failed: {}", name, *failed);
                    return done({}, ProtocolError(code::internal, "could not set the passphrase; try again"));
                  }
                  spdlog::info("player {} set a passphrase", name);
                  done(Json::object(), std::nullopt);
                });
  });
  if (!queued) done({}, ProtocolError(code::rate_limited, "the server is busy; try again"));
}

void Lobby::passphrase_sign_in(const protocol::PassphraseSignIn& request, const std::string& address,
                               HelloDone done) {
  if (auto refused = secret_try_refused(request.name, address)) return done(std::nullopt, std::move(refused));
  const auto player = players_.find(request.name);
  if (!player) return done(std::nullopt, wrong_passphrase());
  if (players_.banned(player->name))
    return done(std::nullopt, ProtocolError(code::forbidden, "the name '" + player->name + "' is banned on this server"));
  const bool queued = reader_.run([this, player = *player, request, done](storage::Store& db) {
    std::string stored;
    try {
      stored = db.passphrase_hash(player.id);
    } catch (const std::exception& e) {
      spdlog::error("reading the passphrase of {} failed: {}", player.name, e.what());
      return done(std::nullopt, ProtocolError(code::internal, "could not check the passphrase; try again"));
    }
    if (!passphrase_matches(request.passphrase, stored)) {
      spdlog::info("passphrase sign-in of {} refused: wrong passphrase", player.name);
      return done(std::nullopt, wrong_passphrase());
    }
    add_device(player, request.label.empty() ? "signed in with the passphrase" : request.label, done);
  });
  if (!queued) done(std::nullopt, ProtocolError(code::rate_limited, "the server is busy; try again"));
}

Json Lobby::devices(const std::string& player) const {
  Json list = Json::array();
  if (const auto registered = players_.find(player); registered && !first_device_revoked(*registered)) {
    list.push_back({{"id", "first"},
                    {"label", "first device"},
                    {"created_at", nullptr},
                    {"last_seen", sessions_.last_seen(registered->token_hash)}});
  }
  for (const auto& device : players_.devices(player))
    list.push_back({{"id", device.id},
                    {"label", device.label},
                    {"created_at", device.created_at},
                    {"last_seen", sessions_.last_seen(device.token_hash)}});
  for (auto& entry : list)
    if (entry["last_seen"] == "") entry["last_seen"] = nullptr;
  return {{"devices", std::move(list)}};
}

void Lobby::revoke_device(const std::string& player, const std::string& device,
                          std::function<void(Json, std::optional<ProtocolError>)> done) {
  const auto registered = players_.find(player);
  if (!registered) return done({}, ProtocolError(code::not_found, "no player " + player));
  const auto known = (device == "first" && !first_device_revoked(*registered)) ||
                     std::ranges::any_of(players_.devices(player),
                                                               [&](const auto& d) { return d.id == device; });
  if (!known) return done({}, ProtocolError(code::not_found, "no device '" + device + "' of yours"));
  auto revoked_hash = std::make_shared<std::string>();
  writer_.run(
      [this, player = *registered, device, revoked_hash](storage::Store& db) {
        if (device == "first") {
          // No token hashes to this (it is no hex digest): the first device is out, and unlisted.
          const auto unusable = revoked_token_mark + new_token();
          db.replace_token(player.id, unusable);
          *revoked_hash = player.token_hash;
          players_.add(storage::Player{player.id, player.name, unusable});
        } else if (db.remove_device(player.id, device)) {
          *revoked_hash = players_.remove_device(player.name, device).value_or("");
        }
      },
      [this, name = registered->name, device, revoked_hash, done](std::exception_ptr error) {
        if (const auto failed = failure(error)) {
          spdlog::error("revoking device {} of {} failed: {}", device, name, *failed);
          return done({}, ProtocolError(code::internal, "could not revoke the device; try again"));
        }
        if (revoked_hash->empty()) return done({}, ProtocolError(code::not_found, "no device '" + device + "' of yours"));
        const auto closed = sessions_.close_token(name, *revoked_hash, device_revoked_farewell());
        spdlog::info("player {} revoked device {}; {} connections closed", name, device, closed);
        done(Json::object(), std::nullopt);
      });
}

bool Lobby::recovery_known(std::int64_t player_id) const {
  std::lock_guard lock(recovery_known_mutex_);
  return recovery_known_.contains(player_id);
}

void Lobby::mark_recovery_known(std::int64_t player_id) {
  std::lock_guard lock(recovery_known_mutex_);
  recovery_known_.insert(player_id);
}

void Lobby::give_missing_recovery_code(const storage::Player& player, Welcome welcome, HelloDone done) {
  if (recovery_known(player.id)) return done(std::move(welcome), std::nullopt);
  const bool queued = reader_.run([this, player, welcome, done](storage::Store& db) mutable {
    std::string stored;
    try {
      stored = db.recovery_hash(player.id);
    } catch (const std::exception& e) {
      // The welcome goes without it; the next sign-in checks again.
      spdlog::error("reading the recovery code of {} failed: {}", player.name, e.what());
      return done(std::move(welcome), std::nullopt);
    }
    if (!stored.empty()) {
      mark_recovery_known(player.id);
      return done(std::move(welcome), std::nullopt);
    }
    auto code = new_recovery_code();
    auto added = std::make_shared<bool>(false);
    writer_.run([player, hash = salted_hash(code), added](storage::Store& db) { *added = db.add_recovery_hash(player.id, hash); },
                [this, player, welcome, code, added, done](std::exception_ptr error) mutable {
                  if (const auto failed = failure(error)) {
                    spdlog::error("adding a recovery code of {} failed: {}", player.name, *failed);
                  } else {
                    mark_recovery_known(player.id);
                    if (*added) {
                      spdlog::info("player {} was given a recovery code", player.name);
                      welcome.recovery_code = code;
                    }
                  }
                  done(std::move(welcome), std::nullopt);
                });
  });
  // Busy: the welcome goes without it; the next sign-in checks again.
  if (!queued) done(std::move(welcome), std::nullopt);
}

void Lobby::signed_in(const std::string& player, const std::string& token, const std::shared_ptr<Client>& client) {
  sessions_.add(player, sha256_hex(token), client);
  // Banned between the check and now (another process's ban, read by the feed meanwhile).
  if (players_.banned(player)) sessions_.close_all(player, banned_farewell());
}

bool Lobby::first_device_revoked(const storage::Player& player) {
  return player.token_hash.starts_with(revoked_token_mark);
}

}  // namespace parlour::server

namespace parlour::server {

// `parlour signup-link --db PATH|URI [--uses N] [--hours H] [--public-url URL]`:
// the operator's way to the first names of an invite-only server.
int signup_link_main(const std::vector<std::string>& args) {
  const std::string usage =
      "usage: parlour signup-link [--db PATH|URI] [--uses N] [--hours H] [--url URL | --public-url URL]\n"
      "  makes a sign-up link for --registration invite: N new names (default 1, at most " +
      std::to_string(protocol::max_signup_uses) + ") within H hours (default 24, at most " +
      std::to_string(protocol::max_signup_hours) +
      ");\n"
      "  prints its code, and the link to share when --url or --public-url (the server's address) is given\n";
  std::string db = Config{}.db;
  std::string url;
  long uses = 1;
  long hours = 24;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto& flag = args[i];
    if (flag == "--help" || flag == "-h") return std::cout << usage, 0;
    if (i + 1 >= args.size()) return std::cerr << "missing value after " << flag << "\n" << usage, 2;
    const auto& value = args[++i];
    char* end = nullptr;
    if (flag == "--db") db = value;
    // --public-url as the server takes it: the same words give the same link.
    else if (flag == "--url" || flag == "--public-url") url = value;
    else if (flag == "--uses") uses = std::strtol(value.c_str(), &end, 10);
    else if (flag == "--hours") hours = std::strtol(value.c_str(), &end, 10);
    else return std::cerr << "unknown option " << flag << "\n" << usage, 2;
    if (end && (*end != '\0' || value.empty()))
      return std::cerr << "bad value for " << flag << ": '" << value << "'\n" << usage, 2;
  }
  if (uses < 1 || uses > protocol::max_signup_uses || hours < 1 || hours > protocol::max_signup_hours)
    return std::cerr << "--uses or --hours out of range\n" << usage, 2;
  try {
    const auto store = storage::open_store(db);
    const auto code = random_id(32);
    const auto expires_at = storage::utc_iso8601(std::chrono::system_clock::now() + std::chrono::hours(hours));
    store->create_signup_link(storage::SignupLink{sha256_hex(code), "operator", uses, expires_at});
    std::cout << "sign-up code " << code << " for " << uses << " new name" << (uses == 1 ? "" : "s") << " until "
              << expires_at << "\n";
    if (!url.empty()) std::cout << (url.ends_with('/') ? url.substr(0, url.size() - 1) : url) << "/#/signup/" << code << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "signup-link: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace parlour::server
