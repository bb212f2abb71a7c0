// The real parlour binary (tests/support/server_process.h) and a WebSocket
// client of it (tests/support/ws_client.h), as the integration tests name them.
#pragma once

#include <map>
#include <sys/types.h>

#include "tests/support/server_process.h"
#include "tests/support/ws_client.h"

namespace parlour::test {

using Json = nlohmann::json;
using ServerProcess = parlour::support::ServerProcess;
using WsClient = parlour::support::WsClient;

}  // namespace parlour::test
