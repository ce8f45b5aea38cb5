// main() of every test program: GoogleTest, plus the message log of docs/errors.md's check.
#include <gtest/gtest.h>

#include "support/message_log.h"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  throng::test::startMessageLog();
  return RUN_ALL_TESTS();
}
