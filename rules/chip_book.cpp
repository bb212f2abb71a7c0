#include "rules/chip_book.h"

#include "rules/snapshot.h"

#include <algorithm>
#include <stdexcept>

namespace parlour::rules {

Payment pay_what_you_have(int from, const Account& to, std::int64_t amount, const std::string& memo,
                          Balances& chips, Effects& fx) {
  const auto paid = std::max<std::int64_t>(0, std::min(amount, chips[from]));
  fx.move(Account::of_seat(from), to, paid, memo);
  chips[from] -= paid;
  if (to.is_seat()) chips[to.seat] += paid;
  return {paid, amount - paid};
}

Payment pay_and_announce(int from, const Account& to, std::int64_t amount, const std::string& memo,
                         Balances& chips, Effects& fx, bool say_nothing_paid) {
  const auto payment = pay_what_you_have(from, to, amount, memo, chips, fx);
  if (payment.paid > 0 || say_nothing_paid) {
    const auto paid = std::to_string(payment.paid);
    fx.say(seat_tag(from) + (to.is_seat() ? " pays " + seat_tag(to.seat) + " " + paid
                                          : " puts " + paid + " into the " + to.pool) + ".");
  }
  if (payment.unpaid > 0) fx.say(seat_tag(from) + " cannot cover " + std::to_string(payment.unpaid) + " of it.");
  return payment;
}

Json unpaid_entry(int from, const Account& to, std::int64_t amount, const std::string& memo) {
  return {{"seat", from}, {"to", ChipBook::account_json(to)}, {"amount", amount}, {"memo", memo}};
}

Json ChipBook::account_json(const Account& account) {
  if (account.is_seat()) return {{"seat", account.seat}};
  return {{"pool", account.pool}};
}

void ChipBook::note(const Account& from, const Account& to, std::int64_t amount, const std::string& memo) {
  if (amount <= 0) return;
  movements_.push_back({{"from", account_json(from)}, {"to", account_json(to)}, {"amount", amount}, {"memo", memo}});
  if (from.is_seat()) net_[from.seat] -= amount;
  if (to.is_seat()) net_[to.seat] += amount;
}

void ChipBook::shortfall(int seat, const Account& to, std::int64_t amount, const std::string& memo) {
  if (amount <= 0) return;
  unpaid_.push_back(unpaid_entry(seat, to, amount, memo));
}

std::int64_t ChipBook::from_seat(int from, const Account& to, std::int64_t amount, const std::string& memo,
                                 Effects& fx) {
  const auto payment = pay_what_you_have(from, to, amount, memo, chips_, fx);
  note(Account::of_seat(from), to, payment.paid, memo);
  shortfall(from, to, payment.unpaid, memo);
  return payment.paid;
}

std::int64_t ChipBook::seat_to_seat(int from, int to, std::int64_t amount, const std::string& memo, Effects& fx) {
  return from_seat(from, Account::of_seat(to), amount, memo, fx);
}

std::int64_t ChipBook::seat_to_pool(int from, std::int64_t amount, std::int64_t& pool, const std::string& memo,
                                    Effects& fx) {
  const auto paid = from_seat(from, Account::of_pool(pool_name_), amount, memo, fx);
  pool += paid;
  return paid;
}

void ChipBook::pool_to_seat(int to, std::int64_t amount, std::int64_t& pool, const std::string& memo, Effects& fx) {
  if (amount > pool) throw std::logic_error("chip book: paying out more than the pool holds");
  const auto from = Account::of_pool(pool_name_);
  fx.move(from, Account::of_seat(to), amount, memo);
  if (amount > 0) chips_[to] += amount;
  note(from, Account::of_seat(to), amount, memo);
  pool -= amount;
}

Json ChipBook::snapshot() const {
  return {{"pool", pool_name_}, {"chips", chips_}, {"net", net_}, {"movements", movements_}, {"unpaid", unpaid_}};
}

ChipBook ChipBook::restore(const Json& snapshot, int players) {
  ChipBook book;
  book.pool_name_ = field<std::string>(snapshot, "pool");
  book.chips_ = field<Balances>(snapshot, "chips");
  book.net_ = field<std::vector<std::int64_t>>(snapshot, "net");
  book.movements_ = field<Json>(snapshot, "movements");
  book.unpaid_ = field<Json>(snapshot, "unpaid");
  // One per seat, or none in a book never opened (a default-made one).
  const bool never_opened = book.chips_.empty() && book.net_.empty();
  const auto seats = static_cast<std::size_t>(players);
  if (!never_opened && (book.chips_.size() != seats || book.net_.size() != seats))
    throw SnapshotError("a chip book holds one balance and one net per seat (" + std::to_string(players) + "), got " +
                        std::to_string(book.chips_.size()) + " and " + std::to_string(book.net_.size()));
  if (!book.movements_.is_array() || !book.unpaid_.is_array())
    throw SnapshotError("a chip book's movements and unpaid must be arrays");
  // unpaid() reads every entry's seat and amount.
  for (const auto& line : book.unpaid_) {
    const int seat = field<int>(line, "seat");
    field<std::int64_t>(line, "amount");
    if (seat < 0 || seat >= players) throw SnapshotError("an unpaid entry's seat is out of range");
  }
  return book;
}

// Members set one by one: an update from a braced list would copy the whole
// list of movements twice, a long game's largest part.
Json ChipBook::seat_result(int seat, Json facts) const {
  facts["seat"] = seat;
  facts["chips"] = net(seat);
  facts["unpaid"] = unpaid(seat);
  return facts;
}

Json ChipBook::deal_result(Json facts) const {
  facts["movements"] = movements_;
  facts["unpaid"] = unpaid_;
  return facts;
}

std::int64_t ChipBook::unpaid(int seat) const {
  std::int64_t sum = 0;
  for (const auto& line : unpaid_)
    if (line["seat"] == seat) sum += line["amount"].get<std::int64_t>();
  return sum;
}

}  // namespace parlour::rules
