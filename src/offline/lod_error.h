// A LOD's error: how far its skinned surface strays from the full mesh skinned with the full
// skeleton, over every clip frame.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "throng/core/character.h"
#include "throng/core/math.h"
#include "throng/core/mesh.h"
#include "throng/offline/bone_reduction.h"

namespace throng {

// Model units.
struct LodError {
  float max = 0.0f;  // largest distance of any correspondence at any frame
  float p99 = 0.0f;  // 99th percentile over correspondences of each one's largest distance
};

// The palettes of every clip of `character` sampled at `fps` (both ends of each clip), or of the
// rest pose when it has no clip: frame-major, frames x joints; `frame_count` receives the frames.
// `morph_weights`, when given, receives the mesh's morph weights at the same frames (frames x
// morph targets, sampleMorphWeights).
std::vector<JointRows> sampleClipPalettes(const Character& character, float fps,
                                          size_t* frame_count,
                                          std::vector<float>* morph_weights = nullptr);

// Measures LOD meshes of one character: its clip palettes are sampled, and its full mesh posed
// on the search frames, once. Holds a reference to `character`, which must outlive it.
//
// The error of a LOD mesh (joint indices are palette slots standing for `palette_joints`;
// empty: skeleton joints) against character.mesh, both skinned from the same skeleton pose at
// every frame of every clip sampled at kReductionSampleFps, each mesh first morphed by the frame's
// weights when it has morph targets (a LOD's are its vertices' subset): correspondences are made
// once in the bind pose, every vertex of the full mesh tied to its nearest point of the LOD surface
// and every sample of the LOD surface (sampleSurface: vertices, edge midpoints, centroids) to its
// nearest point of the full surface, among triangles facing the same way and of the same connected
// piece of the full mesh (closestSurfacePoints, surfaceParts); each point then follows its own
// mesh's skinning (a point inside a triangle follows the triangle's skinned corners). A
// correspondence's error is the largest distance between its two ends over the frames. This catches
// what a bind-pose distance misses (vertices removed where the mesh bends) and what vertex
// displacement alone misses (the simplified surface itself).
class LodErrorMeter {
 public:
  explicit LodErrorMeter(const Character& character);

  // Over every frame (`every_frame`), or over at most kMaxReductionSearchFrames of them (an even
  // stride) for searches that re-measure many candidates. 0 when either mesh has no triangle.
  LodError measure(const SkinnedMesh& lod, std::span<const uint16_t> palette_joints,
                   bool every_frame = true) const;

 private:
  const Character& character_;
  // Frame f's morph weights, one per morph target of the character's mesh.
  std::span<const float> frameWeights(size_t f) const {
    const size_t n = character_.mesh.morph_targets.size();
    return std::span<const float>(weights_).subspan(f * n, n);
  }

  std::vector<JointRows> palettes_;  // every frame, frames x joints
  std::vector<float> weights_;       // every frame, frames x morph targets
  size_t frame_count_ = 0;
  std::vector<size_t> search_frames_;
  std::vector<glm::vec3> search_posed_;  // the full mesh posed at each search frame
};

// LodErrorMeter(character).measure(lod, palette_joints).
LodError measureLodError(const Character& character, const SkinnedMesh& lod,
                         std::span<const uint16_t> palette_joints);

}  // namespace throng
