// The merged-batch path for a crowd: pick each agent's LOD, fill its palette from one of two
// sources, and draw K agents per call.
#pragma once

#include <span>
#include <vector>

#include "render/merged_batch_renderer.h"
#include "throng/core/animation_texture.h"
#include "throng/core/clip.h"
#include "throng/core/package.h"
#include "throng/core/pose.h"
#include "throng/core/skeleton.h"
#include "throng/crowd/playback.h"

namespace throng::render {

enum class PaletteSource {
  kSkeletonTree,  // the seed's way: sample the clip, walk the tree, x inverse bind (per agent)
  kBakedFrames,   // copy (and blend) the baked frames of the animation texture
};

// What the palette sources read. The tree source needs skeleton + clips (the keyframed clips,
// in the package's clip order) + baked_clips (loop flags); the baked source needs texture.
struct MergedScene {
  const Skeleton* skeleton = nullptr;
  std::span<const Clip> clips;
  std::span<const BakedClip> baked_clips;
  const AnimationTexture* texture = nullptr;
  std::span<const MeshLod> lods;  // max_distance for the LOD pick (same LODs as the renderer)
};

// Reused between frames so drawing allocates nothing after the first frame.
struct MergedPathScratch {
  PoseScratch pose;
  std::vector<JointRows> fade;  // the fading clip's palette (tree source)
};

// Draws agents[i] at placements[i] (frames[i] from PlaybackJob, used by the baked source; may be
// empty for the tree source), untinted and unculled. LOD: agentLod (crowd/lod_select.h) seen from
// view.eye, as the front end picks it (screen space at the bound viewport's height, lodReach).
// Cross-fades blend the two clips' skinning matrices row by row (as the instanced shader does).
// Sizes: placements == agents (== frames for the baked source). CrowdRenderer is the front end for
// packages (baked frames); this keeps the seed's skeleton-tree source for comparisons.
MergedFrameStats drawMergedCrowd(MergedBatchRenderer& renderer, const MergedScene& scene,
                                 PaletteSource source, const FrameView& view,
                                 std::span<const Placement> placements,
                                 std::span<const AgentPlayback> agents,
                                 std::span<const InstanceFrames> frames,
                                 MergedPathScratch& scratch);

}  // namespace throng::render
