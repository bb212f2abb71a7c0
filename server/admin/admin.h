// `parlour admin …`: the operator's commands on the live store, SQLite while
// the server runs or PostgreSQL (docs/admin.md). Changes that servers must hear
// of (bans, renames, claim links used, chips adjusted, a table ended) go
// through the store's identity change feed, which every server reads about
// every 500 ms.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parlour::server {

// Runs one admin subcommand (args after "admin"); its report goes to `out`,
// refusals to `err`. Returns the exit status: 0 done, 1 refused or failed
// (nothing changed), 2 a bad command line.
int admin_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int admin_main(const std::vector<std::string>& args);

}  // namespace parlour::server
