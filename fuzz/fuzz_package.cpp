// libFuzzer target: the package reader. A package it accepts passes validatePackage.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_support.h"
#include "throng/core/package.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace throng;
  const auto bytes = std::as_bytes(std::span<const uint8_t>(data, size));
  Result<Package> package = parsePackage(bytes, "fuzz.throng");
  if (!package.ok()) {
    fuzz::checkError(package.status(), "fuzz.throng");
    return 0;
  }
  if (!validatePackage(*package, "fuzz.throng").ok()) __builtin_trap();
  return 0;
}
