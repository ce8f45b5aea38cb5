// JobSystem: fixed chunks handed out to a small pool of std::threads.
#include "throng/core/job_system.h"

#include <algorithm>

namespace throng {

// Chunks per thread that chunkFor aims at: enough that a thread slowed by another process (2
// cores shared) leaves its remaining chunks to the others.
constexpr size_t kChunksPerThread = 8;

JobSystem::JobSystem(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  workers_.reserve(threads - 1);
  for (int t = 1; t < threads; ++t) workers_.emplace_back([this] { workerLoop(); });
}

JobSystem::~JobSystem() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

size_t JobSystem::chunkFor(size_t count, size_t min_chunk) const {
  const size_t pieces = kChunksPerThread * static_cast<size_t>(threadCount());
  return std::max<size_t>({1, min_chunk, (count + pieces - 1) / pieces});
}

void JobSystem::run(size_t count, size_t chunk, ChunkFn fn, void* context) {
  const size_t chunks = (count + chunk - 1) / chunk;
  if (chunks == 0) return;
  if (workers_.empty() || chunks == 1) {
    for (size_t c = 0; c < chunks; ++c) fn(context, c * chunk, std::min(count, (c + 1) * chunk));
    return;
  }
  {
    std::lock_guard lock(mutex_);
    fn_ = fn;
    context_ = context;
    count_ = count;
    chunk_ = chunk;
    chunks_ = chunks;
    next_chunk_ = 0;
    finished_chunks_ = 0;
    ++generation_;
  }
  wake_.notify_all();
  takeChunks();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return finished_chunks_ == chunks_; });
  fn_ = nullptr;  // a late worker finds no chunk left and goes back to sleep
}

void JobSystem::takeChunks() {
  std::unique_lock lock(mutex_);
  while (fn_ && next_chunk_ < chunks_) {
    const size_t c = next_chunk_++;
    const ChunkFn fn = fn_;
    void* const context = context_;
    const size_t begin = c * chunk_, end = std::min(count_, (c + 1) * chunk_);
    lock.unlock();
    fn(context, begin, end);
    lock.lock();
    if (++finished_chunks_ == chunks_) done_.notify_all();
  }
}

void JobSystem::workerLoop() {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    takeChunks();
  }
}

}  // namespace throng
