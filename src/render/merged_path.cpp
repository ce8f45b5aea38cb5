// The merged-batch path: LOD pick + palette source + batched draws for a whole crowd.
#include "render/merged_path.h"

#include <cassert>

#include "render/gl_check.h"
#include "throng/crowd/batch_palette.h"
#include "throng/crowd/lod_select.h"

namespace throng::render {

MergedFrameStats drawMergedCrowd(MergedBatchRenderer& renderer, const MergedScene& scene,
                                 PaletteSource source, const FrameView& view,
                                 std::span<const Placement> placements,
                                 std::span<const AgentPlayback> agents,
                                 std::span<const InstanceFrames> frames,
                                 MergedPathScratch& scratch) {
  assert(placements.size() == agents.size());
  assert(source != PaletteSource::kBakedFrames ||
         (scene.texture != nullptr && frames.size() == agents.size()));
  assert(source != PaletteSource::kSkeletonTree ||
         (scene.skeleton != nullptr && scene.clips.size() == scene.baked_clips.size()));
  assert(static_cast<int>(scene.lods.size()) == renderer.lodCount());
  renderer.beginFrame(view);
  // The front end's LOD rule: screen space at the bound framebuffer's height, to the agent's
  // nearest point.
  GLint viewport[4] = {};
  glGetIntegerv(GL_VIEWPORT, viewport);
  LodView lod_view = lodViewOf(view, viewport[3]);
  lod_view.reach = lodReach(scene.lods);
  for (size_t i = 0; i < agents.size(); ++i) {
    const Placement& placement = placements[i];
    const int lod = agentLod(scene.lods, lod_view, placement);
    const std::span<const uint16_t> joints = renderer.paletteJoints(lod);
    const std::span<JointRows> out = renderer.addCharacter(lod);
    const glm::mat4 world = placementMatrix(placement);
    if (source == PaletteSource::kBakedFrames) {
      bakedPalette(*scene.texture, frames[i], world, joints, out);
      continue;
    }
    const AgentPlayback& agent = agents[i];
    const Clip& clip = scene.clips[agent.clip];
    treePalette(*scene.skeleton, &clip,
                clipTime(clip, agent.time, scene.baked_clips[agent.clip].loop), world, joints,
                scratch.pose, out);
    const float fade = agent.fade > 0.0f ? std::min(agent.fade, 1.0f) : 0.0f;
    if (fade > 0.0f) {
      const Clip& previous = scene.clips[agent.previous_clip];
      scratch.fade.resize(out.size());
      treePalette(
          *scene.skeleton, &previous,
          clipTime(previous, agent.previous_time, scene.baked_clips[agent.previous_clip].loop),
          world, joints, scratch.pose, scratch.fade);
      for (size_t s = 0; s < out.size(); ++s) out[s] = mixRows(out[s], scratch.fade[s], fade);
    }
  }
  return renderer.endFrame();
}

}  // namespace throng::render
