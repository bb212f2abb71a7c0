// `parlour check`'s SQL half (docs/operations.md "Checking a store"): what the
// ledger and the table logs must always satisfy, asked of the database itself
// in one consistent snapshot, on a SQLite file or a PostgreSQL database alike:
//   * every transfer has exactly two ledger entries, summing to zero, and every
//     entry's transfer exists;
//   * every account's balance is the sum of its entries;
//   * the chips held (every account but the bank) are the chips the bank has
//     granted (the negated sum of its entries);
//   * every table's events are numbered 1, 2, 3... without a gap.
// The schema enforces most of these as rows are written; the check is for what
// can still happen: a hand edit, a restored or copied file, a bug. Replaying the
// logs is the server's business (server/history/store_check.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace parlour::storage {

struct LedgerCheck {
  // One line for each thing that is wrong, naming the transfer, account or
  // table, with what was expected and what was found.
  std::vector<std::string> problems;
  std::int64_t transfers = 0;
  std::int64_t entries = 0;
  std::int64_t accounts = 0;
  std::int64_t tables = 0;
  std::int64_t events = 0;
  std::int64_t chips_held = 0;     // every account but the bank
  std::int64_t chips_granted = 0;  // the bank's entries, negated
  bool ok() const { return problems.empty(); }
};

// Runs the checks on `where` (a SQLite file path or a postgresql:// URI),
// reading only: the file or database must exist and be at this build's latest
// schema version. Throws StorageError (storage/store.h) saying why it cannot.
LedgerCheck check_ledger(const std::string& where);

}  // namespace parlour::storage
