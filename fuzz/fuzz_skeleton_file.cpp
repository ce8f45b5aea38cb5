// libFuzzer target: the skeleton file reader. A skeleton it accepts must write back to text that
// reads to the same skeleton.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.h"
#include "throng/core/skeleton_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace throng;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<Skeleton> skeleton = parseSkeletonText(text, "fuzz.skel");
  if (!skeleton.ok()) {
    fuzz::checkError(skeleton.status(), "fuzz.skel");
    return 0;
  }
  const std::string written = formatSkeletonText(*skeleton);
  Result<Skeleton> again = parseSkeletonText(written, "again.skel");
  if (!again.ok() || formatSkeletonText(*again) != written) __builtin_trap();
  return 0;
}
