// AnimationTexture and BakedClip: every clip's per-frame skinning palettes, laid out as RGBA
// texels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "throng/core/clip.h"
#include "throng/core/math.h"
#include "throng/core/mesh.h"

namespace throng {

// Largest texture side any current GPU accepts (GL_MAX_TEXTURE_SIZE is 16384 on most desktops,
// 32768 on the largest); a package beyond it could never be uploaded.
inline constexpr uint32_t kMaxAnimationTextureSize = 32768;

enum class TexelFormat : uint8_t {
  kRgba32F = 0,  // exact copy of the float palette
  kRgba16F = 1,  // IEEE half floats: half the bytes, error reported by the baker
};

// One clip's frames inside the texture. Frames are numbered over the whole texture; this clip
// owns [first_frame, first_frame + frame_count). Frame i is the pose at i / fps seconds after
// the clip's start. A looping clip does not store its last frame (it equals the first), so
// frame_count = round(duration * fps); a clamped clip stores both ends: round(duration * fps) + 1.
struct BakedClip {
  std::string name;
  uint32_t first_frame = 0;
  uint32_t frame_count = 0;
  float fps = 30.0f;
  float duration = 0.0f;  // seconds
  bool loop = true;
  Bounds bounds;  // model-space bounds of the skinned mesh over all frames (for culling)
  // Root joint translation per frame relative to frame 0 (model units); empty when the clip
  // does not move the root.
  std::vector<glm::vec3> root_motion;
  // Named moments, seconds from the clip's start, sorted by time, within [0, duration].
  std::vector<ClipEvent> events;
};

// Texture layout (docs/formats.md). A frame is 3*J texels (3 per joint, one per matrix row).
// When 3*J <= width, a frame's texels are contiguous in one row and a row holds frames_per_row
// >= 1 frames. When 3*J > width (a skeleton wider than the texture), width is a multiple of 3,
// frames_per_row is 1 and each frame spans rowsPerFrame() = ceil(3*J / width) rows of
// jointsPerRow() = width / 3 joints; a joint's 3 texels never straddle two rows. Texel of
// (frame f, joint j, matrix row r), with R = rowsPerFrame() and P = jointsPerRow():
//   x = (f % frames_per_row) * 3*J + 3 * (j % P) + r,   y = (f / frames_per_row) * R + j / P.
// (When R == 1, P == J, so this is x = (f % frames_per_row) * 3*J + 3*j + r, y = f /
// frames_per_row.)
struct AnimationTexture {
  TexelFormat format = TexelFormat::kRgba32F;
  uint32_t width = 0;   // texels
  uint32_t height = 0;  // texels
  uint32_t joint_count = 0;
  uint32_t frame_count = 0;  // over all clips
  uint32_t frames_per_row = 0;
  std::vector<float> texels32;     // width * height * 4 floats when format == kRgba32F
  std::vector<uint16_t> texels16;  // width * height * 4 halves when format == kRgba16F

  uint32_t texelsPerFrame() const { return 3 * joint_count; }
  // Rows one frame occupies: 1 unless the frame is wider than the texture. Requires width > 0.
  uint32_t rowsPerFrame() const { return (texelsPerFrame() + width - 1) / width; }
  // Joints per row of a frame: every joint when a frame fits in one row, else width / 3.
  uint32_t jointsPerRow() const { return rowsPerFrame() == 1 ? joint_count : width / 3; }
  // Column and row of a texel; requires frame < frame_count, joint < joint_count, row < 3.
  uint32_t texelX(uint32_t frame, uint32_t joint, uint32_t row) const {
    return (frame % frames_per_row) * texelsPerFrame() + 3 * (joint % jointsPerRow()) + row;
  }
  uint32_t texelY(uint32_t frame, uint32_t joint) const {
    return (frame / frames_per_row) * rowsPerFrame() + joint / jointsPerRow();
  }
  // Index of the texel's first channel in texels32 / texels16 (4 channels per texel). A joint's
  // three rows are consecutive texels: row r is at channelIndex(frame, joint, 0) + 4 * r.
  size_t channelIndex(uint32_t frame, uint32_t joint, uint32_t row) const {
    return (static_cast<size_t>(texelY(frame, joint)) * width + texelX(frame, joint, row)) * 4;
  }
};

// Width, height and frames per row of an animation texture for `joint_count` joints and
// `frame_count` frames at most `max_width` texels wide (the layout above): whole frames per row
// when 3*J <= max_width (as many as fit, no more than the frames), else one frame over
// ceil(3*J / (3 * floor(max_width / 3))) rows of width 3 * ceil(J / rows) (the narrowest width
// with that row count, so no row is mostly empty). Requires joint_count, frame_count >= 1 and
// max_width >= 3. The height is not limited here: callers compare it with their own limit.
struct AnimationTextureLayout {
  uint32_t width = 0;
  uint64_t height = 0;
  uint32_t frames_per_row = 0;
};
AnimationTextureLayout chooseAnimationTextureLayout(uint32_t joint_count, uint64_t frame_count,
                                                    uint32_t max_width);

// The palette entry of `joint` at texture frame `frame`, widened to floats (halves are converted
// exactly). Requires frame < frame_count, joint < joint_count and texels sized for the format.
JointRows loadJointRows(const AnimationTexture& texture, uint32_t frame, uint32_t joint);
// Stores a palette entry (rounded to the nearest half for kRgba16F); same requirements.
void storeJointRows(AnimationTexture& texture, uint32_t frame, uint32_t joint,
                    const JointRows& rows);

}  // namespace throng
