// A strict reader of Prometheus's text exposition format 0.0.4, for the tests
// of /metrics (tests/integration/test_metrics.cpp). Written against the
// format's grammar (prometheus.io "Exposition formats") rather than taken from
// npm or Debian so that it runs inside test_integration, under the sanitizers
// too, and is as strict as Prometheus's own parser where a dashboard would
// break: names and label names by their character classes, label values with
// only \\, \" and \n escapes, Go float values (+Inf, -Inf, NaN), one # TYPE
// and one # HELP per family before its samples, a family's samples together,
// no series twice, and a histogram's buckets cumulative, le ascending to +Inf,
// with _count equal to the +Inf bucket. Anything else throws std::runtime_error
// naming the line.
#pragma once

#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace parlour::support::prometheus {

using Labels = std::map<std::string, std::string>;

struct Sample {
  std::string name;
  Labels labels;
  double value = 0;
};

struct Family {
  std::string name;
  std::string type;  // counter, gauge, histogram, summary, untyped
  std::string help;
  bool declared = false;  // had its own # TYPE line
  std::vector<Sample> samples;
  // The sample of `name` (the family's own, or _bucket/_sum/_count) with exactly `labels`.
  std::optional<double> value(const std::string& sample_name, const Labels& labels = {}) const {
    for (const auto& s : samples)
      if (s.name == sample_name && s.labels == labels) return s.value;
    return std::nullopt;
  }
};

class Page {
 public:
  explicit Page(const std::string& text) { parse(text); }
  const Family& family(const std::string& name) const {
    const auto found = families_.find(name);
    if (found == families_.end()) throw std::runtime_error("no family " + name + " on the page");
    return found->second;
  }
  bool has(const std::string& name) const { return families_.count(name) != 0; }
  const std::map<std::string, Family>& families() const { return families_; }

 private:
  static bool name_start(char c, bool colon) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':');
  }
  static bool name_char(char c, bool colon) { return name_start(c, colon) || (c >= '0' && c <= '9'); }

  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("line " + std::to_string(line_number_) + " '" + line_ + "': " + why);
  }

  std::string name_at(std::size_t& at, bool colon) const {
    const std::size_t start = at;
    if (at >= line_.size() || !name_start(line_[at], colon)) fail("a name was expected at column " + std::to_string(at));
    while (at < line_.size() && name_char(line_[at], colon)) ++at;
    return line_.substr(start, at - start);
  }

  double value_of(const std::string& text) const {
    if (text == "+Inf") return HUGE_VAL;
    if (text == "-Inf") return -HUGE_VAL;
    if (text == "NaN") return NAN;
    if (text.empty()) fail("no value");
    for (char c : text)
      if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'))
        fail("'" + text + "' is not a Go float");
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) fail("'" + text + "' is not a number");
    return v;
  }

  // The family a sample belongs to: a histogram's _bucket/_sum/_count go to it.
  std::string family_of(const std::string& sample) const {
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
      const std::string s = suffix;
      if (sample.size() > s.size() && sample.compare(sample.size() - s.size(), s.size(), s) == 0) {
        const auto base = sample.substr(0, sample.size() - s.size());
        const auto found = families_.find(base);
        if (found != families_.end() && (found->second.type == "histogram" || found->second.type == "summary"))
          return base;
      }
    }
    return sample;
  }

  Family& typed(const std::string& name) {
    auto& family = families_[name];
    family.name = name;
    if (!current_.empty() && current_ != name && done_.count(name)) fail("family " + name + " comes back after another");
    if (current_ != name && !current_.empty()) done_.insert(current_);
    current_ = name;
    return family;
  }

  void comment() {
    std::size_t at = 1;
    while (at < line_.size() && line_[at] == ' ') ++at;
    const bool help = line_.compare(at, 5, "HELP ") == 0;
    const bool type = line_.compare(at, 5, "TYPE ") == 0;
    if (!help && !type) return;  // any other comment is allowed
    at += 5;
    const auto name = name_at(at, true);
    if (at < line_.size() && line_[at] != ' ') fail("a space was expected after the name");
    const std::string rest = at < line_.size() ? line_.substr(at + 1) : "";
    auto& family = typed(name);
    if (help) {
      if (help_seen_.count(name)) fail("a second HELP for " + name);
      help_seen_.insert(name);
      for (std::size_t i = 0; i < rest.size(); ++i)
        if (rest[i] == '\\' && (i + 1 >= rest.size() || (rest[i + 1] != '\\' && rest[i + 1] != 'n')))
          fail("HELP escapes only \\\\ and \\n");
        else if (rest[i] == '\\')
          ++i;
      family.help = rest;
    } else {
      if (!family.type.empty()) fail("a second TYPE for " + name);
      if (!family.samples.empty()) fail("TYPE after samples of " + name);
      static const std::set<std::string> types = {"counter", "gauge", "histogram", "summary", "untyped"};
      if (!types.count(rest)) fail("unknown type '" + rest + "'");
      family.type = rest;
      family.declared = true;
    }
  }

  void sample() {
    std::size_t at = 0;
    Sample s;
    s.name = name_at(at, true);
    if (at < line_.size() && line_[at] == '{') {
      ++at;
      while (at < line_.size() && line_[at] != '}') {
        const auto label = name_at(at, false);
        if (label.rfind("__", 0) == 0) fail("label names starting __ are reserved");
        if (line_.compare(at, 2, "=\"") != 0) fail("=\" was expected after label " + label);
        at += 2;
        std::string value;
        for (;; ++at) {
          if (at >= line_.size()) fail("unterminated label value");
          if (line_[at] == '"') break;
          if (line_[at] == '\\') {
            ++at;
            if (at >= line_.size()) fail("a lone backslash");
            if (line_[at] == '\\') value += '\\';
            else if (line_[at] == '"') value += '"';
            else if (line_[at] == 'n') value += '\n';
            else fail("label values escape only \\\\, \\\" and \\n");
          } else {
            value += line_[at];
          }
        }
        ++at;
        if (!s.labels.emplace(label, value).second) fail("label " + label + " twice");
        if (at < line_.size() && line_[at] == ',') ++at;
        else if (at >= line_.size() || line_[at] != '}') fail(", or } was expected");
      }
      if (at >= line_.size()) fail("unterminated labels");
      ++at;
    }
    if (at >= line_.size() || line_[at] != ' ') fail("a space was expected before the value");
    const auto rest = line_.substr(at + 1);
    const auto space = rest.find(' ');
    s.value = value_of(rest.substr(0, space));
    if (space != std::string::npos) {
      const auto stamp = rest.substr(space + 1);
      if (stamp.empty() || stamp.find_first_not_of("-0123456789") != std::string::npos) fail("a bad timestamp");
    }
    const auto family_name = family_of(s.name);
    auto& family = typed(family_name);
    if (family.type.empty()) family.type = "untyped";
    if (family.type == "counter" && !(s.value >= 0)) fail("a counter below zero");
    if (family.type == "histogram" && s.name == family_name) fail("a histogram's samples are _bucket, _sum and _count");
    if (family.type == "histogram" && s.name == family_name + "_bucket" && !s.labels.count("le"))
      fail("a bucket without le");
    const std::string key = s.name + "|" + [&] {
      std::string k;
      for (const auto& [n, v] : s.labels) k += n + "=" + v + ",";
      return k;
    }();
    if (!series_.insert(key).second) fail("the series " + s.name + " twice");
    family.samples.push_back(std::move(s));
  }

  // A histogram's buckets, per set of labels but le: cumulative, le ascending,
  // ending at +Inf, whose count is _count.
  void check_histograms() const {
    for (const auto& [name, family] : families_) {
      if (family.type != "histogram") continue;
      std::map<Labels, std::vector<std::pair<double, double>>> buckets;
      for (const auto& s : family.samples) {
        if (s.name != name + "_bucket") continue;
        auto rest = s.labels;
        const auto le = rest.at("le");
        rest.erase("le");
        buckets[rest].emplace_back(le == "+Inf" ? HUGE_VAL : std::stod(le), s.value);
      }
      if (buckets.empty()) throw std::runtime_error("histogram " + name + " has no buckets");
      for (const auto& [labels, list] : buckets) {
        for (std::size_t i = 1; i < list.size(); ++i) {
          if (!(list[i].first > list[i - 1].first)) throw std::runtime_error(name + ": le does not ascend");
          if (list[i].second < list[i - 1].second) throw std::runtime_error(name + ": buckets are not cumulative");
        }
        if (!std::isinf(list.back().first)) throw std::runtime_error(name + ": no le=\"+Inf\" bucket");
        const auto count = family.value(name + "_count", labels);
        if (!count || *count != list.back().second) throw std::runtime_error(name + ": _count is not the +Inf bucket");
        if (!family.value(name + "_sum", labels)) throw std::runtime_error(name + ": no _sum");
      }
    }
  }

  void parse(const std::string& text) {
    if (!text.empty() && text.back() != '\n') throw std::runtime_error("the page does not end with a line feed");
    std::size_t start = 0;
    while (start < text.size()) {
      const auto end = text.find('\n', start);
      line_ = text.substr(start, end - start);
      ++line_number_;
      start = end + 1;
      if (line_.empty()) continue;
      if (line_.find('\r') != std::string::npos) fail("a carriage return");
      if (line_[0] == '#') comment();
      else sample();
    }
    for (const auto& [name, family] : families_) {
      if (family.type.empty()) throw std::runtime_error(name + " has no TYPE");
    }
    check_histograms();
  }

  std::map<std::string, Family> families_;
  std::set<std::string> help_seen_;
  std::set<std::string> series_;
  std::set<std::string> done_;
  std::string current_;
  std::string line_;
  std::size_t line_number_ = 0;
};

}  // namespace parlour::support::prometheus
