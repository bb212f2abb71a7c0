// CSV exports of the ledger and of settle-up (RFC 4180: a header row, CRLF line
// ends, a field holding a comma, a double quote, CR or LF quoted, its quotes
// doubled). Built from the same JSON the API answers with, so both say the same.
//
// Every cell goes through csv_cell: a text cell that a spreadsheet would read
// as a formula (starting with = + - @, tab or CR; OWASP "CSV Injection") gets a
// leading single quote, so a player named "-2-3" or "=HYPERLINK(..)" is shown
// as text. Numbers the server writes itself (amounts, balances, seqs) are JSON
// numbers and stay numbers: -25 chips is written -25.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace parlour::server {

using Json = nlohmann::json;

inline constexpr const char* csv_content_type = "text/csv; charset=utf-8";

// One cell: text neutralised as above, then quoted as RFC 4180 asks; a number
// as written; null empty.
std::string csv_cell(const Json& value);
// A row of cells (text given as JSON strings, numbers as JSON numbers), CRLF-ended.
std::string csv_row(const std::vector<Json>& cells);

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
