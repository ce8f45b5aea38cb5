// AgentGrid: the square grid's columns, positions and extent.
#include "throng/crowd/agent_grid.h"

#include <cmath>

#include <gtest/gtest.h>

namespace throng {
namespace {

TEST(AgentGrid, ColumnsAreTheSmallestSquareThatHoldsTheAgents) {
  EXPECT_EQ(squareGrid(0, 1.0f).columns, 1u);
  EXPECT_EQ(squareGrid(1, 1.0f).columns, 1u);
  EXPECT_EQ(squareGrid(2, 1.0f).columns, 2u);
  EXPECT_EQ(squareGrid(100, 1.0f).columns, 10u);
  EXPECT_EQ(squareGrid(101, 1.0f).columns, 11u);
  // Past where a float square root lands on the lower whole number.
  EXPECT_EQ(squareGrid(1000000, 1.0f).columns, 1000u);
  EXPECT_EQ(squareGrid(1000001, 1.0f).columns, 1001u);
  EXPECT_EQ(squareGrid(4294967295u, 1.0f).columns, 65536u);
}

TEST(AgentGrid, AFullSquareIsCentredOnTheOrigin) {
  const AgentGrid grid = squareGrid(9, 2.0f);
  EXPECT_EQ(grid.position(0), glm::vec3(-2.0f, 0.0f, -2.0f));
  EXPECT_EQ(grid.position(4), glm::vec3(0.0f, 0.0f, 0.0f));
  EXPECT_EQ(grid.position(5), glm::vec3(2.0f, 0.0f, 0.0f));
  EXPECT_EQ(grid.position(8), glm::vec3(2.0f, 0.0f, 2.0f));
  EXPECT_EQ(grid.low(), glm::vec2(-2.0f));
  EXPECT_EQ(grid.high(9), glm::vec2(2.0f));
}

TEST(AgentGrid, APartRowEndsTheGridTowardsPlusZ) {
  const AgentGrid grid = squareGrid(5, 1.5f);  // 3 columns, 2 rows
  EXPECT_EQ(grid.columns, 3u);
  EXPECT_EQ(grid.rows(5), 2u);
  EXPECT_EQ(grid.position(3), glm::vec3(-1.5f, 0.0f, 0.0f));
  EXPECT_EQ(grid.high(5), glm::vec2(1.5f, 0.0f));
  // Every agent stands inside [low, high] on its own cell.
  for (uint32_t i = 0; i < 5; ++i) {
    const glm::vec3 p = grid.position(i);
    EXPECT_GE(p.x, grid.low().x);
    EXPECT_LE(p.x, grid.high(5).x);
    EXPECT_GE(p.z, grid.low().y);
    EXPECT_LE(p.z, grid.high(5).y);
    for (uint32_t j = 0; j < i; ++j) EXPECT_GE(glm::length(p - grid.position(j)), 1.5f);
  }
}

TEST(AgentGrid, AnOriginMovesEveryAgent) {
  AgentGrid grid;
  grid.columns = 4;
  grid.spacing = 0.5f;
  grid.origin = glm::vec2(10.0f, -3.0f);
  EXPECT_EQ(grid.position(0), glm::vec3(10.0f, 0.0f, -3.0f));
  EXPECT_EQ(grid.position(6), glm::vec3(11.0f, 0.0f, -2.5f));
}

}  // namespace
}  // namespace throng
