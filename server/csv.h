// CSV exports of the ledger and of settle-up (RFC 4180: a header row, CRLF line
// ends, a field holding a comma, a double quote, CR or LF quoted, its quotes
// doubled). Built from the same JSON the API answers with, so both say the same.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace parlour::server {

using Json = nlohmann::json;

inline constexpr const char* csv_content_type = "text/csv; charset=utf-8";

std::string csv_field(const std::string& text);
std::string csv_row(const std::vector<std::string>& fields);

// A `ledger` reply's fields: one row per entry, newest first, as listed.
// Columns: entry,time,amount,balance,table,game,deal,seq,memo.
std::string ledger_csv(const Json& ledger);

// A `settled` reply's fields. Columns: kind,from,to,amount,table,game; one row
// per table (kind "table": table, game, host in "from"), per person's net
// ("net": from, amount), per payment ("payment": from, to, amount), per line
// no person pays ("from_bots_and_pools": to is the person; "to_bots_and_pools":
// from is the person), per bot ("bot") and per pool left ("pool": from is the
// pool, table).
std::string settle_csv(const Json& settled);

}  // namespace parlour::server
