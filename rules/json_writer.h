// Where a game writes JSON token by token: its views and its lists of legal
// actions. One piece of game code then makes both forms the server needs, with
// nothing derived twice: text for a push (JsonText, written straight into a
// string, no tree in between) and a tree for a bot, a test or a hand history
// (JsonTree).
//
// Both forms are the JSON nlohmann would make of the same values: an object's
// members come out sorted by name whatever order they were written in (as in an
// nlohmann object, so JsonText's text is byte for byte a tree's dump()), and a
// name written twice in one object is a logic error in either.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace parlour::rules {

using Json = nlohmann::json;

class JsonWriter {
 public:
  virtual ~JsonWriter() = default;

  virtual void begin_object() = 0;
  virtual void end_object() = 0;
  virtual void begin_array() = 0;
  virtual void end_array() = 0;
  // The name of the object member whose value is written next.
  virtual void key(std::string_view name) = 0;
  virtual void null() = 0;
  virtual void boolean(bool value) = 0;
  virtual void integer(std::int64_t value) = 0;
  virtual void string(std::string_view value) = 0;
  // A value made as a tree elsewhere.
  virtual void json(const Json& value) = 0;

  // ---- conveniences over the above
  void value(std::nullptr_t) { null(); }
  void value(const char* text) { string(text); }
  void value(const std::string& text) { string(text); }
  void value(std::string_view text) { string(text); }
  void value(const Json& tree) { json(tree); }
  template <class T>
    requires std::is_arithmetic_v<T>
  void value(T number) {
    if constexpr (std::is_same_v<T, bool>) boolean(number);
    else integer(static_cast<std::int64_t>(number));
    static_assert(std::is_integral_v<T>, "views hold whole numbers only");
  }
  template <class T>
  void value(const std::optional<T>& maybe) {
    if (maybe) value(*maybe);
    else null();
  }
  // A vector of values as an array.
  template <class T>
  void value(const std::vector<T>& items) {
    begin_array();
    for (const auto& item : items) value(item);
    end_array();
  }

  template <class T>
  void field(std::string_view name, const T& v) {
    key(name);
    value(v);
  }
  // An object whose members `body` writes.
  template <class Body>
  void object(Body&& body) {
    begin_object();
    body();
    end_object();
  }
  // An array whose items `body` writes.
  template <class Body>
  void array(Body&& body) {
    begin_array();
    body();
    end_array();
  }
  template <class Body>
  void object_field(std::string_view name, Body&& body) {
    key(name);
    object(body);
  }
  template <class Body>
  void array_field(std::string_view name, Body&& body) {
    key(name);
    array(body);
  }

  // One value (an object or an array) that `body` writes the same in every view
  // of one moment that writes it under `key`: a seat as every other seat sees
  // it. A writer given somewhere to keep such values (JsonText::share_values,
  // the pushes of one broadcast) writes it once and copies it after; any other
  // writer runs `body` each time. A key names one value for as long as the
  // place is kept: the game's promise, which tests/rules/test_view_schema.cpp
  // holds it to.
  template <class Body>
  void shared_value(std::uint64_t key, Body&& body) {
    if (recalled(key)) return;
    const std::size_t mark = shared_value_mark();
    body();
    keep_shared_value(key, mark);
  }

 protected:
  // Writes the value kept under `key` and returns true, if one is.
  virtual bool recalled(std::uint64_t) { return false; }
  // Where a value about to be written starts, for keep_shared_value.
  virtual std::size_t shared_value_mark() { return 0; }
  virtual void keep_shared_value(std::uint64_t, std::size_t) {}
};

// Values kept for JsonWriter::shared_value, by key.
using SharedValues = std::unordered_map<std::uint64_t, std::string>;

// JSON text, as nlohmann's dump() (compact, UTF-8 kept as it is, invalid UTF-8
// replaced by U+FFFD) would write the same value.
class JsonText final : public JsonWriter {
 public:
  // One member of the outermost object, once it is closed: where its name and
  // its value are in text().
  struct Member {
    std::string_view name;
    std::string_view value;
  };

  void begin_object() override;
  void end_object() override;
  void begin_array() override;
  void end_array() override;
  void key(std::string_view name) override;
  void null() override;
  void boolean(bool value) override;
  void integer(std::int64_t value) override;
  void string(std::string_view value) override;
  void json(const Json& value) override;

  // Room for `bytes` of text, made before writing when the size is foreseen.
  void reserve(std::size_t bytes) { out_.reserve(bytes); }
  // Where shared_value keeps and finds its values; none (the default): each
  // is written every time.
  void share_values(SharedValues* values) { shared_ = values; }
  // The text written so far.
  const std::string& text() const { return out_; }
  std::string take();
  // The members of the outermost value, an object (written member by member or
  // as one tree), in their order in text() (sorted by name); empty while it is
  // not closed or not an object.
  std::vector<Member> top_members() const;

 private:
  struct Open {
    bool object = false;
    bool empty = true;
    std::size_t first_member = 0;  // in members_, for an object
  };
  struct MemberAt {
    std::size_t start = 0;     // the offset of its name's opening quote
    std::size_t name_end = 0;  // the offset just past its name's closing quote
  };

  bool recalled(std::uint64_t key) override;
  std::size_t shared_value_mark() override { return out_.size(); }
  void keep_shared_value(std::uint64_t key, std::size_t mark) override;
  void before_value();
  void make_room(bool object);
  void append_string(std::string_view text);
  void sort_members(std::size_t first);

  std::string out_;
  std::vector<Open> open_;
  std::vector<MemberAt> members_;  // of every open object, innermost last
  std::vector<MemberAt> top_;      // the outermost object's, once it is closed
  std::string scratch_;
  SharedValues* shared_ = nullptr;
};

// A tree, as if built with nlohmann's own operators.
class JsonTree final : public JsonWriter {
 public:
  void begin_object() override;
  void end_object() override;
  void begin_array() override;
  void end_array() override;
  void key(std::string_view name) override;
  void null() override;
  void boolean(bool value) override;
  void integer(std::int64_t value) override;
  void string(std::string_view value) override;
  void json(const Json& value) override;

  Json take();

 private:
  Json& place(Json value);

  Json root_;
  bool written_ = false;
  std::vector<Json*> open_;
  std::optional<std::string> key_;
};

// What a table asks of a list of legal actions on every step (is there any?
// is it a lone skip?), read as it is written: no tree, no text.
class ListShape final : public JsonWriter {
 public:
  void begin_object() override;
  void end_object() override { --depth_; }
  void begin_array() override;
  void end_array() override { --depth_; }
  void key(std::string_view name) override;
  void null() override { item(); }
  void boolean(bool) override { item(); }
  void integer(std::int64_t) override { item(); }
  void string(std::string_view value) override;
  void json(const Json& value) override;

  // Items of the outermost array.
  std::size_t size() const { return items_; }
  // The "type" of its first item, an object; empty if it has none.
  const std::string& first_type() const { return first_type_; }

 private:
  // A value begins: an item when it is one of the outermost array's.
  void item();

  int depth_ = 0;
  std::size_t items_ = 0;
  bool type_next_ = false;  // the first item's "type" is the value written next
  std::string first_type_;
};

// `write` run into a JsonTree / a JsonText, its value returned.
template <class Write>
Json json_tree_of(Write&& write) {
  JsonTree tree;
  write(static_cast<JsonWriter&>(tree));
  return tree.take();
}
template <class Write>
std::string json_text_of(Write&& write) {
  JsonText text;
  write(static_cast<JsonWriter&>(text));
  return text.take();
}

}  // namespace parlour::rules
