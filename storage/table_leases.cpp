#include "storage/table_leases.h"

#include <pqxx/pqxx>

#include "storage/store.h"

namespace parlour::storage {

namespace {

struct Statement {
  const char* name;
  const char* sql;
};

// $1 table, $2 node, $3 ttl in milliseconds. A claim always bumps the
// generation, also when this node held the lease before (a restarted node
// fences its own previous life).
constexpr Statement kClaim{"lease_claim", R"sql(
INSERT INTO table_leases AS l (table_id, node, generation, expires_at)
VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond')
ON CONFLICT (table_id) DO UPDATE
  SET node = EXCLUDED.node, generation = l.generation + 1, expires_at = EXCLUDED.expires_at, wanted_by = NULL
  WHERE l.expires_at < now() OR l.node = EXCLUDED.node
RETURNING generation)sql"};
// Rows are locked in table order, as a node's writer locks its batch's leases
// (storage/postgres_store.cpp), so the two never wait for each other in a cycle.
constexpr Statement kRenew{"lease_renew", R"sql(
UPDATE table_leases l SET expires_at = now() + $2 * interval '1 millisecond'
FROM tables t
WHERE l.table_id IN (SELECT table_id FROM table_leases WHERE node = $1 ORDER BY table_id FOR UPDATE)
  AND l.node = $1 AND t.id = l.table_id
RETURNING l.table_id, l.generation, coalesce(l.wanted_by, ''), t.status = 'finished')sql"};
// To the node that asked for the table, live for a lease's life (nobody else
// can take it meanwhile; it claims it at once); or, if nobody asked, expired.
constexpr Statement kRelease{"lease_release", R"sql(
UPDATE table_leases
SET node = coalesce(wanted_by, node), wanted_by = NULL,
    expires_at = CASE WHEN wanted_by IS NULL THEN now() - interval '1 millisecond'
                      ELSE now() + $4 * interval '1 millisecond' END
WHERE table_id = $1 AND node = $2 AND generation = $3)sql"};
constexpr Statement kAskedOfMe{"lease_asked_of_me", R"sql(
SELECT table_id, generation, wanted_by FROM table_leases WHERE node = $1 AND wanted_by IS NOT NULL)sql"};
constexpr Statement kDrop{"lease_drop", "DELETE FROM table_leases WHERE table_id = $1 AND node = $2 AND generation = $3"};
constexpr Statement kAskFor{"lease_ask_for", R"sql(
UPDATE table_leases SET wanted_by = $2
WHERE table_id = $1 AND node <> $2 AND expires_at >= now()
RETURNING node)sql"};
constexpr Statement kOrphans{"lease_orphans", R"sql(
SELECT t.id FROM tables t LEFT JOIN table_leases l ON l.table_id = t.id
WHERE t.status IN ('waiting', 'playing') AND (l.table_id IS NULL OR l.expires_at < now())
ORDER BY t.made LIMIT $1)sql"};
constexpr Statement kPublish{"lease_publish", R"sql(
UPDATE table_leases SET summary = $4 WHERE table_id = $1 AND node = $2 AND generation = $3)sql"};
constexpr Statement kElsewhere{"lease_elsewhere", R"sql(
SELECT l.table_id, l.node, l.summary FROM table_leases l JOIN tables t ON t.id = l.table_id
WHERE l.node <> $1 AND l.summary IS NOT NULL AND t.status IN ('waiting', 'playing') AND t.is_private = 0
ORDER BY t.made)sql"};
constexpr Statement kTableOfInvite{"lease_table_of_invite", "SELECT id FROM tables WHERE invite = $1"};

constexpr Statement kStatements[] = {kClaim, kRenew, kAskedOfMe, kRelease, kDrop, kAskFor, kOrphans, kPublish, kElsewhere,
                                     kTableOfInvite};

std::string message_of(const std::exception& e) {
  std::string text = e.what();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace

struct TableLeases::Impl {
  std::string url;
  std::unique_ptr<pqxx::connection> open;

  // Opened again after the server dropped it, like PostgresStore's.
  pqxx::connection& live() {
    if (!open || !open->is_open()) {
      open = std::make_unique<pqxx::connection>(url);
      for (const Statement& statement : kStatements) open->prepare(statement.name, statement.sql);
    }
    return *open;
  }

  template <typename Body>
  auto run(const char* what, Body body) {
    try {
      pqxx::work tx(live());
      auto result = body(tx);
      tx.commit();
      return result;
    } catch (const std::exception& e) {
      throw StorageError(std::string("table leases: while ") + what + ": " + message_of(e));
    }
  }
};

TableLeases::TableLeases(const std::string& url, std::string node, std::chrono::milliseconds ttl)
    : impl_(std::make_unique<Impl>()), node_(std::move(node)), ttl_(ttl) {
  impl_->url = url;
  impl_->run("connecting", [](pqxx::work&) { return 0; });
}

TableLeases::~TableLeases() = default;

std::optional<std::int64_t> TableLeases::claim(const std::string& table) {
  return impl_->run("claiming a table", [&](pqxx::work& tx) -> std::optional<std::int64_t> {
    const auto rows = tx.exec_prepared(kClaim.name, table, node_, ttl_.count());
    if (rows.empty()) return std::nullopt;
    return rows[0][0].as<std::int64_t>();
  });
}

std::vector<HeldLease> TableLeases::renew() {
  return impl_->run("renewing leases", [&](pqxx::work& tx) {
    std::vector<HeldLease> held;
    for (const auto& row : tx.exec_prepared(kRenew.name, node_, ttl_.count()))
      held.push_back({row[0].as<std::string>(), row[1].as<std::int64_t>(), row[2].as<std::string>(), row[3].as<bool>()});
    return held;
  });
}

std::vector<HeldLease> TableLeases::asked_of_me() {
  return impl_->run("looking for hand-over requests", [&](pqxx::work& tx) {
    std::vector<HeldLease> asked;
    for (const auto& row : tx.exec_prepared(kAskedOfMe.name, node_))
      asked.push_back({row[0].as<std::string>(), row[1].as<std::int64_t>(), row[2].as<std::string>(), false});
    return asked;
  });
}

void TableLeases::release(const std::string& table, std::int64_t generation) {
  impl_->run("handing a table over", [&](pqxx::work& tx) { return tx.exec_prepared(kRelease.name, table, node_, generation, ttl_.count()).affected_rows(); });
}

void TableLeases::drop(const std::string& table, std::int64_t generation) {
  impl_->run("dropping a finished table's lease",
             [&](pqxx::work& tx) { return tx.exec_prepared(kDrop.name, table, node_, generation).affected_rows(); });
}

std::optional<std::string> TableLeases::ask_for(const std::string& table) {
  return impl_->run("asking for a table", [&](pqxx::work& tx) -> std::optional<std::string> {
    const auto rows = tx.exec_prepared(kAskFor.name, table, node_);
    if (rows.empty()) return std::nullopt;
    return rows[0][0].as<std::string>();
  });
}

std::vector<std::string> TableLeases::orphans(int limit) {
  return impl_->run("looking for tables nobody serves", [&](pqxx::work& tx) {
    std::vector<std::string> tables;
    for (const auto& row : tx.exec_prepared(kOrphans.name, limit)) tables.push_back(row[0].as<std::string>());
    return tables;
  });
}

void TableLeases::publish(const std::string& table, std::int64_t generation, const std::string& summary_json) {
  impl_->run("publishing a table's line", [&](pqxx::work& tx) {
    return tx.exec_prepared(kPublish.name, table, node_, generation, summary_json).affected_rows();
  });
}

std::vector<TableElsewhere> TableLeases::tables_elsewhere() {
  return impl_->run("listing other nodes' tables", [&](pqxx::work& tx) {
    std::vector<TableElsewhere> tables;
    for (const auto& row : tx.exec_prepared(kElsewhere.name, node_))
      tables.push_back({row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<std::string>()});
    return tables;
  });
}

std::optional<std::string> TableLeases::table_of_invite(const std::string& invite) {
  return impl_->run("finding an invite's table", [&](pqxx::work& tx) -> std::optional<std::string> {
    const auto rows = tx.exec_prepared(kTableOfInvite.name, invite);
    if (rows.empty()) return std::nullopt;
    return rows[0][0].as<std::string>();
  });
}

}  // namespace parlour::storage
