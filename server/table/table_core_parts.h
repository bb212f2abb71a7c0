// What TableCore's files (table_core.cpp, table_seats.cpp, table_progress.cpp,
// table_talk.cpp) share besides the class itself.
#pragma once

#include <stdexcept>

namespace parlour::server {

// A move the game refused though it listed it (or named it as the turn's
// default): a fault of the game, or of its bot. The refusal changed nothing.
struct RefusedAction : std::logic_error {
  using std::logic_error::logic_error;
};

}  // namespace parlour::server
