// hello_crowd [FILE.glb|sample] [OUT.png]: import a character (default: the built-in sample),
// bake it, drive a few agents with commands and render one headless frame to a PNG.
#include <cstdio>
#include <string>

#include "throng/crowd/crowd.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/sample_character.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"

namespace {

// Every throng call that can fail returns a Status or a Result; its message names the file and
// the place.
int fail(const throng::Status& status) {
  std::fprintf(stderr, "hello_crowd: %s\n", status.toString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string input = argc > 1 ? argv[1] : "sample";
  const std::string output = argc > 2 ? argv[2] : "hello_crowd.png";

  // Offline (or at load time): import and bake.
  throng::Result<throng::Character> hero =
      input == "sample" ? throng::makeSampleCharacter() : throng::importGltf(input);
  if (!hero.ok()) return fail(hero.status());
  throng::Result<throng::Package> package = throng::bakeCharacter(*hero, {});
  if (!package.ok()) return fail(package.status());

  // Runtime: commands drive agents through their clips (idle, walk, run, attack, die).
  throng::Result<throng::ClipSet> clip_set = throng::clipSetByName(package->clips);
  if (!clip_set.ok()) return fail(clip_set.status());
  throng::Crowd crowd(package->clips, *clip_set);
  const float size = hero->size();  // model units; the sample is about 1.8 tall
  for (int i = 0; i < 5; ++i) crowd.addAgent({glm::vec3((i - 2) * size, 0.0f, 0.0f), 0.0f, 1.0f});
  crowd.submit({0, throng::CommandType::kWalkTo, glm::vec2(-2.0f * size, 2.0f * size)});
  crowd.submit({2, throng::CommandType::kAttack});
  crowd.submit({4, throng::CommandType::kRunTo, glm::vec2(2.0f * size, 3.0f * size)});
  for (int tick = 0; tick < 20; ++tick) crowd.update(1.0f / 30.0f);

  // Render headless (EGL, no window). CrowdRenderer picks the path the device supports (gpu
  // on ES 3.1+, instanced on ES 3.0, merged batches on ES 2.0) and plays, culls, picks LODs and
  // draws.
  const int width = 640, height = 360;
  auto device = throng::render::Device::createHeadless({.width = width, .height = height});
  if (!device.ok()) return fail(device.status());
  throng::render::CrowdRenderer renderer(**device, *package);
  if (!renderer.ok()) return fail(renderer.status());
  const throng::render::FrameView view = throng::render::lookAtView(
      glm::vec3(0.0f, 2.0f * size, 6.0f * size), glm::vec3(0.0f, 0.5f * size, size),
      glm::radians(45.0f), static_cast<float>(width) / static_cast<float>(height), 0.1f * size,
      50.0f * size);
  (*device)->beginFrame(glm::vec4(0.1f, 0.1f, 0.12f, 1.0f));
  if (throng::Status s = renderer.draw(view, crowd); !s.ok()) return fail(s);
  (*device)->finish();

  throng::Result<throng::render::Image> image = (*device)->readPixels();
  if (!image.ok()) return fail(image.status());
  if (throng::Status s = throng::render::writePng(*image, output); !s.ok()) return fail(s);
  std::printf("%s: %u agents, %s path (%s), %u draw calls, %llu triangles\n", output.c_str(),
              crowd.agentCount(), throng::render::renderPathName(renderer.path()),
              renderer.pathReason().c_str(), renderer.stats().draw_calls,
              static_cast<unsigned long long>(renderer.stats().triangles));
  return 0;
}
