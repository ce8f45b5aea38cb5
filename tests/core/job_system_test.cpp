// JobSystem: every item once, chunk boundaries independent of the thread count.
#include "throng/core/job_system.h"

#include <atomic>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace throng {
namespace {

// Per item: the chunk's begin (which chunk it fell in) and how often it ran.
struct Visits {
  std::vector<uint32_t> chunk_begin;
  std::vector<uint32_t> runs;
};

Visits visit(JobSystem& jobs, size_t count, size_t chunk) {
  Visits v{std::vector<uint32_t>(count, ~0u), std::vector<uint32_t>(count, 0)};
  jobs.parallelFor(count, chunk, [&](size_t begin, size_t end) {
    EXPECT_LT(begin, end);
    for (size_t i = begin; i < end; ++i) {
      v.chunk_begin[i] = static_cast<uint32_t>(begin);
      ++v.runs[i];  // items of different chunks are different elements: no race
    }
  });
  return v;
}

TEST(JobSystem, RunsEveryItemOnceInTheSameChunksWhateverTheThreadCount) {
  JobSystem one(1), two(2), four(4);
  EXPECT_EQ(one.threadCount(), 1);
  EXPECT_EQ(four.threadCount(), 4);
  for (const size_t count : {size_t{0}, size_t{1}, size_t{7}, size_t{1000}, size_t{100003}}) {
    for (const size_t chunk : {size_t{0}, size_t{1}, size_t{64}, size_t{4096}}) {
      const Visits expected = visit(one, count, chunk);
      for (size_t i = 0; i < count; ++i) {
        ASSERT_EQ(expected.runs[i], 1u);
        const size_t c = chunk == 0 ? 1 : chunk;
        ASSERT_EQ(expected.chunk_begin[i], i / c * c);
      }
      for (JobSystem* jobs : {&two, &four}) {
        for (int repeat = 0; repeat < 3; ++repeat) {
          const Visits got = visit(*jobs, count, chunk);
          ASSERT_EQ(got.runs, expected.runs) << count << " " << chunk;
          ASSERT_EQ(got.chunk_begin, expected.chunk_begin) << count << " " << chunk;
        }
      }
    }
  }
}

TEST(JobSystem, UsesTheWorkers) {
  JobSystem jobs(3);
  std::atomic<int> busy{0}, most{0};
  // Every chunk waits (bounded) until another chunk runs at the same time: with workers the
  // most-concurrent count reaches 2; with one thread it could not.
  jobs.parallelFor(64, 1, [&](size_t, size_t) {
    const int now = ++busy;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    for (int spin = 0; spin < 2000000 && most.load() < 2; ++spin) std::this_thread::yield();
    --busy;
  });
  EXPECT_GE(most.load(), 2);
}

TEST(JobSystem, ChunkForBalancesAndRespectsTheMinimum) {
  JobSystem jobs(2);
  EXPECT_EQ(jobs.chunkFor(0, 256), 256u);
  EXPECT_EQ(jobs.chunkFor(1000, 256), 256u);
  EXPECT_EQ(jobs.chunkFor(1600000, 256), 100000u);  // 8 chunks per thread
  EXPECT_EQ(jobs.chunkFor(10, 0), 1u);
}

}  // namespace
}  // namespace throng
