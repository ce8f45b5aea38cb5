// The GPU-driven path's driver requirements, probed on a throwaway ES 3.1 headless device.
#include "support/gpu_support.h"

#include "render/gpu_crowd.h"
#include "support/test_support.h"

namespace throng::test {

std::unique_ptr<render::Device> makeEs31Device(std::string* missing, int width, int height,
                                               render::CapsOverride caps) {
  render::DeviceDesc desc;
  render::DeviceTestHooks hooks;
  hooks.caps = caps;
  desc.test_hooks = &hooks;
  desc.gles_major = 3;
  desc.gles_minor = 1;
  desc.width = width;
  desc.height = height;
  useGlesVersion(3);
  Result<std::unique_ptr<render::Device>> device = render::Device::createHeadless(desc);
  if (!device.ok()) {
    *missing = "no OpenGL ES 3.1 context: " + device.status().toString();
    return nullptr;
  }
  const render::Caps& c = (*device)->caps();
  if (!caps.disable_compute &&
      (!c.compute || c.max_compute_shader_storage_blocks < render::kGpuCrowdStorageBlocks ||
       c.max_compute_image_uniforms < 1 ||
       c.max_compute_work_group_invocations < static_cast<int>(render::kGpuAgentsPerWorkGroup))) {
    *missing = "no ES 3.1 compute with " + std::to_string(render::kGpuCrowdStorageBlocks) +
               " storage buffers and an image on " + c.version + " (" + c.renderer + ")";
    return nullptr;
  }
  return std::move(device).value();
}

std::string gpuPathMissing() {
  std::string missing;
  makeEs31Device(&missing);
  return missing;
}

}  // namespace throng::test
