// The JSON writer games write their views and legal lists with
// (rules/json_writer.h): its text must be, byte for byte, what nlohmann's dump()
// makes of the same value, since clients and the golden frames read it; and its
// tree must be that value.
#include <doctest/doctest.h>

#include <string>

#include "rules/json_writer.h"
#include "rules/rng.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_json_writer {

using namespace parlour::rules;

// Writes `value` token by token, as a game would, its object members in the
// order given by `shuffle` (a member order nlohmann would not keep).
void write_value(JsonWriter& out, const Json& value, Rng& shuffle) {
  switch (value.type()) {
    case Json::value_t::object: {
      std::vector<std::pair<std::string, const Json*>> members;
      for (const auto& [name, member] : value.items()) members.emplace_back(name, &member);
      for (std::size_t i = members.size(); i > 1; --i) std::swap(members[i - 1], members[shuffle.below(i)]);
      out.begin_object();
      for (const auto& [name, member] : members) {
        out.key(name);
        write_value(out, *member, shuffle);
      }
      out.end_object();
      break;
    }
    case Json::value_t::array:
      out.begin_array();
      for (const auto& item : value) write_value(out, item, shuffle);
      out.end_array();
      break;
    case Json::value_t::string: out.string(value.get_ref<const std::string&>()); break;
    case Json::value_t::boolean: out.boolean(value.get<bool>()); break;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: out.integer(value.get<std::int64_t>()); break;
    case Json::value_t::null: out.null(); break;
    default: out.json(value);
  }
}

std::string dumped(const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); }

TEST_CASE("json writer: members written in any order come out sorted by name, as nlohmann's objects are") {
  const Json view = {{"seats", Json::array({{{"seat", 0}, {"cards", {"AS", "??"}}, {"left", false}, {"bet", nullptr}}})},
                     {"pools", {{"pot", 12}}},
                     {"layout", "betting"},
                     {"deal", 3},
                     {"a_b", -7},
                     {"ab", Json::object()},
                     {"a", Json::array()},
                     {"turn", {{"seats", {1}}, {"stage", "bet"}}}};
  Rng shuffle(7);
  for (int round = 0; round < 50; ++round) {
    JsonText text;
    write_value(text, view, shuffle);
    CHECK(text.text() == view.dump());
    JsonTree tree;
    write_value(tree, view, shuffle);
    CHECK(tree.take() == view);
  }
  // Objects of up to 16 members are sorted in place on the stack, larger ones on
  // the heap: both, nested in each other.
  Json large = Json::object();
  for (int i = 0; i < 40; ++i) large["m" + std::to_string(i * 7 % 40)] = i % 3 == 0 ? view : Json(i);
  for (int round = 0; round < 10; ++round) {
    JsonText text;
    write_value(text, large, shuffle);
    CHECK(text.text() == large.dump());
  }
}

TEST_CASE("json writer: strings are escaped as nlohmann escapes them, invalid UTF-8 mended the same way") {
  for (const std::string& text : {std::string("plain"), std::string("quote \" and \\ back"), std::string("\b\f\n\r\t"),
                                 std::string("\x01\x1f\x7f", 3), std::string("caf\xc3\xa9 \xe2\x99\xa0"),
                                 std::string("bad \xff\xfe utf-8 \xc3"), std::string(""), std::string("\0nul", 4)}) {
    CAPTURE(text);
    CHECK(json_text_of([&](JsonWriter& out) { out.string(text); }) == dumped(Json(text)));
    CHECK(json_tree_of([&](JsonWriter& out) { out.string(text); }) == Json(text));
  }
}

TEST_CASE("json writer: random strings and numbers come out as nlohmann writes them") {
  Rng rng(11);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const auto length = rng.below(12);
    for (std::size_t i = 0; i < length; ++i) text += static_cast<char>(rng.below(256));
    const auto number = static_cast<std::int64_t>(rng.between(-2000000000, 2000000000)) * (round % 3 == 0 ? 4000000000LL : 1);
    const Json expected = Json::array({text, number});
    CHECK(json_text_of([&](JsonWriter& out) { out.array([&] { out.string(text); out.integer(number); }); }) ==
          dumped(expected));
  }
}

TEST_CASE("json writer: a member written twice, a value without a name, or an unclosed value is a logic error") {
  CHECK_THROWS_AS(json_text_of([](JsonWriter& out) { out.object([&] { out.field("a", 1); out.field("a", 2); }); }),
                  std::logic_error);
  CHECK_THROWS_AS(json_tree_of([](JsonWriter& out) { out.object([&] { out.field("b", 1); out.field("a", 0); out.field("b", 2); }); }),
                  std::logic_error);
  CHECK_THROWS_AS(json_text_of([](JsonWriter& out) { out.object([&] { out.integer(1); }); }), std::logic_error);
  CHECK_THROWS_AS(json_tree_of([](JsonWriter& out) { out.object([&] { out.integer(1); }); }), std::logic_error);
  CHECK_THROWS_AS(json_text_of([](JsonWriter& out) { out.begin_array(); }), std::logic_error);
  CHECK_THROWS_AS(json_text_of([](JsonWriter& out) { out.begin_array(); out.end_object(); }), std::logic_error);
  CHECK_THROWS_AS(json_text_of([](JsonWriter& out) { out.object([&] { out.key("x"); }); }), std::logic_error);
}

TEST_CASE("json writer: a shared value is written once where values are kept, and every time elsewhere") {
  SharedValues kept;
  int written = 0;
  const auto write = [&](JsonWriter& out, std::int64_t mine) {
    out.object([&] {
      out.array_field("seats", [&] {
        for (std::uint64_t seat = 0; seat < 3; ++seat)
          out.shared_value(seat, [&] {
            ++written;
            out.object([&] { out.field("seat", seat); });
          });
      });
      out.field("mine", mine);
      out.key("pot");
      out.shared_value(7, [&] {
        ++written;
        out.array([&] { out.value(1); });
      });
    });
  };
  const std::string expected = R"({"mine":1,"pot":[1],"seats":[{"seat":0},{"seat":1},{"seat":2}]})";
  JsonText first;
  first.share_values(&kept);
  write(first, 1);
  CHECK(first.text() == expected);
  CHECK(written == 4);
  JsonText second;
  second.share_values(&kept);
  write(second, 2);
  CHECK(second.text() == R"({"mine":2,"pot":[1],"seats":[{"seat":0},{"seat":1},{"seat":2}]})");
  CHECK(written == 4);  // copied, not written again
  // Its members are still found: a copied value is one member's value.
  REQUIRE(second.top_members().size() == 3);
  CHECK(second.top_members()[1].value == "[1]");
  // Without a place to keep them, and in a tree, each is written every time.
  CHECK(json_text_of([&](JsonWriter& out) { write(out, 1); }) == expected);
  CHECK(json_tree_of([&](JsonWriter& out) { write(out, 1); }).dump() == expected);
  CHECK(written == 12);
  // A shared value is one object or array.
  JsonText bad;
  bad.share_values(&kept);
  bad.begin_array();
  CHECK_THROWS_AS(bad.shared_value(99, [&] { bad.value(3); }), std::logic_error);
}

TEST_CASE("json writer: the outermost object's members are found in the text, sorted") {
  JsonText text;
  text.object([&] {
    text.field("turn", Json{{"stage", "bet"}});
    text.array_field("seats", [&] { text.object([&] { text.field("z", 1); text.field("y", "}\","); }); });
    text.field("ante", 5);
  });
  REQUIRE(text.text() == R"({"ante":5,"seats":[{"y":"}\",","z":1}],"turn":{"stage":"bet"}})");
  const auto members = text.top_members();
  REQUIRE(members.size() == 3);
  CHECK(members[0].name == "ante");
  CHECK(members[0].value == "5");
  CHECK(members[1].name == "seats");
  CHECK(members[1].value == R"([{"y":"}\",","z":1}])");
  CHECK(members[2].name == "turn");
  CHECK(members[2].value == R"({"stage":"bet"})");

  JsonText tree;
  tree.json({{"b", {1, 2}}, {"a", {{"c", nullptr}}}});
  REQUIRE(tree.text() == R"({"a":{"c":null},"b":[1,2]})");
  const auto from_tree = tree.top_members();
  REQUIRE(from_tree.size() == 2);
  CHECK(from_tree[0].name == "a");
  CHECK(from_tree[0].value == R"({"c":null})");
  CHECK(from_tree[1].name == "b");
  CHECK(from_tree[1].value == "[1,2]");
}

TEST_CASE("json writer: a list's shape is its items and its first item's type, nested values and trees included") {
  const auto shape_of = [](auto write) {
    ListShape shape;
    write(static_cast<JsonWriter&>(shape));
    return shape;
  };
  const auto empty = shape_of([](JsonWriter& out) { out.array([] {}); });
  CHECK(empty.size() == 0);
  CHECK(empty.first_type().empty());
  // A "type" inside the first item's values, or in a later item, is not its type.
  const auto nested = shape_of([](JsonWriter& out) {
    out.array([&] {
      out.object([&] {
        out.object_field("amount", [&] { out.field("type", "range"); });
        out.field("type", "bet");
        out.array_field("cards", [&] { out.value(std::string("AS")); });
      });
      out.object([&] { out.field("type", "skip"); });
      out.integer(3);
    });
  });
  CHECK(nested.size() == 3);
  CHECK(nested.first_type() == "bet");
  const auto untyped = shape_of([](JsonWriter& out) {
    out.array([&] {
      out.object([&] { out.field("kind", "skip"); });
      out.object([&] { out.field("type", "skip"); });
    });
  });
  CHECK(untyped.size() == 2);
  CHECK(untyped.first_type().empty());
  // Items made as trees elsewhere count the same.
  const auto trees = shape_of([](JsonWriter& out) {
    out.array([&] {
      out.json(Json{{"type", "skip"}});
      out.json(Json::array({1, 2}));
    });
  });
  CHECK(trees.size() == 2);
  CHECK(trees.first_type() == "skip");
  const auto one_tree = shape_of([](JsonWriter& out) { out.json(Json::array({Json{{"type", "demand"}}, Json{{"type", "pass"}}})); });
  CHECK(one_tree.size() == 2);
  CHECK(one_tree.first_type() == "demand");
}

}  // namespace unity_test_json_writer
