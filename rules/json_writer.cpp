#include "rules/json_writer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <numeric>
#include <span>
#include <stdexcept>

namespace parlour::rules {

namespace {

std::string dumped(const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); }

// Whether a member's name is written as it is, with nothing to escape: names
// are the program's own words, and sorting them as written is then sorting them
// as nlohmann does.
bool plain_name(std::string_view name) {
  return std::none_of(name.begin(), name.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || c == '"' || c == '\\';
  });
}

}  // namespace

// ---------------------------------------------------------------- JsonText

void JsonText::before_value() {
  if (open_.empty()) {
    if (!out_.empty()) throw std::logic_error("json writer: a second value after the whole one");
    return;
  }
  auto& innermost = open_.back();
  if (innermost.object) {
    // key() has written the name; a value with no name is the writer's misuse.
    if (members_.empty() || members_.size() == innermost.first_member || members_.back().name_end != out_.size() - 1 ||
        out_.back() != ':')
      throw std::logic_error("json writer: an object member written without its name");
    return;
  }
  if (!innermost.empty) out_ += ',';
  innermost.empty = false;
}

// A kept value goes where any value would (after a comma in an array, after
// its name in an object), never as the whole text: top_members() would not
// know its members.
bool JsonText::recalled(std::uint64_t key) {
  if (!shared_ || open_.empty()) return false;
  const auto kept = shared_->find(key);
  if (kept == shared_->end()) return false;
  before_value();
  out_ += kept->second;
  return true;
}

void JsonText::keep_shared_value(std::uint64_t key, std::size_t mark) {
  if (!shared_ || open_.empty()) return;
  // The value's text, without the comma that went before it in an array.
  std::string_view text(out_);
  text.remove_prefix(mark);
  if (!text.empty() && text.front() == ',') text.remove_prefix(1);
  if (text.empty() || (text.front() != '{' && text.front() != '['))
    throw std::logic_error("json writer: a shared value that is not one object or array");
  shared_->emplace(key, std::string(text));
}

void JsonText::begin_object() {
  before_value();
  make_room(true);
  out_ += '{';
  open_.push_back({true, true, members_.size()});
}

// Nesting and members' places, kept in vectors that would otherwise grow one
// step at a time while a view is written; a text with no object (a list of
// chips) needs no members' places.
void JsonText::make_room(bool object) {
  if (open_.capacity() == 0) open_.reserve(8);
  if (object && members_.capacity() == 0) members_.reserve(32);
}

void JsonText::end_object() {
  if (open_.empty() || !open_.back().object) throw std::logic_error("json writer: end_object with no object open");
  if (!out_.empty() && out_.back() == ':') throw std::logic_error("json writer: a member's name with no value");
  const auto first = open_.back().first_member;
  sort_members(first);
  out_ += '}';
  open_.pop_back();
  if (open_.empty()) top_.assign(members_.begin() + static_cast<std::ptrdiff_t>(first), members_.end());
  members_.resize(first);
}

void JsonText::begin_array() {
  before_value();
  make_room(false);
  out_ += '[';
  open_.push_back({false, true, 0});
}

void JsonText::end_array() {
  if (open_.empty() || open_.back().object) throw std::logic_error("json writer: end_array with no array open");
  out_ += ']';
  open_.pop_back();
}

void JsonText::key(std::string_view name) {
  if (open_.empty() || !open_.back().object) throw std::logic_error("json writer: a member's name outside an object");
  if (!plain_name(name)) throw std::logic_error("json writer: a member's name that needs escaping");
  auto& object = open_.back();
  if (!object.empty) out_ += ',';
  object.empty = false;
  MemberAt member;
  member.start = out_.size();
  out_ += '"';
  out_ += name;
  out_ += '"';
  member.name_end = out_.size();
  out_ += ':';
  members_.push_back(member);
}

void JsonText::null() {
  before_value();
  out_ += "null";
}

void JsonText::boolean(bool value) {
  before_value();
  out_ += value ? "true" : "false";
}

void JsonText::integer(std::int64_t value) {
  before_value();
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out_.append(digits, end);
}

void JsonText::string(std::string_view value) {
  before_value();
  append_string(value);
}

void JsonText::json(const Json& value) {
  // The outermost object member by member, so that top_members() finds them.
  if (open_.empty() && value.is_object()) {
    begin_object();
    for (const auto& [name, member] : value.items()) {
      key(name);
      json(member);
    }
    return end_object();
  }
  before_value();
  out_ += dumped(value);
}

// As nlohmann's serializer escapes (ensure_ascii off): the quote, the backslash
// and control characters; anything beyond ASCII is left to it, so that UTF-8 is
// checked and mended exactly as a tree's dump() does.
void JsonText::append_string(std::string_view text) {
  bool plain = true;  // printable ASCII, nothing to escape: most names, cards and words
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80) {
      out_ += dumped(Json(std::string(text)));
      return;
    }
    plain = plain && byte >= 0x20 && c != '"' && c != '\\';
  }
  out_ += '"';
  if (plain) {
    out_ += text;
    out_ += '"';
    return;
  }
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out_ += "\\\""; break;
      case '\\': out_ += "\\\\"; break;
      case '\b': out_ += "\\b"; break;
      case '\t': out_ += "\\t"; break;
      case '\n': out_ += "\\n"; break;
      case '\f': out_ += "\\f"; break;
      case '\r': out_ += "\\r"; break;
      default:
        if (byte < 0x20) {
          static constexpr char hex[] = "0123456789abcdef";
          out_ += "\\u00";
          out_ += hex[byte >> 4];
          out_ += hex[byte & 0xf];
        } else {
          out_ += c;
        }
    }
  }
  out_ += '"';
}

// An object's members, from members_[first] to the end of the text, put in the
// order of their names. Most objects are written in that order already.
void JsonText::sort_members(std::size_t first) {
  const std::size_t count = members_.size() - first;
  const auto name_of = [&](const MemberAt& m) {
    return std::string_view(out_).substr(m.start + 1, m.name_end - m.start - 2);
  };
  bool sorted = true;
  for (std::size_t i = first + 1; i < members_.size(); ++i) {
    const auto order = name_of(members_[i - 1]).compare(name_of(members_[i]));
    if (order == 0) throw std::logic_error("json writer: member \"" + std::string(name_of(members_[i])) + "\" written twice");
    if (order > 0) sorted = false;
  }
  if (sorted) return;
  // Each member's text runs to the comma before the next one (the last, to the end).
  const auto end_of = [&](std::size_t i) { return i + 1 < members_.size() ? members_[i + 1].start - 1 : out_.size(); };
  // Most objects are small (an action: its type and a field or two), and this
  // runs for nearly every one: their order and new places live on the stack.
  constexpr std::size_t kOnStack = 16;
  std::array<std::size_t, kOnStack> order_here;
  std::array<MemberAt, kOnStack> moved_here;
  std::vector<std::size_t> order_heap;
  std::vector<MemberAt> moved_heap;
  if (count > kOnStack) {
    order_heap.resize(count);
    moved_heap.resize(count);
  }
  const std::span<std::size_t> order = count > kOnStack ? std::span(order_heap) : std::span(order_here).first(count);
  const std::span<MemberAt> moved = count > kOnStack ? std::span(moved_heap) : std::span(moved_here).first(count);
  std::iota(order.begin(), order.end(), first);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return name_of(members_[a]) < name_of(members_[b]); });
  for (std::size_t i = 1; i < count; ++i)
    if (name_of(members_[order[i - 1]]) == name_of(members_[order[i]]))
      throw std::logic_error("json writer: member \"" + std::string(name_of(members_[order[i]])) + "\" written twice");
  const std::size_t region = members_[first].start;
  scratch_.clear();
  for (std::size_t k = 0; k < count; ++k) {
    if (!scratch_.empty()) scratch_ += ',';
    const auto& m = members_[order[k]];
    moved[k] = {region + scratch_.size(), region + scratch_.size() + (m.name_end - m.start)};
    scratch_.append(out_, m.start, end_of(order[k]) - m.start);
  }
  std::copy(scratch_.begin(), scratch_.end(), out_.begin() + static_cast<std::ptrdiff_t>(region));
  std::copy(moved.begin(), moved.end(), members_.begin() + static_cast<std::ptrdiff_t>(first));
}

std::string JsonText::take() {
  if (!open_.empty() || out_.empty()) throw std::logic_error("json writer: the value is not complete");
  top_.clear();
  return std::move(out_);
}

std::vector<JsonText::Member> JsonText::top_members() const {
  std::vector<Member> members;
  if (!open_.empty()) return members;
  members.reserve(top_.size());
  const std::string_view text(out_);
  for (std::size_t i = 0; i < top_.size(); ++i) {
    const auto& m = top_[i];
    const auto value_end = i + 1 < top_.size() ? top_[i + 1].start - 1 : text.size() - 1;
    members.push_back({text.substr(m.start + 1, m.name_end - m.start - 2), text.substr(m.name_end + 1, value_end - m.name_end - 1)});
  }
  return members;
}

// ---------------------------------------------------------------- JsonTree

Json& JsonTree::place(Json value) {
  if (open_.empty()) {
    if (written_) throw std::logic_error("json writer: a second value after the whole one");
    written_ = true;
    root_ = std::move(value);
    return root_;
  }
  auto& innermost = *open_.back();
  if (innermost.is_array()) {
    innermost.push_back(std::move(value));
    return innermost.back();
  }
  if (!key_) throw std::logic_error("json writer: an object member written without its name");
  auto [at, fresh] = innermost.get_ref<Json::object_t&>().try_emplace(std::move(*key_), std::move(value));
  if (!fresh) throw std::logic_error("json writer: member \"" + at->first + "\" written twice");
  key_.reset();
  return at->second;
}

void JsonTree::begin_object() { open_.push_back(&place(Json::object())); }

void JsonTree::end_object() {
  if (open_.empty() || !open_.back()->is_object()) throw std::logic_error("json writer: end_object with no object open");
  if (key_) throw std::logic_error("json writer: a member's name with no value");
  open_.pop_back();
}

void JsonTree::begin_array() { open_.push_back(&place(Json::array())); }

void JsonTree::end_array() {
  if (open_.empty() || !open_.back()->is_array()) throw std::logic_error("json writer: end_array with no array open");
  open_.pop_back();
}

void JsonTree::key(std::string_view name) {
  if (open_.empty() || !open_.back()->is_object()) throw std::logic_error("json writer: a member's name outside an object");
  if (!plain_name(name)) throw std::logic_error("json writer: a member's name that needs escaping");
  if (key_) throw std::logic_error("json writer: a member's name with no value");
  key_.emplace(name);
}

void JsonTree::null() { place(Json()); }
void JsonTree::boolean(bool value) { place(Json(value)); }
void JsonTree::integer(std::int64_t value) { place(Json(value)); }
void JsonTree::string(std::string_view value) { place(Json(std::string(value))); }
void JsonTree::json(const Json& value) { place(value); }

Json JsonTree::take() {
  if (!open_.empty() || !written_) throw std::logic_error("json writer: the value is not complete");
  written_ = false;
  return std::move(root_);
}

// ---------------------------------------------------------------- ListShape

void ListShape::item() {
  if (depth_ == 1) ++items_;
  type_next_ = false;
}

void ListShape::begin_object() {
  item();
  ++depth_;
}

void ListShape::begin_array() {
  item();
  ++depth_;
}

void ListShape::key(std::string_view name) { type_next_ = depth_ == 2 && items_ == 1 && name == "type"; }

void ListShape::string(std::string_view value) {
  if (type_next_) first_type_ = value;
  item();
}

void ListShape::json(const Json& value) {
  const auto type_of = [&](const Json& first) {
    if (!first.is_object()) return;
    if (const auto type = first.find("type"); type != first.end() && type->is_string()) first_type_ = type->get<std::string>();
  };
  if (depth_ == 0 && value.is_array()) {  // the whole list as one tree
    items_ = value.size();
    if (!value.empty()) type_of(value[0]);
    return;
  }
  if (type_next_ && value.is_string()) first_type_ = value.get<std::string>();
  if (depth_ == 1 && items_ == 0) type_of(value);
  item();
}

}  // namespace parlour::rules
