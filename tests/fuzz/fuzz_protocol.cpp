// libFuzzer target: the protocol parser. Any bytes a client may send must give
// a request or a ProtocolError whose message makes a valid JSON error frame.
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string_view>

#include "protocol/messages.h"

using namespace parlour::protocol;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::optional<std::int64_t> id;
  try {
    const auto request = parse_request(text, &id);
    if (type_name(request.body) != request.type) {
      std::fprintf(stderr, "type_name disagrees with the parsed type\n");
      std::abort();
    }
  } catch (const ProtocolError& e) {
    // Throws (and so fails the run) if the message is not valid UTF-8.
    (void)error_message(id, e.code(), e.what()).dump();
  }
  return 0;
}
