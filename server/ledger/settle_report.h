// The settle-up reply (`settled`, and GET /api/settle): reads the chosen
// tables' nets from the ledger, sorts accounts into persons, bots and pools,
// and settles the persons (server/ledger/settle.h). Runs on the reader thread.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "storage/store.h"

namespace parlour::server {

using Json = nlohmann::json;

// A person's name as registered, for an account's lower-case name; nullopt when
// the name is not a registered player's.
using RegisteredName = std::function<std::optional<std::string>(const std::string& lower_case_name)>;

// The reply's fields for `tables` (already chosen and checked).
Json settle_report(storage::Store& db, const std::vector<storage::TableRecord>& tables,
                   const RegisteredName& registered_name);

}  // namespace parlour::server
