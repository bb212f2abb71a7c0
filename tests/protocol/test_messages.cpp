#include <doctest/doctest.h>

#include <limits>
#include <random>
#include <string>
#include <vector>

#include "protocol/messages.h"

using namespace parlour::protocol;
using parlour::rules::Card;
using parlour::rules::Suit;

namespace {

// The message of the bad_request error that parsing `text` must raise.
std::string rejection(std::string_view text) {
  INFO("request: " << text);
  try {
    parse_request(text);
  } catch (const ProtocolError& error) {
    CHECK(error.code() == code::bad_request);
    return error.what();
  }
  FAIL("the request was accepted");
  return {};
}

// Checks that `text` is rejected with a message containing `expected`.
void check_rejected(std::string_view text, std::string_view expected) {
  const std::string message = rejection(text);
  INFO("request: " << text);
  INFO("message: " << message);
  CHECK(message.find(expected) != std::string::npos);
}

template <class Message>
Message parse_as(std::string_view text) {
  const Request request = parse_request(text);
  REQUIRE(std::holds_alternative<Message>(request.body));
  return std::get<Message>(request.body);
}

}  // namespace

// ----- Every message type parses with all its fields.

TEST_CASE("hello parses with a name and a token") {
  const Request request = parse_request(R"({"type":"hello","id":1,"name":"alice","token":"s3cret"})");
  CHECK(request.id == 1);
  CHECK(request.type == "hello");
  const auto& hello = std::get<Hello>(request.body);
  CHECK(hello.name == "alice");
  CHECK(hello.token == "s3cret");
}

TEST_CASE("hello parses without a token") {
  const auto hello = parse_as<Hello>(R"({"type":"hello","name":"Bob_the-2nd"})");
  CHECK(hello.name == "Bob_the-2nd");
  CHECK_FALSE(hello.token.has_value());
}

TEST_CASE("games, tables and ping parse with no fields") {
  CHECK(std::holds_alternative<Games>(parse_request(R"({"type":"games"})").body));
  CHECK(std::holds_alternative<Tables>(parse_request(R"({"type":"tables","id":3})").body));
  CHECK(std::holds_alternative<Ping>(parse_request(R"({"type":"ping"})").body));
}

TEST_CASE("create parses with all its fields") {
  const auto create = parse_as<Create>(
      R"({"type":"create","game":"red_dog","options":{"ante":5},"seats":6,"seed":42,)"
      R"("deck":["TH","JK","AS"],"private":true})");
  CHECK(create.game == "red_dog");
  CHECK(create.options == Json{{"ante", 5}});
  CHECK(create.seats == 6);
  CHECK(create.seed == 42u);
  REQUIRE(create.deck.has_value());
  CHECK(*create.deck == std::vector<Card>{Card{10, Suit::hearts}, Card::joker(), Card{1, Suit::spades}});
  CHECK(create.is_private);
}

TEST_CASE("create with only a game takes the defaults") {
  const auto create = parse_as<Create>(R"({"type":"create","game":"gin_rummy"})");
  CHECK(create.options == Json::object());
  CHECK_FALSE(create.seats.has_value());
  CHECK_FALSE(create.seed.has_value());
  CHECK_FALSE(create.deck.has_value());
  CHECK_FALSE(create.is_private);
}

TEST_CASE("create's clock: defaults 90 s, no bank, away after 2; each field checked with its range") {
  CHECK(parse_as<Create>(R"({"type":"create","game":"g"})").clock == Clock{90, 0, 2});
  CHECK(parse_as<Create>(R"({"type":"create","game":"g","clock":{"seconds":30}})").clock == Clock{30, 0, 2});
  CHECK(parse_as<Create>(R"({"type":"create","game":"g","clock":{"seconds":0,"bank":600,"away_after":5}})").clock ==
        Clock{0, 600, 5});
  CHECK(parse_as<Create>(R"({"type":"create","game":"g","clock":{"seconds":3600,"bank":36000,"away_after":20}})")
            .clock == Clock{3600, 36000, 20});
  check_rejected(R"({"type":"create","game":"g","clock":{"seconds":4}})",
                 "field 'clock.seconds' must be 0 (no clock) or an integer from 5 to 3600, got 4");
  check_rejected(R"({"type":"create","game":"g","clock":{"seconds":3601}})", "'clock.seconds'");
  check_rejected(R"({"type":"create","game":"g","clock":{"seconds":-1}})", "'clock.seconds'");
  check_rejected(R"({"type":"create","game":"g","clock":{"seconds":"90"}})", "'clock.seconds'");
  check_rejected(R"({"type":"create","game":"g","clock":{"bank":36001}})",
                 "field 'clock.bank' must be an integer from 0 to 36000");
  check_rejected(R"({"type":"create","game":"g","clock":{"away_after":0}})",
                 "field 'clock.away_after' must be an integer from 1 to 20");
  check_rejected(R"({"type":"create","game":"g","clock":{"minutes":1}})", "unknown field 'clock.minutes'");
  check_rejected(R"({"type":"create","game":"g","clock":90})", "field 'clock' must be an object");
}

TEST_CASE("back names its table") {
  CHECK(parse_as<Back>(R"({"type":"back","table":"t1"})").table == "t1");
  check_rejected(R"({"type":"back"})", "missing field 'table'");
}

TEST_CASE("create accepts the largest 64-bit seed") {
  const auto create = parse_as<Create>(R"({"type":"create","game":"g","seed":18446744073709551615})");
  CHECK(create.seed == std::numeric_limits<std::uint64_t>::max());
}

TEST_CASE("create accepts a deck of 416 cards") {
  Json deck = Json::array();
  for (int i = 0; i < 416; ++i) deck.push_back("2C");
  const auto create = parse_as<Create>(Json{{"type", "create"}, {"game", "g"}, {"deck", deck}}.dump());
  CHECK(create.deck->size() == 416);
}

TEST_CASE("join parses by table with a seat") {
  const auto join = parse_as<Join>(R"({"type":"join","table":"t1","seat":2})");
  CHECK(join.table == "t1");
  CHECK_FALSE(join.invite.has_value());
  CHECK(join.seat == 2);
}

TEST_CASE("join parses by invite") {
  const auto join = parse_as<Join>(R"({"type":"join","invite":"xyz-123"})");
  CHECK_FALSE(join.table.has_value());
  CHECK(join.invite == "xyz-123");
  CHECK_FALSE(join.seat.has_value());
}

TEST_CASE("watch, leave, start and end parse their table") {
  CHECK(parse_as<Watch>(R"({"type":"watch","table":"t1"})").table == "t1");
  CHECK(parse_as<Watch>(R"({"type":"watch","invite":"abc"})").invite == "abc");
  CHECK(parse_as<Leave>(R"({"type":"leave","table":"t2"})").table == "t2");
  CHECK(parse_as<Start>(R"({"type":"start","table":"t3"})").table == "t3");
  CHECK(parse_as<End>(R"({"type":"end","table":"t4"})").table == "t4");
}

TEST_CASE("bot parses with all its fields") {
  const auto bot = parse_as<Bot>(R"({"type":"bot","table":"t1","seat":3,"level":10})");
  CHECK(bot.table == "t1");
  CHECK(bot.seat == 3);
  CHECK(bot.level == 10);
}

TEST_CASE("act keeps the action verbatim") {
  const auto act = parse_as<Act>(R"({"type":"act","table":"t1","action":{"type":"bet","amount":7,"extra":[1]}})");
  CHECK(act.table == "t1");
  CHECK(act.action == Json{{"type", "bet"}, {"amount", 7}, {"extra", {1}}});
}

TEST_CASE("ledger parses with all its fields") {
  const auto ledger = parse_as<LedgerQuery>(R"({"type":"ledger","player":"alice","limit":500,"before":9000000000})");
  CHECK(ledger.player == "alice");
  CHECK(ledger.limit == 500);
  CHECK(ledger.before == 9000000000LL);
}

TEST_CASE("ledger parses with no fields") {
  const auto ledger = parse_as<LedgerQuery>(R"({"type":"ledger"})");
  CHECK_FALSE(ledger.player.has_value());
  CHECK_FALSE(ledger.limit.has_value());
  CHECK_FALSE(ledger.before.has_value());
}

TEST_CASE("an optional field sent as null counts as not given") {
  const auto bot = parse_as<Bot>(R"({"type":"bot","table":"t1","seat":null,"level":null})");
  CHECK_FALSE(bot.seat.has_value());
  CHECK(bot.level == default_bot_level);
  CHECK_FALSE(parse_request(R"({"type":"ping","id":null})").id.has_value());
}

TEST_CASE("a request without an id has no id") {
  CHECK_FALSE(parse_request(R"({"type":"ping"})").id.has_value());
  CHECK(parse_request(R"({"type":"ping","id":0})").id == 0);
  CHECK(parse_request(R"({"type":"ping","id":9223372036854775807})").id == std::numeric_limits<std::int64_t>::max());
}

TEST_CASE("type_name gives the wire name of every message type") {
  const std::vector<std::string> requests = {
      R"({"type":"hello","name":"a"})",       R"({"type":"games"})",
      R"({"type":"tables"})",                 R"({"type":"create","game":"g"})",
      R"({"type":"join","table":"t"})",       R"({"type":"watch","table":"t"})",
      R"({"type":"leave","table":"t"})",      R"({"type":"bot","table":"t"})",
      R"({"type":"start","table":"t"})",      R"({"type":"end","table":"t"})",
      R"({"type":"act","table":"t","action":{"type":"x"}})",
      R"({"type":"ledger"})",                 R"({"type":"ping"})",
      R"({"type":"back","table":"t"})",
      R"({"type":"unseat","table":"t","seat":1})",
      R"({"type":"chat","table":"t","text":"hi"})",
      R"({"type":"mute","table":"t","player":"p","muted":true})",
      R"({"type":"rematch","table":"t"})",
      R"({"type":"history","table":"t"})",
      R"({"type":"settle"})",
      R"({"type":"signup_link"})",
      R"({"type":"recover","name":"a","code":"c"})",
      R"({"type":"device_link"})",
      R"({"type":"device_sign_in","code":"c"})",
      R"({"type":"devices"})",
      R"({"type":"revoke_device","device":"d"})",
      R"({"type":"set_passphrase","passphrase":"12345678"})",
      R"({"type":"passphrase_sign_in","name":"a","passphrase":"12345678"})",
  };
  REQUIRE(requests.size() == std::variant_size_v<Body>);
  for (const auto& text : requests) {
    const Request request = parse_request(text);
    CHECK(type_name(request.body) == request.type);
  }
}

TEST_CASE("history names a table, and optionally a deal from 1 and a seq to start from") {
  const auto request = parse_request(R"({"type":"history","table":"t1","deal":2,"from":17})");
  const auto& history = std::get<History>(request.body);
  CHECK(history.table == "t1");
  CHECK(history.deal == 2);
  CHECK(history.from == 17);
  const auto bare = std::get<History>(parse_request(R"({"type":"history","table":"t1"})").body);
  CHECK_FALSE(bare.deal.has_value());
  CHECK_FALSE(bare.from.has_value());
  CHECK_THROWS_AS(parse_request(R"({"type":"history","table":"t1","deal":0})"), ProtocolError);
  CHECK_THROWS_AS(parse_request(R"({"type":"history","table":"t1","from":"x"})"), ProtocolError);
  CHECK_THROWS_AS(parse_request(R"({"type":"history"})"), ProtocolError);
  CHECK_THROWS_AS(parse_request(R"({"type":"history","table":"t1","seat":1})"), ProtocolError);
}

// ----- Malformed input is a bad_request that says what was expected and what came.

TEST_CASE("text that is not JSON is rejected") {
  check_rejected("{\"type\":", "not valid JSON: ");
  check_rejected("", "not valid JSON: ");
  check_rejected("hello", "not valid JSON: ");
  check_rejected(R"({"type":"ping","id":1e999})", "not valid JSON: ");
}

TEST_CASE("the parser's explanation comes without nlohmann's exception prefix") {
  const std::string message = rejection("{\"type\":");
  CHECK(message.starts_with("not valid JSON: parse error at line 1, column 9"));
  CHECK(message.find("[json.exception") == std::string::npos);
}

TEST_CASE("the error for input that is not UTF-8 can itself be sent as JSON") {
  for (const std::string text : {"\xff\xfe", "{\"type\":\"a\xc3\"}", "{\"type\":\"\xe2\x82\"}"}) {
    const std::string message = rejection(text);
    CHECK_NOTHROW(error_message(std::nullopt, code::bad_request, message).dump());
  }
}

TEST_CASE("a top-level array is rejected") {
  check_rejected(R"([{"type":"ping"}])", "a request must be a JSON object, got [{\"type\":\"ping\"}]");
}

TEST_CASE("a top-level number or string is rejected") {
  check_rejected("12", "a request must be a JSON object, got 12");
  check_rejected(R"("ping")", "a request must be a JSON object, got \"ping\"");
}

TEST_CASE("a request without a type is rejected") {
  check_rejected(R"({"id":1})", "missing field 'type'");
}

TEST_CASE("a type that is not a string is rejected") {
  check_rejected(R"({"type":3})", "field 'type' must be a string, got 3");
  check_rejected(R"({"type":null})", "field 'type' must be a string, got null");
}

TEST_CASE("an unknown type is rejected") {
  check_rejected(R"({"type":"foo"})", "unknown message type 'foo'");
  check_rejected(R"({"type":"Hello","name":"a"})", "unknown message type 'Hello'");
}

TEST_CASE("an unknown field is rejected for every kind of message") {
  check_rejected(R"({"type":"join","table":"t","colour":"red"})", "unknown field 'colour' in 'join'");
  check_rejected(R"({"type":"ping","x":1})", "unknown field 'x' in 'ping'");
  check_rejected(R"({"type":"games","filter":"all"})", "unknown field 'filter' in 'games'");
  check_rejected(R"({"type":"hello","name":"a","password":"p"})", "unknown field 'password' in 'hello'");
  check_rejected(R"({"type":"act","table":"t","action":{"type":"x"},"seq":4})", "unknown field 'seq' in 'act'");
  check_rejected(R"({"type":"ledger","re":1})", "unknown field 're' in 'ledger'");
}

TEST_CASE("a missing required field is rejected") {
  check_rejected(R"({"type":"hello"})", "missing field 'name' in 'hello'");
  check_rejected(R"({"type":"create"})", "missing field 'game' in 'create'");
  check_rejected(R"({"type":"leave"})", "missing field 'table' in 'leave'");
  check_rejected(R"({"type":"act","table":"t"})", "missing field 'action' in 'act'");
}

TEST_CASE("fields of the wrong type are rejected") {
  check_rejected(R"({"type":"watch","table":12})", "field 'table' must be a string of 1–64 characters, got 12");
  check_rejected(R"({"type":"create","game":["g"]})", "field 'game' must be a string, got [\"g\"]");
  check_rejected(R"({"type":"create","game":"g","options":[]})", "field 'options' must be an object, got []");
  check_rejected(R"({"type":"create","game":"g","private":1})", "field 'private' must be true or false, got 1");
  check_rejected(R"({"type":"create","game":"g","seats":"4"})", "field 'seats' must be an integer from 1 to 64, got \"4\"");
  check_rejected(R"({"type":"create","game":"g","seats":2.5})", "field 'seats' must be an integer from 1 to 64, got 2.5");
  check_rejected(R"({"type":"hello","name":"a","token":5})", "field 'token' must be a string of at most 256 characters, got 5");
  check_rejected(R"({"type":"join","invite":true})", "field 'invite' must be a string of 1–64 characters, got true");
  check_rejected(R"({"type":"leave","table":null})", "field 'table' must be a string of 1–64 characters, got null");
  check_rejected(R"({"type":"watch","table":null})", "'watch' needs exactly one of 'table' or 'invite', got neither");
}

TEST_CASE("a negative id is rejected") {
  check_rejected(R"({"type":"ping","id":-1})", "field 'id' must be a non-negative integer, got -1");
}

TEST_CASE("an id that is a string or a fraction is rejected") {
  check_rejected(R"({"type":"ping","id":"7"})", "field 'id' must be a non-negative integer, got \"7\"");
  check_rejected(R"({"type":"ping","id":1.5})", "field 'id' must be a non-negative integer, got 1.5");
  check_rejected(R"({"type":"ping","id":9223372036854775808})", "field 'id' must be a non-negative integer");
}

TEST_CASE("seats out of 1..64 are rejected") {
  check_rejected(R"({"type":"create","game":"g","seats":0})", "field 'seats' must be an integer from 1 to 64, got 0");
  check_rejected(R"({"type":"create","game":"g","seats":65})", "field 'seats' must be an integer from 1 to 64, got 65");
}

TEST_CASE("a seat out of 0..63 is rejected") {
  check_rejected(R"({"type":"join","table":"t","seat":-1})", "field 'seat' must be an integer from 0 to 63, got -1");
  check_rejected(R"({"type":"bot","table":"t","seat":64})", "field 'seat' must be an integer from 0 to 63, got 64");
}

TEST_CASE("a bot without level is the careful bot the README names the default; level 0 asked for stays random") {
  CHECK(parse_as<Bot>(R"({"type":"bot","table":"t1"})").level == 1);
  CHECK(parse_as<Bot>(R"({"type":"bot","table":"t1","seat":2})").level == 1);
  CHECK(parse_as<Bot>(R"({"type":"bot","table":"t1","level":0})").level == 0);
}

TEST_CASE("a bot level out of 0..10 is rejected") {
  check_rejected(R"({"type":"bot","table":"t","level":11})", "field 'level' must be an integer from 0 to 10, got 11");
  check_rejected(R"({"type":"bot","table":"t","level":-1})", "field 'level' must be an integer from 0 to 10, got -1");
}

TEST_CASE("a ledger limit out of 1..500 or a before below 1 is rejected") {
  check_rejected(R"({"type":"ledger","limit":0})", "field 'limit' must be an integer from 1 to 500, got 0");
  check_rejected(R"({"type":"ledger","limit":501})", "field 'limit' must be an integer from 1 to 500, got 501");
  check_rejected(R"({"type":"ledger","before":0})", "field 'before' must be a positive integer, got 0");
}

TEST_CASE("a seed that is negative or beyond 64 bits is rejected") {
  check_rejected(R"({"type":"create","game":"g","seed":-1})",
                 "field 'seed' must be an integer from 0 to 18446744073709551615, got -1");
  check_rejected(R"({"type":"create","game":"g","seed":18446744073709551616})", "field 'seed' must be an integer");
}

TEST_CASE("a deck with a card that does not parse is rejected") {
  check_rejected(R"({"type":"create","game":"g","deck":["TH","1H"]})",
                 "deck[1] must be a card like \"TH\" or \"JK\", got \"1H\"");
  check_rejected(R"({"type":"create","game":"g","deck":["??"]})", "deck[0] must be a card");
  check_rejected(R"({"type":"create","game":"g","deck":[10]})", "deck[0] must be a card");
  check_rejected(R"({"type":"create","game":"g","deck":"TH JK"})", "field 'deck' must be an array of cards");
}

TEST_CASE("a deck of more than 416 cards is rejected") {
  Json deck = Json::array();
  for (int i = 0; i < 417; ++i) deck.push_back("2C");
  check_rejected(Json{{"type", "create"}, {"game", "g"}, {"deck", deck}}.dump(),
                 "field 'deck' must hold at most 416 cards, got 417");
}

TEST_CASE("bad player names are rejected") {
  const std::string expected = "name must be 1–24 characters of A–Z, a–z, 0–9, _ or -";
  check_rejected(R"({"type":"hello","name":""})", expected);
  check_rejected(R"({"type":"hello","name":"ali ce"})", expected + ", got \"ali ce\"");
  check_rejected(R"({"type":"hello","name":"abcdefghijklmnopqrstuvwxy"})", expected);
  check_rejected(R"({"type":"hello","name":"zoë"})", expected);
  check_rejected(R"({"type":"hello","name":7})", expected + ", got 7");
  check_rejected(R"({"type":"ledger","player":"no way"})", "player must be 1–24 characters");
}

TEST_CASE("valid_player_name accepts 1 to 24 characters of letters, digits, _ and -") {
  CHECK(valid_player_name("a"));
  CHECK(valid_player_name("abcdefghijklmnopqrstuvwx"));
  CHECK(valid_player_name("A-z_09"));
  CHECK_FALSE(valid_player_name(""));
  CHECK_FALSE(valid_player_name("abcdefghijklmnopqrstuvwxy"));
  CHECK_FALSE(valid_player_name("ali ce"));
  CHECK_FALSE(valid_player_name("a.b"));
}

TEST_CASE("a token over 256 characters is rejected") {
  const Json hello{{"type", "hello"}, {"name", "a"}, {"token", std::string(257, 'x')}};
  check_rejected(hello.dump(), "field 'token' must be a string of at most 256 characters");
}

TEST_CASE("a table id that is empty or over 64 characters is rejected") {
  check_rejected(R"({"type":"start","table":""})", "field 'table' must be a string of 1–64 characters, got \"\"");
  check_rejected(Json{{"type", "end"}, {"table", std::string(65, 't')}}.dump(), "field 'table' must be a string of 1–64");
}

TEST_CASE("join with both table and invite is rejected") {
  check_rejected(R"({"type":"join","table":"t","invite":"i"})",
                 "'join' needs exactly one of 'table' or 'invite', got both");
}

TEST_CASE("join with neither table nor invite is rejected") {
  check_rejected(R"({"type":"join","seat":1})", "'join' needs exactly one of 'table' or 'invite', got neither");
}

TEST_CASE("act without a string action type is rejected") {
  const std::string expected = "field 'action' must be an object with a string 'type'";
  check_rejected(R"({"type":"act","table":"t","action":{}})", expected + ", got {}");
  check_rejected(R"({"type":"act","table":"t","action":{"type":3}})", expected);
  check_rejected(R"({"type":"act","table":"t","action":"bet"})", expected);
}

TEST_CASE("JSON nested deeper than 32 levels is rejected") {
  const std::string deep = std::string(40, '[') + std::string(40, ']');
  check_rejected(R"({"type":"act","table":"t","action":{"type":"x","a":)" + deep + "}}", "nested deeper than 32");
  check_rejected(std::string(30000, '['), "nested deeper than 32");
}

TEST_CASE("long received values are cut short in the message") {
  const std::string message = rejection(Json{{"type", std::string(1000, 'q')}}.dump());
  CHECK(message.size() < 200);
  CHECK(message.find("…") != std::string::npos);
}

TEST_CASE("id_out receives the id even when the rest of the request is bad") {
  std::optional<std::int64_t> id;
  CHECK_THROWS_AS(parse_request(R"({"id":17,"type":"foo"})", &id), ProtocolError);
  CHECK(id == 17);
  id.reset();
  CHECK_THROWS_AS(parse_request(R"({"type":"join","id":4,"table":"t","invite":"i"})", &id), ProtocolError);
  CHECK(id == 4);
  id.reset();
  CHECK_THROWS_AS(parse_request(R"({"id":5})", &id), ProtocolError);
  CHECK(id == 5);
}

TEST_CASE("id_out stays empty when the id itself is bad or cannot be read") {
  std::optional<std::int64_t> id;
  CHECK_THROWS_AS(parse_request(R"({"id":-3,"type":"ping"})", &id), ProtocolError);
  CHECK_FALSE(id.has_value());
  CHECK_THROWS_AS(parse_request(R"({"id":3,"type":)", &id), ProtocolError);
  CHECK_FALSE(id.has_value());
}

TEST_CASE("id_out receives the id of a good request") {
  std::optional<std::int64_t> id;
  parse_request(R"({"type":"ping","id":8})", &id);
  CHECK(id == 8);
}

// ----- Encoders.

TEST_CASE("error_message carries re, code and message") {
  CHECK(error_message(12, code::not_found, "no table 't9'") ==
        Json{{"type", "error"}, {"re", 12}, {"code", "not_found"}, {"message", "no table 't9'"}});
}

TEST_CASE("error_message without re has no re field") {
  const Json error = error_message(std::nullopt, code::bad_request, "not valid JSON: x");
  CHECK(error == Json{{"type", "error"}, {"code", "bad_request"}, {"message", "not valid JSON: x"}});
  CHECK_FALSE(error.contains("re"));
}

TEST_CASE("reply adds type and re to the fields") {
  CHECK(reply("joined", 3, {{"table", "t1"}, {"seat", 0}}) ==
        Json{{"type", "joined"}, {"re", 3}, {"table", "t1"}, {"seat", 0}});
  CHECK(reply("pong", std::nullopt) == Json{{"type", "pong"}});
}

// ----- Robustness.

TEST_CASE("random and mutated input only ever raises ProtocolError") {
  const std::vector<std::string> seeds = {
      R"({"type":"hello","id":1,"name":"alice","token":"t"})",
      R"({"type":"create","game":"red_dog","options":{"ante":5},"seats":6,"seed":42,"deck":["TH","JK"],"private":true})",
      R"({"type":"join","table":"t1","seat":2})",
      R"({"type":"bot","table":"t1","seat":3,"level":10})",
      R"({"type":"act","table":"t1","action":{"type":"bet","amount":7}})",
      R"({"type":"ledger","player":"alice","limit":5,"before":9})",
      R"({"type":"ping","id":18446744073709551615})",
  };
  // Bytes that tend to matter to a JSON parser, plus bytes that break UTF-8.
  const std::string interesting = "{}[]\":,-0123456789.eEtrufalsn\\ \x7f\x80\xbf\xc3\xff\x00";
  std::mt19937 random(20240601);
  const auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
  const auto any_byte = [&] { return static_cast<char>(pick(256)); };
  const auto some_byte = [&] { return pick(2) ? interesting[pick(interesting.size())] : any_byte(); };

  int accepted = 0;
  for (int round = 0; round < 5000; ++round) {
    std::string text;
    if (round % 10 == 0) {
      text.resize(pick(64));
      for (char& c : text) c = any_byte();
    } else {
      text = seeds[pick(seeds.size())];
      for (std::size_t edits = 1 + pick(4); edits > 0 && !text.empty(); --edits) {
        const std::size_t at = pick(text.size());
        switch (pick(4)) {
          case 0: text[at] = some_byte(); break;
          case 1: text.insert(at, 1, some_byte()); break;
          case 2: text.erase(at, 1); break;
          default: text.resize(at); break;
        }
      }
    }
    INFO("round " << round << ": " << Json(text).dump(-1, ' ', true, Json::error_handler_t::replace));
    std::optional<std::int64_t> id;
    try {
      const Request request = parse_request(text, &id);
      CHECK(type_name(request.body) == request.type);
      ++accepted;
    } catch (const ProtocolError& error) {
      CHECK(error.code() == code::bad_request);
      // The error must be sendable: dumping throws on invalid UTF-8.
      CHECK_NOTHROW(error_message(id, error.code(), error.what()).dump());
    } catch (const std::exception& error) {
      FAIL("unexpected exception: " << std::string(error.what()));
    }
  }
  // The mutations should leave some requests intact, or the test exercises nothing but the JSON parser.
  CHECK(accepted > 0);
}

TEST_CASE("act takes an optional action_id: 1–64 printable ASCII characters") {
  const auto act = parse_as<Act>(R"({"type":"act","table":"t1","action":{"type":"bet","amount":2},"action_id":"a-17"})");
  CHECK(act.action_id == "a-17");
  CHECK_FALSE(parse_as<Act>(R"({"type":"act","table":"t1","action":{"type":"pass"}})").action_id.has_value());
  check_rejected(R"({"type":"act","table":"t1","action":{"type":"pass"},"action_id":""})",
                 "field 'action_id' must be a string of 1–64 characters, got \"\"");
  check_rejected(R"({"type":"act","table":"t1","action":{"type":"pass"},"action_id":"a\u0001"})",
                 "field 'action_id' must be printable ASCII, got \"a\\u0001\"");
}

TEST_CASE("an invite longer than 64 characters is refused, and quoted back only in part") {
  const std::string long_invite(60 * 1024, 'x');
  std::optional<std::int64_t> id;
  try {
    parse_request(R"({"type":"join","invite":")" + long_invite + R"("})", &id);
    FAIL("accepted");
  } catch (const ProtocolError& e) {
    CHECK(std::string(e.what()).size() < 200);
  }
}

TEST_CASE("unseat: a seat is required, replace is open (the default) or bot, nothing else") {
  const auto unseat = std::get<Unseat>(parse_request(R"({"type":"unseat","table":"t","seat":2})").body);
  CHECK(unseat.seat == 2);
  CHECK(unseat.replace == "open");
  CHECK(std::get<Unseat>(parse_request(R"({"type":"unseat","table":"t","seat":0,"replace":"bot"})").body).replace == "bot");
  CHECK_THROWS_WITH(parse_request(R"({"type":"unseat","table":"t"})"),
                    "field 'seat' is required in 'unseat': the seat to free");
  CHECK_THROWS_WITH(parse_request(R"({"type":"unseat","table":"t","seat":1,"replace":"human"})"),
                    "field 'replace' must be \"open\" (a new player takes the seat) or \"bot\", got \"human\"");
  CHECK_THROWS_AS(parse_request(R"({"type":"unseat","table":"t","seat":-1})"), ProtocolError);
  CHECK_THROWS_AS(parse_request(R"({"type":"unseat","table":"t","seat":1,"who":"x"})"), ProtocolError);
}

// ----- Table chat, mute and rematch (docs/protocol.md "Table chat", "End of a table").

TEST_CASE("chat carries a text, trimmed, or one of the quick reactions") {
  auto chat = parse_as<Chat>(R"({"type":"chat","table":"t","text":"  good luck\n"})");
  CHECK(chat.table == "t");
  CHECK(chat.text == "good luck");
  CHECK_FALSE(chat.reaction);
  chat = parse_as<Chat>(R"({"type":"chat","table":"t","reaction":"gg"})");
  CHECK(chat.reaction == "gg");
  CHECK_FALSE(chat.text);
  CHECK(chat_reactions() == std::vector<std::string>{"gg", "nice", "oops", "thanks", "hurry", "wow", "sorry", "thumbs_up"});
}

TEST_CASE("chat text is 1 to 200 characters once trimmed, counted as Unicode characters, not bytes") {
  std::string accents;
  for (int i = 0; i < 200; ++i) accents += "\u00e9";  // é, two bytes each in UTF-8
  CHECK(parse_as<Chat>(R"({"type":"chat","table":"t","text":")" + accents + R"("})").text->size() == 400);
  check_rejected(R"({"type":"chat","table":"t","text":")" + accents + R"(e"})",
                 "chat text must be 1–200 characters once trimmed, got 201");
  check_rejected(R"({"type":"chat","table":"t","text":" \t "})", "chat text must be 1–200 characters once trimmed, got 0");
  check_rejected(R"({"type":"chat","table":"t","text":""})", "got 0");
}

TEST_CASE("chat text with a control character inside is refused, naming it") {
  check_rejected(R"({"type":"chat","table":"t","text":"two\nlines"})",
                 "chat text may not hold control characters; character 4 is U+000A");
  check_rejected(R"({"type":"chat","table":"t","text":"bell\u0007"})", "character 5 is U+0007");
  check_rejected(R"({"type":"chat","table":"t","text":"a\u0085b"})", "character 2 is U+0085");
  // Text that reads right to left when the server shows it left to right is refused too.
  check_rejected(R"({"type":"chat","table":"t","text":"x\u202Ey"})", "character 2 is U+202E");
}

TEST_CASE("chat needs exactly one of text and reaction, and a known reaction") {
  check_rejected(R"({"type":"chat","table":"t"})", "'chat' needs exactly one of 'text' or 'reaction', got neither");
  check_rejected(R"({"type":"chat","table":"t","text":"hi","reaction":"gg"})", "got both");
  check_rejected(R"({"type":"chat","table":"t","reaction":"boo"})",
                 "field 'reaction' must be one of gg, nice, oops, thanks, hurry, wow, sorry, thumbs_up; got \"boo\"");
  check_rejected(R"({"type":"chat","table":"t","text":5})", "field 'text' must be a string, got 5");
  check_rejected(R"({"type":"chat","table":"t","text":"hi","colour":"red"})", "unknown field 'colour' in 'chat'");
}

TEST_CASE("mute names a player and says muted or not; rematch may ask for the same seed") {
  const auto mute = parse_as<Mute>(R"({"type":"mute","table":"t","player":"bob","muted":false})");
  CHECK(mute.player == "bob");
  CHECK_FALSE(mute.muted);
  check_rejected(R"({"type":"mute","table":"t","player":"bob"})", "missing field 'muted' in 'mute'");
  check_rejected(R"({"type":"mute","table":"t","player":"no one","muted":true})", "player must be 1–24 characters");
  CHECK_FALSE(parse_as<Rematch>(R"({"type":"rematch","table":"t"})").same_seed);
  CHECK(parse_as<Rematch>(R"({"type":"rematch","table":"t","same_seed":true})").same_seed);
  check_rejected(R"({"type":"rematch","table":"t","same_seed":1})", "field 'same_seed' must be true or false, got 1");
}

TEST_CASE("tables asks for the public list, or with mine for the sender's own tables") {
  CHECK_FALSE(parse_as<Tables>(R"({"type":"tables"})").mine);
  CHECK(parse_as<Tables>(R"({"type":"tables","mine":true})").mine);
  CHECK_FALSE(parse_as<Tables>(R"({"type":"tables","mine":false})").mine);
  check_rejected(R"({"type":"tables","mine":"yes"})", "field 'mine' must be true or false, got \"yes\"");
  check_rejected(R"({"type":"tables","all":true})", "all");
}

TEST_CASE("settle parses without tables (tonight's) and with a list, a table named twice counted once") {
  CHECK_FALSE(parse_as<Settle>(R"({"type":"settle"})").tables.has_value());
  CHECK(parse_as<Settle>(R"({"type":"settle","tables":["t1","t2","t1"]})").tables ==
        std::vector<std::string>{"t1", "t2"});
  CHECK(type_name(parse_request(R"({"type":"settle"})").body) == "settle");
}

TEST_CASE("settle refuses an empty list, more than 50 tables, and anything but table ids") {
  check_rejected(R"({"type":"settle","tables":[]})", "field 'tables' must be an array of 1 to 50 table ids, got 0 of them");
  std::string many = R"({"type":"settle","tables":[)";
  for (int i = 0; i < 51; ++i) many += (i ? ",\"t" : "\"t") + std::to_string(i) + "\"";
  check_rejected(many + "]}", "field 'tables' must be an array of 1 to 50 table ids, got 51 of them");
  check_rejected(R"({"type":"settle","tables":"t1"})", "field 'tables' must be an array of 1 to 50 table ids, got \"t1\"");
  check_rejected(R"({"type":"settle","tables":["t1",5]})",
                 "field 'tables[1]' must be a string of 1–64 characters, got 5");
  check_rejected(R"({"type":"settle","players":["bob"]})", "unknown field 'players' in 'settle'");
}

TEST_CASE("the requests a table serves are told apart by their type, and each names its table or invite") {
  using namespace parlour::protocol;
  const auto rematch = table_request(Body{Rematch{"t9", true}});
  REQUIRE(rematch);
  CHECK(address_of(*rematch).table == "t9");
  const auto join = table_request(Body{Join{std::nullopt, std::string("inv"), std::nullopt}});
  REQUIRE(join);
  CHECK_FALSE(address_of(*join).table);
  CHECK(address_of(*join).invite == "inv");
  CHECK(address_of(*table_request(Body{Act{"t2", Json::object(), std::nullopt}})).table == "t2");
  // Reads served from the database are not the table's: no hand-over for them.
  CHECK_FALSE(table_request(Body{History{"t9", std::nullopt, std::nullopt}}));
  CHECK_FALSE(table_request(Body{Tables{}}));
  CHECK_FALSE(table_request(Body{Create{}}));
}

TEST_CASE("hello may carry a table's invite or a sign-up link's code") {
  const auto hello = parse_as<Hello>(R"({"type":"hello","name":"ann","invite":"inv1","signup":"abc"})");
  CHECK(hello.invite == "inv1");
  CHECK(hello.signup == "abc");
  CHECK_FALSE(parse_as<Hello>(R"({"type":"hello","name":"ann"})").signup.has_value());
  check_rejected(R"({"type":"hello","name":"ann","signup":""})", "field 'signup'");
  check_rejected(R"({"type":"hello","name":"ann","signup":7})", "field 'signup'");
}

TEST_CASE("a sign-in may ask for features: known names set their flag, unknown ones are ignored, nothing asked is v1") {
  CHECK_FALSE(parse_as<Hello>(R"({"type":"hello","name":"ann"})").features.deltas);
  CHECK(parse_as<Hello>(R"({"type":"hello","name":"ann","features":["deltas"]})").features.deltas);
  CHECK(parse_as<Hello>(R"({"type":"hello","name":"ann","features":["shiny","deltas"]})").features.deltas);
  CHECK_FALSE(parse_as<Hello>(R"({"type":"hello","name":"ann","features":["shiny"]})").features.deltas);
  CHECK_FALSE(parse_as<Hello>(R"({"type":"hello","name":"ann","features":[]})").features.deltas);
  CHECK(parse_as<Recover>(R"({"type":"recover","name":"ann","code":"c","features":["deltas"]})").features.deltas);
  CHECK(parse_as<DeviceSignIn>(R"({"type":"device_sign_in","code":"c","features":["deltas"]})").features.deltas);
  CHECK(parse_as<PassphraseSignIn>(
            R"({"type":"passphrase_sign_in","name":"ann","passphrase":"long enough","features":["deltas"]})")
            .features.deltas);
  check_rejected(R"({"type":"hello","name":"ann","features":"deltas"})",
                 "field 'features' must be an array of at most 16 feature names, got \"deltas\"");
  check_rejected(R"({"type":"hello","name":"ann","features":[7]})", "field 'features[0]' must be a string of 1–32 characters, got 7");
  check_rejected(R"({"type":"hello","name":"ann","features":[""]})", "field 'features[0]'");
  check_rejected(R"({"type":"hello","name":"ann","features":[")" + std::string(33, 'x') + R"("]})", "field 'features[0]'");
  Json many = Json::array();
  for (int i = 0; i < 17; ++i) many.push_back("f" + std::to_string(i));
  check_rejected(Json({{"type", "hello"}, {"name", "ann"}, {"features", many}}).dump(), "field 'features'");
  CHECK(features_json(Features{}) == Json::array());
  CHECK(features_json(Features{.deltas = true}) == Json::array({"deltas"}));
  const auto both = parse_as<Hello>(R"({"type":"hello","name":"ann","features":["table_melds","deltas"]})").features;
  CHECK(both.deltas);
  CHECK(both.table_melds);
  CHECK_FALSE(parse_as<Hello>(R"({"type":"hello","name":"ann","features":["deltas"]})").features.table_melds);
  CHECK(features_json(both) == Json::array({"deltas", "table_melds"}));
}

TEST_CASE("signup_link takes 1 to 20 uses and 1 to 168 hours, by default one use for a day") {
  const auto plain = parse_as<SignupLink>(R"({"type":"signup_link"})");
  CHECK(plain.uses == 1);
  CHECK(plain.hours == 24);
  const auto many = parse_as<SignupLink>(R"({"type":"signup_link","uses":20,"hours":168})");
  CHECK(many.uses == 20);
  CHECK(many.hours == 168);
  check_rejected(R"({"type":"signup_link","uses":0})", "field 'uses'");
  check_rejected(R"({"type":"signup_link","uses":21})", "field 'uses'");
  check_rejected(R"({"type":"signup_link","hours":169})", "field 'hours'");
}

TEST_CASE("recover needs a valid name and a code") {
  const auto recover = parse_as<Recover>(R"({"type":"recover","name":"ann","code":"ABCD-EFGH"})");
  CHECK(recover.name == "ann");
  CHECK(recover.code == "ABCD-EFGH");
  check_rejected(R"({"type":"recover","name":"ann"})", "missing field 'code' in 'recover'");
  check_rejected(R"({"type":"recover","name":"no one","code":"x"})", "name must be 1–24 characters");
  check_rejected(R"({"type":"recover","name":"ann","code":""})", "field 'code'");
}

TEST_CASE("device messages: a sign-in code with an optional one-line label, a device to revoke") {
  const auto plain = parse_as<DeviceSignIn>(R"({"type":"device_sign_in","code":"ABCD"})");
  CHECK(plain.code == "ABCD");
  CHECK(plain.label.empty());
  CHECK(parse_as<DeviceSignIn>(R"({"type":"device_sign_in","code":"ABCD","label":"Anna's phone"})").label ==
        "Anna's phone");
  check_rejected(R"({"type":"device_sign_in","code":"ABCD","label":"two\nlines"})", "one line of printable text");
  check_rejected(R"({"type":"device_sign_in","code":"ABCD","label":")" + std::string(41, 'x') + R"("})", "field 'label'");
  check_rejected(R"({"type":"device_sign_in"})", "missing field 'code' in 'device_sign_in'");
  CHECK(parse_as<RevokeDevice>(R"({"type":"revoke_device","device":"d1"})").device == "d1");
  check_rejected(R"({"type":"revoke_device"})", "missing field 'device' in 'revoke_device'");
  check_rejected(R"({"type":"devices","all":true})", "unknown field 'all' in 'devices'");
}

TEST_CASE("passphrases: 8 to 128 characters, signing in names the player") {
  CHECK(parse_as<SetPassphrase>(R"({"type":"set_passphrase","passphrase":"correct horse"})").passphrase == "correct horse");
  check_rejected(R"({"type":"set_passphrase","passphrase":"short"})", "field 'passphrase'");
  check_rejected(R"({"type":"set_passphrase","passphrase":")" + std::string(129, 'x') + R"("})", "field 'passphrase'");
  const auto sign_in = parse_as<PassphraseSignIn>(R"({"type":"passphrase_sign_in","name":"ann","passphrase":"correct horse"})");
  CHECK(sign_in.name == "ann");
  CHECK(sign_in.label.empty());
  check_rejected(R"({"type":"passphrase_sign_in","passphrase":"correct horse"})", "missing field 'name'");
}
