// A JSON value that is set whole and then only read, such as the last deal's
// result: copies of its holder share one tree, so that cloning a game (a bot's
// search, a fuzzer's table) does not copy a result nobody will change.
#pragma once

#include <memory>
#include <utility>

#include <nlohmann/json.hpp>

namespace parlour::rules {

class SharedJson {
 public:
  SharedJson() = default;

  SharedJson& operator=(nlohmann::json value) {
    tree_ = std::make_shared<const nlohmann::json>(std::move(value));
    return *this;
  }

  // The value; null until one is set.
  const nlohmann::json& get() const {
    static const nlohmann::json null_value;
    return tree_ ? *tree_ : null_value;
  }

 private:
  std::shared_ptr<const nlohmann::json> tree_;
};

}  // namespace parlour::rules
