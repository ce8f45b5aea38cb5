// JobSystem: a small std::thread pool that runs a job's chunks on every core.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace throng {

// Runs fn(begin, end) over fixed chunks of [0, count) on the calling thread and the pool's
// workers. Chunk boundaries depend only on `count` and `chunk`, never on the thread count or on
// which thread takes which chunk, so a job whose chunks write disjoint outputs (and whose
// cross-chunk steps run in chunk order) writes the same bytes with 1 thread or 16.
//
// Why std::thread and not oneTBB: a few dozen lines with no dependency, chunk boundaries we
// control (the identical-bytes guarantee), and nothing to link for users of the static library.
//
// parallelFor allocates nothing; workers sleep on a condition variable between calls. Not
// re-entrant: one parallelFor at a time per JobSystem (fn must not call parallelFor on it).
class JobSystem {
 public:
  // `threads` threads in all, the caller's included: 1 runs everything on the caller; 0 means
  // std::thread::hardware_concurrency() (1 when unknown).
  explicit JobSystem(int threads = 0);
  ~JobSystem();
  JobSystem(const JobSystem&) = delete;
  JobSystem& operator=(const JobSystem&) = delete;

  int threadCount() const { return static_cast<int>(workers_.size()) + 1; }

  // fn(begin, end) for [0, chunk), [chunk, 2 chunk), ... [k chunk, count); returns when all have
  // run. chunk 0 is taken as 1. Fn: any callable taking (size_t, size_t).
  template <typename Fn>
  void parallelFor(size_t count, size_t chunk, Fn&& fn) {
    run(count, chunk == 0 ? 1 : chunk, &callChunk<std::remove_reference_t<Fn>>,
        const_cast<void*>(static_cast<const void*>(&fn)));
  }

  // Chunks for `count` items that give every thread several chunks (load balance) but none
  // smaller than `min_chunk` items (overhead).
  size_t chunkFor(size_t count, size_t min_chunk) const;

 private:
  using ChunkFn = void (*)(void* context, size_t begin, size_t end);
  template <typename Fn>
  static void callChunk(void* context, size_t begin, size_t end) {
    (*static_cast<Fn*>(context))(begin, end);
  }
  void run(size_t count, size_t chunk, ChunkFn fn, void* context);
  void workerLoop();
  void takeChunks();  // runs chunks of the current call until none is left

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  // The current call (written under mutex_ before the generation changes).
  uint64_t generation_ = 0;
  bool stopping_ = false;
  ChunkFn fn_ = nullptr;
  void* context_ = nullptr;
  size_t count_ = 0;
  size_t chunk_ = 1;
  size_t chunks_ = 0;
  size_t next_chunk_ = 0;       // under mutex_
  size_t finished_chunks_ = 0;  // under mutex_
};

}  // namespace throng
