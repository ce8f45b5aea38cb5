// Test-only stand-in for the baker (the real one is offline/bake.h): palettes into texels.
#include "test_package.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/packing.hpp>

#include "support/test_support.h"
#include "throng/core/pose.h"

namespace throng::test {

Package bakeForTest(const Character& character, float fps, TexelFormat format, uint32_t max_width) {
  Package package;
  package.source = "test bake";
  package.skeleton = character.skeleton;
  MeshLod lod;
  lod.mesh = character.mesh;
  package.lods.push_back(lod);
  package.materials = character.materials;  // the mesh's sub-meshes index them
  package.variants = character.variants;
  const int joints = character.skeleton.jointCount();
  std::vector<std::vector<JointRows>> frames;
  PoseScratch scratch;
  scratch.resize(joints);
  for (const Clip& clip : character.clips) {
    BakedClip baked;
    baked.name = clip.name;
    baked.fps = fps;
    baked.duration = clip.duration();
    baked.loop = true;
    baked.first_frame = static_cast<uint32_t>(frames.size());
    baked.frame_count =
        std::max<uint32_t>(1, static_cast<uint32_t>(std::lround(clip.duration() * fps)));
    for (uint32_t f = 0; f < baked.frame_count; ++f) {
      std::vector<JointRows> palette(joints);
      evaluatePalette(character.skeleton, &clip, clip.start_time + static_cast<float>(f) / fps,
                      scratch, palette);
      frames.push_back(palette);
    }
    baked.bounds = computeBounds(character.mesh.positions);
    package.clips.push_back(baked);
  }
  AnimationTexture& t = package.animation;
  t.format = format;
  t.joint_count = static_cast<uint32_t>(joints);
  t.frame_count = static_cast<uint32_t>(frames.size());
  t.frames_per_row = std::clamp<uint32_t>(max_width / t.texelsPerFrame(), 1, t.frame_count);
  t.width = t.frames_per_row * t.texelsPerFrame();
  t.height = (t.frame_count + t.frames_per_row - 1) / t.frames_per_row;
  std::vector<float> texels(static_cast<size_t>(t.width) * t.height * 4, 0.0f);
  for (uint32_t f = 0; f < t.frame_count; ++f)
    for (uint32_t j = 0; j < t.joint_count; ++j)
      for (uint32_t r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) texels[t.channelIndex(f, j, r) + c] = frames[f][j].rows[r][c];
  if (format == TexelFormat::kRgba32F) {
    t.texels32 = std::move(texels);
  } else {
    for (float v : texels) t.texels16.push_back(static_cast<uint16_t>(glm::packHalf1x16(v)));
  }
  return package;
}

Clip makeChainTwistClip() {
  Clip clip;
  clip.name = "twist";
  clip.joints.resize(3);
  for (int j = 0; j < 3; ++j) {
    QuatTrack& r = clip.joints[j].rotation;
    r.interpolation = Interpolation::kLinear;
    r.times = {0.0f, 0.4f, 0.8f};
    const glm::quat bent = glm::angleAxis(j == 0 ? 0.3f : -0.6f, glm::vec3(1, 0, 0));
    r.values = {glm::quat(1, 0, 0, 0), bent, glm::quat(1, 0, 0, 0)};
  }
  updateClipRange(clip);
  return clip;
}

Character makeChainWithTwoClips() {
  Character c = makeChainCharacter();
  c.clips.push_back(makeChainTwistClip());
  return c;
}

}  // namespace throng::test
