// What the GPU-driven path needs of the driver, asked the way the tests need it: a device, or the
// missing piece for THRONG_REQUIRE (support/require.h).
#pragma once

#include <memory>
#include <string>

#include "render/test_hooks.h"
#include "throng/render/device.h"

namespace throng::test {

// An ES 3.1 headless device of `width` x `height` with `caps` applied (a real ES 3 context: see
// useGlesVersion), or nullptr with `*missing` saying what the driver lacks: no ES 3.1 context, or
// (unless caps.disable_compute) compute without what the gpu path binds (kGpuCrowdStorageBlocks
// storage buffers, an image, kGpuAgentsPerWorkGroup invocations per group).
std::unique_ptr<render::Device> makeEs31Device(std::string* missing, int width = 64,
                                               int height = 64, render::CapsOverride caps = {});
// "" when this machine's driver can run the gpu path (makeEs31Device succeeds), else why not.
std::string gpuPathMissing();

}  // namespace throng::test
