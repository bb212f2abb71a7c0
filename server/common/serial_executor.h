// Where one table's or one connection's handlers run, one after another.
#pragma once

#include <utility>  // before Asio: std::exchange in Boost 1.74's awaitable.hpp

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

namespace parlour::server {

// On a loop that several threads run, a strand of its own. On a loop made for
// one thread (an io_context whose concurrency hint is 1, as `--threads 1`
// makes it), the loop itself: it already runs one handler at a time, and a
// strand's lock, queue and hand-off would cost every handler for nothing (5-10 %
// of the CPU an action in the benchmark, docs/performance.md).
inline boost::asio::any_io_executor serial_executor(boost::asio::io_context& io) {
  if (boost::asio::use_service<boost::asio::detail::scheduler>(io).concurrency_hint() == 1) return io.get_executor();
  return boost::asio::make_strand(io);
}

}  // namespace parlour::server
