// Table ownership when several Parlour nodes share one PostgreSQL database.
// Each unfinished table is served by one node, the holder of its lease row
// (migration 9): a node claims a table that nobody holds or whose lease has
// expired, renews its leases while it lives, and hands a table over when
// another node's clients ask for it. Every claim bumps the lease's generation,
// and every step a node writes carries the generation it holds (storage::Fence),
// so a node that was paused or cut off past its lease cannot write to a table
// that has moved on. Times are the database's own clock, never a node's.
//
// One TableLeases is one connection, used by one thread at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace parlour::storage {

struct HeldLease {
  std::string table;
  std::int64_t generation = 0;
  std::string wanted_by;  // "" unless another node asked for the table
  bool finished = false;  // the table has finished
};

struct TableElsewhere {
  std::string table;
  std::string node;
  std::string summary_json;  // the lobby's line for the table, as its node published it
};

class TableLeases {
 public:
  // `url` a PostgreSQL connection URI; `node` this node's name; leases last `ttl`.
  TableLeases(const std::string& url, std::string node, std::chrono::milliseconds ttl);
  ~TableLeases();
  TableLeases(const TableLeases&) = delete;
  TableLeases& operator=(const TableLeases&) = delete;

  const std::string& node() const { return node_; }
  std::chrono::milliseconds ttl() const { return ttl_; }

  // Takes the table's lease if nobody holds it, it has expired, or this node
  // holds it already; returns the new generation, or nothing if another node
  // holds a live lease.
  std::optional<std::int64_t> claim(const std::string& table);
  // Renews every lease this node holds and lists them (finished tables' too).
  std::vector<HeldLease> renew();
  // The leases this node holds that another node asked for (cheap: one index
  // probe, so it can run far more often than renew()).
  std::vector<HeldLease> asked_of_me();
  // Hands the table over to the node that asked for it (which then claims it),
  // or, if none did, lets the lease lapse now for any node to claim.
  void release(const std::string& table, std::int64_t generation);
  // Forgets a finished table's lease.
  void drop(const std::string& table, std::int64_t generation);
  // Asks the holder of a live lease to hand the table over to this node;
  // returns the holder, or nothing if the table is free to claim.
  std::optional<std::string> ask_for(const std::string& table);
  // Unfinished tables that no node holds a live lease on, oldest first.
  std::vector<std::string> orphans(int limit);
  // The lobby's line for a table this node holds.
  void publish(const std::string& table, std::int64_t generation, const std::string& summary_json);
  // Other nodes' unfinished public tables, with their published lines.
  std::vector<TableElsewhere> tables_elsewhere();
  // The table an invite code opens, if any.
  std::optional<std::string> table_of_invite(const std::string& invite);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string node_;
  std::chrono::milliseconds ttl_;
};

}  // namespace parlour::storage
