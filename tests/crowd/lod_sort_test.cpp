// Tests of the counting sort that groups agents by LOD.
#include "throng/crowd/lod_sort.h"

#include <vector>

#include <gtest/gtest.h>

namespace throng {
namespace {

TEST(LodSort, OffsetsAreAnExclusivePrefixSum) {
  const std::vector<uint32_t> counts = {3, 0, 2, 5};
  std::vector<uint32_t> first(4);
  lodOffsets(counts, first);
  EXPECT_EQ(first, (std::vector<uint32_t>{0, 3, 3, 5}));
}

TEST(LodSort, GroupsByLodKeepingAgentOrderWithinALod) {
  const std::vector<uint32_t> agents = {4, 7, 9, 12, 20, 21};
  const std::vector<uint8_t> lod = {2, 0, 2, 1, 0, 2};
  const std::vector<uint32_t> counts = {2, 1, 3};
  std::vector<uint32_t> cursor(3), order(6, 99);
  lodOffsets(counts, cursor);
  ASSERT_TRUE((LodSortJob{agents, lod, cursor, order}.run()));
  EXPECT_EQ(order, (std::vector<uint32_t>{7, 20, 12, 4, 9, 21}));
  EXPECT_EQ(cursor, (std::vector<uint32_t>{2, 3, 6}));  // each cursor ends at the next LOD's start
}

TEST(LodSort, ChunksWithTheirOwnCursorsGiveTheSameOrder) {
  const std::vector<uint32_t> agents = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<uint8_t> lod = {1, 0, 1, 1, 0, 2, 0, 1};
  std::vector<uint32_t> cursor(3), whole(8), chunked(8);
  lodOffsets(std::vector<uint32_t>{3, 4, 1}, cursor);
  ASSERT_TRUE((LodSortJob{agents, lod, cursor, whole}.run()));
  // Chunk A = agents 0..3 (counts 1, 3, 0), chunk B = 4..7 (counts 2, 1, 1): B's cursors start
  // after A's agents of each LOD.
  std::vector<uint32_t> a_cursor = {0, 3, 7}, b_cursor = {1, 6, 7};
  const std::span<const uint32_t> all(agents);
  const std::span<const uint8_t> lods(lod);
  ASSERT_TRUE((LodSortJob{all.subspan(0, 4), lods.subspan(0, 4), a_cursor, chunked}.run()));
  ASSERT_TRUE((LodSortJob{all.subspan(4), lods.subspan(4), b_cursor, chunked}.run()));
  EXPECT_EQ(whole, chunked);
}

TEST(LodSort, RejectsBadLodsAndStopsAtAnOverrunningCursor) {
  const std::vector<uint32_t> agents = {0, 1};
  std::vector<uint32_t> order(2);
  std::vector<uint32_t> cursor = {0, 0};
  const std::vector<uint8_t> too_high = {0, 2};
  EXPECT_FALSE((LodSortJob{agents, too_high, cursor, order}.run()));
  const std::vector<uint8_t> short_lod = {0};
  EXPECT_FALSE((LodSortJob{agents, short_lod, cursor, order}.run()));
  const std::vector<uint8_t> lod = {1, 1};
  cursor = {0, 1};  // LOD 1 starts at 1 but has two agents: the second would write order[2]
  EXPECT_FALSE((LodSortJob{agents, lod, cursor, order}.run()));
}

}  // namespace
}  // namespace throng
