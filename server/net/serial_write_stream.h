// A stream layer under a WebSocket that keeps one write on the socket at a time
// and gathers whatever comes while it is out. Included by sessions.h (and its test; Beast
// is compiled in net.cpp and net_tls.cpp only).
//
// Two kinds of writes come here. The session's: a batch of text frames it framed
// itself (a server's frames are a two-to-ten-byte header and the bytes, never
// masked), every frame its queue holds, in one call and so one write: an actor's
// `ok` and its `state` leave together. And Beast's own: the handshake's reply,
// pongs, keep-alive pings, the close frame. A write that finds the socket idle
// goes to it at once, from the caller's buffers (which a caller keeps until its
// write ends); one that comes while a write is out is copied into the gathered
// bytes, which leave together when it ends. A write's completion comes when its
// bytes are on the socket, never inside the call that started it.
//
// Beast's WebSocket write operation is not used for the session's frames: it
// took a frame at a time, and each frame cost an operation, a completion handed
// to the loop and a lock of Beast's own (bench: an action's CPU). Nothing is
// lost by it: frames are whole messages (no fragments, no compression is
// offered), and this layer, not Beast's lock, keeps a ping or the close frame
// from landing amid another frame's bytes.
//
// What is gathered is bounded by the session: it hands over at most
// kMostFramed bytes of frames at a time and the next batch when that one is on
// the socket, so a client that does not read backs frames up in the session's
// queue, where its limits are counted; Beast's own writes are a few bytes. The
// gathering buffer is let go once it has been written: an idle connection holds
// none.
#pragma once

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/role.hpp>
#include <boost/beast/websocket/teardown.hpp>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace parlour::server {

// The header of an unmasked, final text frame of `payload_bytes` (RFC 6455 5.2),
// written into `out`; returns its length (2, 4 or 10).
inline std::size_t text_frame_header(std::size_t payload_bytes, std::array<char, 10>& out) {
  out[0] = static_cast<char>(0x81);  // FIN, opcode 1 (text)
  if (payload_bytes < 126) {
    out[1] = static_cast<char>(payload_bytes);
    return 2;
  }
  if (payload_bytes <= 0xffff) {
    out[1] = 126;
    out[2] = static_cast<char>(payload_bytes >> 8);
    out[3] = static_cast<char>(payload_bytes & 0xff);
    return 4;
  }
  out[1] = 127;
  for (int i = 0; i < 8; ++i) out[2 + i] = static_cast<char>((static_cast<std::uint64_t>(payload_bytes) >> (56 - 8 * i)) & 0xff);
  return 10;
}

// A buffer sequence over a vector of buffers it does not own: the session keeps
// the vector, and the bytes, until its write ends (a vector passed by value
// would be copied into the write).
class BufferList {
 public:
  using value_type = boost::asio::const_buffer;
  using const_iterator = std::vector<boost::asio::const_buffer>::const_iterator;
  explicit BufferList(const std::vector<boost::asio::const_buffer>& buffers) : buffers_(&buffers) {}
  const_iterator begin() const { return buffers_->begin(); }
  const_iterator end() const { return buffers_->end(); }

 private:
  const std::vector<boost::asio::const_buffer>* buffers_;
};

template <typename NextLayer>
class SerialWriteStream {
 public:
  using next_layer_type = NextLayer;
  using executor_type = typename NextLayer::executor_type;

  // The most bytes of frames the session hands over in one batch.
  static constexpr std::size_t kMostFramed = 64 * 1024;

  explicit SerialWriteStream(NextLayer&& next) : next_(std::move(next)) {}
  // A write out refers to this stream: it stays where it was made.
  SerialWriteStream(SerialWriteStream&&) = delete;

  executor_type get_executor() noexcept { return next_.get_executor(); }
  NextLayer& next_layer() noexcept { return next_; }
  const NextLayer& next_layer() const noexcept { return next_; }

  // Each write handed to the socket below (or to TLS) adds one here.
  void count_writes_in(std::atomic<std::uint64_t>* counter) { writes_ = counter; }

  // The session this stream is part of: a write out keeps it alive (the write's
  // end touches this stream). Once it is gone, a write fails at once.
  void set_owner(std::weak_ptr<void> owner) { owner_ = std::move(owner); }

  // The connection has ended: nothing gathered is wanted.
  void abandon() {
    std::string().swap(state_.pending);
    if (!state_.failed) state_.failed = boost::asio::error::operation_aborted;
  }

  template <typename MutableBufferSequence, typename ReadHandler>
  auto async_read_some(const MutableBufferSequence& buffers, ReadHandler&& handler) {
    return next_.async_read_some(buffers, std::forward<ReadHandler>(handler));
  }

  // Writes every byte of `buffers` (a write "some" that is always all).
  template <typename ConstBufferSequence, typename WriteHandler>
  auto async_write_some(const ConstBufferSequence& buffers, WriteHandler&& handler) {
    return boost::asio::async_initiate<WriteHandler, void(boost::beast::error_code, std::size_t)>(
        [this](auto&& done, const ConstBufferSequence& data) { write_some(data, std::move(done)); }, handler, buffers);
  }

 private:
  // A write's completion handler, held until its bytes are on the socket.
  // (Beast's handlers move but do not copy, so no std::function.)
  struct Completion {
    virtual ~Completion() = default;
    // From the initiating call: the handler runs later, through its executor's queue.
    virtual void post(boost::beast::error_code ec, std::size_t bytes) = 0;
    // From a completion on this stream's executor: at once if that is the handler's too.
    virtual void dispatch(boost::beast::error_code ec, std::size_t bytes) = 0;
  };
  template <typename Done, typename Executor>
  struct Held final : Completion {
    Held(Done&& d, Executor e) : done(std::move(d)), executor(std::move(e)) {}
    void post(boost::beast::error_code ec, std::size_t bytes) override {
      boost::asio::post(executor, boost::beast::bind_front_handler(std::move(done), ec, bytes));
    }
    void dispatch(boost::beast::error_code ec, std::size_t bytes) override {
      boost::asio::dispatch(executor, boost::beast::bind_front_handler(std::move(done), ec, bytes));
    }
    Done done;
    Executor executor;
  };
  struct Waiter {
    std::unique_ptr<Completion> done;
    std::size_t bytes;
  };
  struct State {
    bool writing = false;
    boost::beast::error_code failed;  // a write failed, or the stream was abandoned: every later write fails so
    std::string pending;              // gathered, not yet handed to the socket
    std::string flying;               // being written
    std::vector<Waiter> waiting;      // writes that end when `pending` has been written
    std::vector<Waiter> riding;       // writes that end when `flying` has been written
  };

  template <typename ConstBufferSequence, typename Done>
  void write_some(const ConstBufferSequence& data, Done&& done) {
    auto& state = state_;
    if (state.failed) return held(std::forward<Done>(done))->post(state.failed, 0);
    auto owner = owner_.lock();
    if (!owner) return held(std::forward<Done>(done))->post(boost::asio::error::operation_aborted, 0);
    if (!state.writing) return write_now(data, std::forward<Done>(done), std::move(owner));
    for (auto it = boost::asio::buffer_sequence_begin(data); it != boost::asio::buffer_sequence_end(data); ++it) {
      const boost::asio::const_buffer piece(*it);
      state.pending.append(static_cast<const char*>(piece.data()), piece.size());
    }
    state.waiting.push_back({held(std::forward<Done>(done)), boost::asio::buffer_size(data)});
  }

  // The socket is idle: the caller's bytes go as they are. `owner` in the
  // handler keeps this stream alive until it runs.
  template <typename ConstBufferSequence, typename Done>
  void write_now(const ConstBufferSequence& data, Done&& done, std::shared_ptr<void> owner) {
    state_.writing = true;
    if (writes_) writes_->fetch_add(1, std::memory_order_relaxed);
    boost::asio::async_write(
        next_, data,
        [this, owner = std::move(owner), done = std::forward<Done>(done)](boost::beast::error_code ec,
                                                                        std::size_t bytes) mutable {
          ended(ec, owner);
          const auto failed = state_.failed;
          auto executor = boost::asio::get_associated_executor(done, get_executor());
          boost::asio::dispatch(executor, boost::beast::bind_front_handler(std::move(done), failed, failed ? 0 : bytes));
        });
  }

  template <typename Done>
  std::unique_ptr<Completion> held(Done&& done) {
    auto executor = boost::asio::get_associated_executor(done, get_executor());
    using Handler = std::decay_t<Done>;
    return std::make_unique<Held<Handler, decltype(executor)>>(std::forward<Done>(done), std::move(executor));
  }

  // What was gathered while a write was out, in one write.
  void write_pending(std::shared_ptr<void> owner) {
    auto& state = state_;
    state.writing = true;
    state.flying.swap(state.pending);
    state.pending.clear();
    state.riding.swap(state.waiting);
    state.waiting.clear();
    if (writes_) writes_->fetch_add(1, std::memory_order_relaxed);
    boost::asio::async_write(next_, boost::asio::buffer(state.flying),
                             [this, owner = std::move(owner)](boost::beast::error_code ec, std::size_t) mutable {
                               auto riders = std::move(state_.riding);
                               state_.riding.clear();
                               std::string().swap(state_.flying);
                               ended(ec, owner);
                               const auto failed = state_.failed;
                               for (auto& rider : riders) rider.done->dispatch(failed, failed ? 0 : rider.bytes);
                             });
  }

  // A write has ended: what was gathered meanwhile goes next, or fails with it.
  void ended(boost::beast::error_code ec, const std::shared_ptr<void>& owner) {
    auto& state = state_;
    state.writing = false;
    if (ec && !state.failed) state.failed = ec;
    if (state.failed) {
      std::string().swap(state.pending);
      auto waiters = std::move(state.waiting);
      state.waiting.clear();
      for (auto& waiter : waiters) waiter.done->dispatch(state.failed, 0);
      return;
    }
    if (!state.pending.empty()) write_pending(owner);
  }

  NextLayer next_;
  std::atomic<std::uint64_t>* writes_ = nullptr;
  State state_;
  std::weak_ptr<void> owner_;  // while it lives, this stream does (a member of it)
};

// Beast's WebSocket closes a stream through teardown, found by argument-dependent
// lookup: the layer below does it.
template <typename NextLayer>
void teardown(boost::beast::role_type role, SerialWriteStream<NextLayer>& stream, boost::beast::error_code& ec) {
  using boost::beast::websocket::teardown;
  teardown(role, stream.next_layer(), ec);
}

template <typename NextLayer, typename TeardownHandler>
void async_teardown(boost::beast::role_type role, SerialWriteStream<NextLayer>& stream, TeardownHandler&& handler) {
  using boost::beast::websocket::async_teardown;
  async_teardown(role, stream.next_layer(), std::forward<TeardownHandler>(handler));
}

}  // namespace parlour::server
