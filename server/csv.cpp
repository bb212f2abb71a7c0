#include "server/csv.h"

namespace parlour::server {

namespace {

// A JSON value as a CSV cell: strings as they are, null as empty, numbers as written.
std::string cell(const Json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

std::string cell_of(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? std::string() : cell(*it);
}

}  // namespace

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string csv_row(const std::vector<std::string>& fields) {
  std::string row;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) row += ',';
    row += csv_field(fields[i]);
  }
  return row + "\r\n";
}

std::string ledger_csv(const Json& ledger) {
  std::string out = csv_row({"entry", "time", "amount", "balance", "table", "game", "deal", "seq", "memo"});
  for (const auto& e : ledger.value("entries", Json::array()))
    out += csv_row({cell_of(e, "entry"), cell_of(e, "time"), cell_of(e, "amount"), cell_of(e, "balance"),
                    cell_of(e, "table"), cell_of(e, "game"), cell_of(e, "deal"), cell_of(e, "seq"),
                    cell_of(e, "memo")});
  return out;
}

std::string settle_csv(const Json& settled) {
  std::string out = csv_row({"kind", "from", "to", "amount", "table", "game"});
  for (const auto& t : settled.value("tables", Json::array()))
    out += csv_row({"table", cell_of(t, "host"), "", "", cell_of(t, "table"), cell_of(t, "game")});
  for (const auto& n : settled.value("nets", Json::array()))
    out += csv_row({"net", cell_of(n, "player"), "", cell_of(n, "net"), "", ""});
  for (const auto& p : settled.value("payments", Json::array()))
    out += csv_row({"payment", cell_of(p, "from"), cell_of(p, "to"), cell_of(p, "amount"), "", ""});
  for (const auto& h : settled.value("from_bots_and_pools", Json::array()))
    out += csv_row({"from_bots_and_pools", "", cell_of(h, "player"), cell_of(h, "amount"), "", ""});
  for (const auto& h : settled.value("to_bots_and_pools", Json::array()))
    out += csv_row({"to_bots_and_pools", cell_of(h, "player"), "", cell_of(h, "amount"), "", ""});
  for (const auto& b : settled.value("bots", Json::array()))
    out += csv_row({"bot", cell_of(b, "player"), "", cell_of(b, "net"), "", ""});
  for (const auto& p : settled.value("pools", Json::array()))
    out += csv_row({"pool", cell_of(p, "pool"), "", cell_of(p, "left"), cell_of(p, "table"), ""});
  return out;
}

}  // namespace parlour::server
