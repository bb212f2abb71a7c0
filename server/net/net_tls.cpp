// The sessions over TLS (sessions.h says why they are compiled apart).
#include "server/net/sessions.h"

namespace parlour::server::net_sessions {

void start_tls_session(PlainStream&& stream, std::shared_ptr<ssl::context> tls, beast::flat_buffer buffer,
                       Context context, IpAddress peer, std::optional<AddressCounter::Slot> slot) {
  std::make_shared<HttpSession<TlsStream>>(std::move(stream), std::move(tls), std::move(buffer), context, peer,
                                           std::move(slot))
      ->run();
}

}  // namespace parlour::server::net_sessions
