#include "server/common/csv.h"

#include <string_view>

namespace parlour::server {

namespace {

// OWASP's list: what a spreadsheet may take as the start of a formula.
bool could_start_formula(const std::string& text) {
  return !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos;
}

std::string quoted_if_needed(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

Json at(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? Json() : *it;
}

}  // namespace

std::string csv_cell(const Json& value) {
  if (value.is_null()) return "";
  if (!value.is_string()) return value.dump();
  const auto& text = value.get_ref<const std::string&>();
  return quoted_if_needed(could_start_formula(text) ? "'" + text : text);
}

std::string csv_row(const std::vector<Json>& cells) {
  std::string row;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) row += ',';
    row += csv_cell(cells[i]);
  }
  return row + "\r\n";
}

std::string ledger_csv(const Json& ledger) {
  std::string out = csv_row({"entry", "time", "amount", "balance", "table", "game", "deal", "seq", "memo"});
  for (const auto& e : ledger.value("entries", Json::array()))
    out += csv_row({at(e, "entry"), at(e, "time"), at(e, "amount"), at(e, "balance"),
                    at(e, "table"), at(e, "game"), at(e, "deal"), at(e, "seq"),
                    at(e, "memo")});
  return out;
}

std::string settle_csv(const Json& settled) {
  std::string out = csv_row({"kind", "from", "to", "amount", "table", "game"});
  for (const auto& t : settled.value("tables", Json::array()))
    out += csv_row({"table", at(t, "host"), "", "", at(t, "table"), at(t, "game")});
  for (const auto& n : settled.value("nets", Json::array()))
    out += csv_row({"net", at(n, "player"), "", at(n, "net"), "", ""});
  for (const auto& p : settled.value("payments", Json::array()))
    out += csv_row({"payment", at(p, "from"), at(p, "to"), at(p, "amount"), "", ""});
  for (const auto& h : settled.value("from_bots_and_pools", Json::array()))
    out += csv_row({"from_bots_and_pools", "", at(h, "player"), at(h, "amount"), "", ""});
  for (const auto& h : settled.value("to_bots_and_pools", Json::array()))
    out += csv_row({"to_bots_and_pools", at(h, "player"), "", at(h, "amount"), "", ""});
  for (const auto& b : settled.value("bots", Json::array()))
    out += csv_row({"bot", at(b, "player"), "", at(b, "net"), "", ""});
  for (const auto& p : settled.value("pools", Json::array()))
    out += csv_row({"pool", at(p, "pool"), "", at(p, "left"), at(p, "table"), ""});
  return out;
}

}  // namespace parlour::server
