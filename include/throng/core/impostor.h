// Impostor: the character as pictures, one atlas tile per view direction and animation frame
// (docs/lods.md, "Impostors"; baked by bakeImpostors, include/throng/impostor/impostor_bake.h).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "throng/core/status.h"

namespace throng {

// Atlases at most this many texels a side: twice the 4096 most ES 3.0 phones sample, which the
// run time halves to (mip level 1); larger would not upload on most devices at all.
inline constexpr uint32_t kMaxImpostorAtlasSide = 8192;
// Grid sizes past these are corruption, not content (one view every 5.6 degrees round, 16 bands
// of 5.6 degrees up: finer views than tiles of a few dozen texels can show).
inline constexpr uint32_t kMaxImpostorAzimuths = 64;
inline constexpr uint32_t kMaxImpostorElevations = 16;
// Bytes per texel: colour RGBA8 and normals RGB8.
inline constexpr uint32_t kImpostorColorBytes = 4;
inline constexpr uint32_t kImpostorNormalBytes = 3;

// Azimuth x elevation views; tiles laid out row = view (elevation * azimuths + azimuth), column =
// frame (every clip's frames end to end, in the package's clip order).
struct Impostor {
  uint32_t azimuths = 0;  // 0: the package has no impostor (then every field is empty)
  uint32_t elevations = 0;
  uint32_t tile_width = 0;  // texels
  uint32_t tile_height = 0;
  // The model-space rectangle a tile shows: centred on `center`, facing the tile's view,
  // size.x wide and size.y tall (model units), +Y of the model up in the tile.
  glm::vec3 center{0.0f};
  glm::vec2 size{0.0f};
  float fps = 0.0f;  // the fastest sampling rate any clip got (each clip has its own: clip_frames)
  std::vector<uint32_t> clip_frames;  // frames sampled per clip (one per clip, each >= 1)
  // Model units, like MeshLod::max_error: texel footprint + view and frame quantisation.
  float max_error = 0.0f;
  std::vector<uint8_t> color;    // RGBA8, atlasWidth() x atlasHeight(), rows top first, sRGB
  std::vector<uint8_t> normals;  // RGB8, same size: 0.5 * model-space normal + 0.5

  bool empty() const { return azimuths == 0; }
  uint32_t viewCount() const { return azimuths * elevations; }
  uint32_t frameCount() const;  // sum of clip_frames
  uint32_t atlasWidth() const { return frameCount() * tile_width; }
  uint32_t atlasHeight() const { return viewCount() * tile_height; }
  uint64_t byteSize() const { return color.size() + normals.size(); }
  // First atlas column (in tiles) of clip `clip`'s frames.
  uint32_t firstFrame(uint32_t clip) const;
};

// View angles (radians): azimuth j of A is j * 2 pi / A (0: the camera on the model's +Z side),
// elevation i of E is (i + 0.5) * (pi / 2) / E above the horizon.
float impostorAzimuth(uint32_t azimuths, uint32_t j);
float impostorElevation(uint32_t elevations, uint32_t i);
// Unit direction from the model towards the camera of view (i, j).
glm::vec3 impostorViewDirection(uint32_t azimuths, uint32_t elevations, uint32_t i, uint32_t j);
// Frames a clip of `duration` seconds gets at `fps`: max(1, round(duration * fps)).
uint32_t impostorFrameCount(float duration, float fps);
// The clip time frame k of n shows: k * duration / n looping, k * duration / (n - 1) one-shot.
float impostorFrameTime(uint32_t k, uint32_t n, float duration, bool loop);

// The tiles an agent's impostor blends at run time (docs/lods.md, "Drawing impostors"): four
// views, bilinear in azimuth and elevation, times two frames, linear in time. Every path's shader
// reproduces this; it is their CPU reference.
struct ImpostorBlend {
  // View rows (i * azimuths + j) in the order (i0, j0), (i0, j1), (i1, j0), (i1, j1); weights sum
  // to 1 (an elevation clamped to the first or last band gives its neighbour row weight 0).
  uint32_t views[4] = {0, 0, 0, 0};
  float view_weights[4] = {1.0f, 0.0f, 0.0f, 0.0f};
  // Atlas columns (firstFrame(clip) + k) and the weight of frames[1] in [0, 1).
  uint32_t frames[2] = {0, 0};
  float frame_weight = 0.0f;
};
// `to_camera_model`: direction from the agent towards the camera in the agent's model space (+Y up;
// need not be unit, must not be zero). Azimuth atan2(x, z) in steps of 2 pi / azimuths between the
// two neighbouring views (wrapping); elevation asin(y) (below the horizon counts as 0) between the
// two neighbouring bands' centres, clamped to the first and last; frames: a looping clip's time
// `time / duration * n` wraps and blends frame n - 1 into frame 0, a one-shot clip's
// `time / duration * (n - 1)` is clamped to its ends. `clip` must be below clip_frames.size() and
// the impostor not empty (checked by validateImpostor); `duration` <= 0 shows frame 0.
ImpostorBlend impostorBlend(const Impostor& impostor, glm::vec3 to_camera_model, uint32_t clip,
                            float time, float duration, bool loop);

// Checks an impostor against the package's `clip_count` clips: grid and tile sizes within the
// limits, one frame count (>= 1) per clip, atlases of exactly their size, finite non-negative
// rate, size and error. kInvalidData or kLimitExceeded naming `where`. An empty one passes when
// every field is empty.
Status validateImpostor(const Impostor& impostor, size_t clip_count, std::string_view where);

}  // namespace throng
