// What a CrowdRenderer's passes and paths read of its package, copied once when it is made: the
// clips and their culling spheres, the LOD limits, and how each LOD is drawn on the chosen path.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "throng/core/clip.h"
#include "throng/core/joint_encoding.h"
#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/core/warning.h"
#include "throng/crowd/culling.h"
#include "throng/crowd/layer.h"
#include "throng/crowd/playback.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {

struct CrowdFacts {
  std::string source;  // the package's, or "package"
  std::vector<BakedClip> clips;
  std::vector<JointRange> mask_ranges;       // jointRange of each mask's root (Package::masks)
  std::vector<glm::vec3> pivots;             // jointPivots when the package has masks (layers)
  std::vector<AxisSphere> clip_spheres;      // clipAxisSphere of each clip: the culling spheres
  std::vector<PlaybackClip> playback_clips;  // playbackClip of each clip
  std::vector<MeshLod> lods;                 // LOD limits only (meshes left empty): the LOD rule's
  float reach = 0.0f;                        // LodView::reach: LOD 0's farthest bind vertex
  float character_height = 1.0f;             // LOD 0's bind-pose height: the ground's default cell
  float character_footprint = 0.5f;  // half its larger x/z extent: the default shadow radius
  // What the chosen path decided (merged paths: fallbacks, K, the joint encoding).
  std::vector<LodDrawInfo> lod_info;
  std::vector<uint8_t> drawn_lod;  // LOD picked -> LOD drawn (merged paths); empty: itself
  std::vector<Warning> warnings;
  JointEncoding joint_encoding = JointEncoding::kRows;
  std::string joint_encoding_reason;
  float quat_encoding_error = 0.0f;
  // The impostor's LOD index (the mesh LOD count: lods' last entry) when it is drawn, else -1.
  int impostor_lod = -1;
  std::string impostor_reason;

  int lodCount() const { return static_cast<int>(lods.size()); }
};

// Agent `a`'s layer as the paths draw it (layerSample): weight 0 when the frame gives no layers
// or the agent has none.
inline LayerSample agentLayer(const CrowdFacts& facts, const CrowdFrame& frame, uint32_t a) {
  if (frame.layers.empty() || !frame.layers[a].active) return {};
  return layerSample(facts.clips, facts.mask_ranges, frame.layers[a]);
}

// Checks `package` and `desc` for a crowd renderer (at least one LOD and clip, at most
// kMaxDrawnLods LODs, a fixed LOD the package has) and copies its facts into `out`.
// kInvalidArgument, kInvalidData or kLimitExceeded naming the package.
Status gatherCrowdFacts(const Package& package, const CrowdRendererDesc& desc, CrowdFacts& out);

// Appends `package`'s impostor (not empty) to out.lods as the LOD past the last mesh: its
// max_error, no mesh; lod_info one quad (2 triangles) and one material. Sets impostor_lod.
void appendImpostorLod(const Package& package, CrowdFacts& out);

}  // namespace throng::render
