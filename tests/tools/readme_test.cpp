// The README's library section shows examples/hello_crowd.cpp whole: the two stay identical.
#include <string>

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace throng {
namespace {

// The text of the first ```cpp block after `heading`, without its fence lines; empty if none.
std::string codeBlockAfter(const std::string& markdown, const std::string& heading) {
  const size_t section = markdown.find("\n" + heading + "\n");
  if (section == std::string::npos) return {};
  const std::string fence = "\n```cpp\n";
  const size_t open = markdown.find(fence, section);
  if (open == std::string::npos) return {};
  const size_t begin = open + fence.size();
  const size_t close = markdown.find("\n```\n", begin);
  if (close == std::string::npos) return {};
  return markdown.substr(begin, close + 1 - begin);  // keeps the file's last newline
}

// Byte for byte, no normalisation: copy the file into the README when it changes.
TEST(Readme, LibrarySectionIsExamplesHelloCrowdWhole) {
  const std::string source = THRONG_SOURCE_DIR;
  const std::string readme = test::readFile(source + "/README.md");
  const std::string example = test::readFile(source + "/examples/hello_crowd.cpp");
  ASSERT_FALSE(example.empty());
  const std::string block = codeBlockAfter(readme, "## Using the library");
  ASSERT_FALSE(block.empty()) << "README.md: no ```cpp block under '## Using the library'";
  EXPECT_EQ(block, example) << "README.md's library section and examples/hello_crowd.cpp differ";
}

}  // namespace
}  // namespace throng
