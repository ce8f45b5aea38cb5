// Choosing an impostor's layout within a byte budget, and its error (docs/lods.md, "Impostors").
#pragma once

#include <cstdint>

#include "throng/core/impostor.h"
#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/impostor/impostor_error.h"

namespace throng::impostor {

// 16 MiB per character (both atlases): the budget, a few dozen characters in a phone's
// texture memory.
inline constexpr uint64_t kDefaultImpostorBudgetBytes = 16ull << 20;

struct ImpostorBakeOptions {
  uint64_t budget_bytes = kDefaultImpostorBudgetBytes;  // both atlases together
  float max_fps = 10.0f;  // frames per second sampled at most (each clip's baked rate caps it)
  // Each clip its own rate (quick clips more frames, slow ones fewer: one frame error for all);
  // false: one rate for every clip.
  bool per_clip_rates = true;
  uint32_t max_azimuths = 32;      // views round at most (<= kMaxImpostorAzimuths)
  uint32_t max_elevations = 8;     // bands up at most (<= kMaxImpostorElevations)
  uint32_t max_tile_height = 256;  // texels
  // Samples of the error measure (measureImpostorError), >= 1.
  uint32_t error_samples = kDefaultImpostorErrorSamples;
};

// A chosen layout: the impostor's fields but its atlases (empty), the mesh LOD drawn into them,
// and the planning estimate of its error (model units; layout.max_error is their sum). The
// estimate ranks layouts only: the baked impostor stores its measured error
// (measureImpostorError), not this.
struct ImpostorPlan {
  Impostor layout;
  int lod = 0;               // the coarsest mesh LOD whose error is within half a texel
  float texel_error = 0.0f;  // size.y / tile_height
  // max(axis radius * sin(180 / A degrees), radius * sin(45 / E degrees)): how far a point moves
  // when the view is off by half an azimuth or elevation step
  float view_error = 0.0f;
  // The largest over clips of: the farthest a vertex is from itself at the nearest sampled frame
  float frame_error = 0.0f;
  float mesh_error = 0.0f;  // the drawn LOD's MeshLod::max_error
  uint64_t bytes = 0;       // both atlases
};

// Every combination of tile height, per-clip frame rates and view grid the bake tries
// (docs/lods.md) whose atlases fit `options.budget_bytes` and kMaxImpostorAtlasSide, keeping the
// least estimated error (fewer bytes on a tie); then what the budget leaves buys frames for the
// clips of largest frame error. kLimitExceeded when none fits (naming the budget and the smallest
// layout's bytes); kInvalidArgument for options outside their ranges. `package` must be valid.
Result<ImpostorPlan> planImpostor(const Package& package, const ImpostorBakeOptions& options = {});

}  // namespace throng::impostor
