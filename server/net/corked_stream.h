// A stream layer under a WebSocket that lets the frames of one step leave in
// one write. Included by net.cpp alone (Beast is compiled in one translation unit).
//
// The session corks the stream while it drains its queue of frames: each frame
// Beast writes is then copied into a buffer and its write completes at once, so
// the next frame follows; when the queue is empty the session uncorks, and the
// buffer leaves in one write (one sendmsg, or one TLS record, instead of one per
// frame: an actor's `ok` and its `state` went as two).
//
// What is buffered is bounded: past kFlushAt bytes the buffer leaves at once, and
// every write after it waits until that write is done, so a client that does not
// read still backs frames up in the session's queue, where its limits are counted.
// Writes made while uncorked go straight through (Beast's pongs and close frame),
// or, while a buffer is leaving, after it: never two writes on the socket at once.
#pragma once

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/role.hpp>
#include <boost/beast/websocket/teardown.hpp>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace parlour::server {

template <typename NextLayer>
class CorkedStream {
 public:
  using next_layer_type = NextLayer;
  using executor_type = typename NextLayer::executor_type;

  // What one flush may hold before it leaves without waiting for the uncork.
  static constexpr std::size_t kFlushAt = 64 * 1024;

  explicit CorkedStream(NextLayer&& next) : next_(std::move(next)), state_(std::make_shared<State>()) {}
  CorkedStream(CorkedStream&&) = default;

  executor_type get_executor() noexcept { return next_.get_executor(); }
  NextLayer& next_layer() noexcept { return next_; }
  const NextLayer& next_layer() const noexcept { return next_; }

  // Each write handed to the socket below (or to TLS) adds one here.
  void count_writes_in(std::atomic<std::uint64_t>* counter) { writes_ = counter; }

  // From now until uncork(), writes are gathered. `owner` (the session) is kept
  // alive by the writes this starts, which touch this stream when they end.
  void cork(std::shared_ptr<void> owner) {
    state_->corked = true;
    owner_ = std::move(owner);
  }

  // What was gathered leaves now, in one write.
  void uncork() {
    state_->corked = false;
    if (!state_->flushing) flush();
  }

  // The connection has ended: nothing gathered is wanted, and the owner is let go
  // (a write still out lets it go when it ends).
  void abandon() {
    state_->corked = false;
    if (state_->flushing) return;
    state_->pending.clear();
    owner_.reset();
  }

  template <typename MutableBufferSequence, typename ReadHandler>
  auto async_read_some(const MutableBufferSequence& buffers, ReadHandler&& handler) {
    return next_.async_read_some(buffers, std::forward<ReadHandler>(handler));
  }

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
    virtual void post(boost::beast::error_code ec, std::size_t bytes) = 0;
  };
  template <typename Done, typename Executor>
  struct Posted final : Completion {
    Posted(Done&& d, Executor e) : done(std::move(d)), executor(std::move(e)) {}
    void post(boost::beast::error_code ec, std::size_t bytes) override {
      boost::asio::post(executor, boost::beast::bind_front_handler(std::move(done), ec, bytes));
    }
    Done done;
    Executor executor;
  };
  struct Held {
    std::unique_ptr<Completion> done;
    std::size_t bytes;
  };
  // Shared with the write in flight, which may end after this stream has moved.
  struct State {
    bool corked = false;
    bool flushing = false;
    boost::beast::error_code failed;  // a flush failed: every later write fails so
    std::string pending;              // gathered, not yet handed to the socket
    std::string flying;               // being written
    std::vector<Held> waiting;        // writes that end when `pending` has been written
    std::vector<Held> riding;         // writes that end when `flying` has been written
  };

  template <typename ConstBufferSequence, typename Done>
  void write_some(const ConstBufferSequence& data, Done&& done) {
    auto& state = *state_;
    const std::size_t bytes = boost::asio::buffer_size(data);
    if (state.failed) return complete(std::forward<Done>(done), state.failed, 0);
    if (!state.corked && !state.flushing) {
      count_write();
      return next_.async_write_some(data, std::forward<Done>(done));
    }
    append(data);
    if (state.flushing) {
      state.waiting.push_back({held(std::forward<Done>(done)), bytes});
      return;
    }
    complete(std::forward<Done>(done), {}, bytes);
    if (state.pending.size() >= kFlushAt) flush();
  }

  template <typename ConstBufferSequence>
  void append(const ConstBufferSequence& data) {
    for (auto it = boost::asio::buffer_sequence_begin(data); it != boost::asio::buffer_sequence_end(data); ++it) {
      const boost::asio::const_buffer piece(*it);
      state_->pending.append(static_cast<const char*>(piece.data()), piece.size());
    }
  }

  // A completion runs later, never inside the call that started the write, on
  // the handler's own executor.
  template <typename Done>
  std::unique_ptr<Completion> held(Done&& done) {
    auto executor = boost::asio::get_associated_executor(done, get_executor());
    using Handler = std::decay_t<Done>;
    return std::make_unique<Posted<Handler, decltype(executor)>>(std::forward<Done>(done), std::move(executor));
  }
  template <typename Done>
  void complete(Done&& done, boost::beast::error_code ec, std::size_t bytes) {
    held(std::forward<Done>(done))->post(ec, bytes);
  }

  void flush() {
    auto& state = *state_;
    if (state.pending.empty()) {
      if (!state.corked) owner_.reset();
      return;
    }
    state.flushing = true;
    state.flying.swap(state.pending);
    state.pending.clear();
    state.riding.swap(state.waiting);
    state.waiting.clear();
    count_write();
    boost::asio::async_write(next_, boost::asio::buffer(state.flying),
                             [this, state = state_, owner = owner_](boost::beast::error_code ec, std::size_t) {
                               flushed(*state, ec);
                             });
  }

  // `owner` in the handler above keeps this stream alive until here.
  void flushed(State& state, boost::beast::error_code ec) {
    state.flushing = false;
    state.flying.clear();
    if (state.flying.capacity() > kFlushAt) std::string().swap(state.flying);
    auto riders = std::move(state.riding);
    state.riding.clear();
    if (ec) {
      state.failed = ec;
      state.pending.clear();
      for (auto& waiter : state.waiting) riders.push_back(std::move(waiter));
      state.waiting.clear();
    }
    for (auto& rider : riders) rider.done->post(ec, ec ? 0 : rider.bytes);
    if (ec) {
      owner_.reset();
      return;
    }
    // Written while this flush was out: next, whether corked or not.
    if (!state.pending.empty() && (!state.corked || !state.waiting.empty() || state.pending.size() >= kFlushAt))
      return flush();
    if (!state.corked) owner_.reset();
  }

  void count_write() {
    if (writes_) writes_->fetch_add(1, std::memory_order_relaxed);
  }

  NextLayer next_;
  std::atomic<std::uint64_t>* writes_ = nullptr;
  std::shared_ptr<State> state_;
  std::shared_ptr<void> owner_;  // the session, while a write of this stream may be out
};

// Beast's WebSocket closes a stream through teardown, found by argument-dependent
// lookup: the layer below does it.
template <typename NextLayer>
void teardown(boost::beast::role_type role, CorkedStream<NextLayer>& stream, boost::beast::error_code& ec) {
  using boost::beast::websocket::teardown;
  teardown(role, stream.next_layer(), ec);
}

template <typename NextLayer, typename TeardownHandler>
void async_teardown(boost::beast::role_type role, CorkedStream<NextLayer>& stream, TeardownHandler&& handler) {
  using boost::beast::websocket::async_teardown;
  async_teardown(role, stream.next_layer(), std::forward<TeardownHandler>(handler));
}

}  // namespace parlour::server
