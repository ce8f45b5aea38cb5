// The palette pass (ES 3.0): each frame, every instance's palette blended once into a texture,
// so the instanced vertex shader fetches 3 texels per influence instead of 12.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <GLES3/gl3.h>
#include <glm/glm.hpp>

#include "render/program.h"
#include "throng/core/math.h"
#include "throng/core/status.h"
#include "throng/render/device.h"
#include "throng/render/render_path.h"

namespace throng::render {

// kAuto turns the pass on when a frame skins at least this many vertices (sum over LODs of
// vertices x instances drawn). Measured on llvmpipe (crowd_bench --palette, docs/benchmarks.md,
// half the agents cross-fading): below about 1,000 skinned vertices direct fetching is as fast
// or faster (the pass's extra program, draw and render-target switch cost what it saves); from
// about 2,000 the pass's frame is never slower beyond noise and 1.3-1.9x faster from 16,000 on.
// A GPU whose render-target switches are dear (tilers) would want it higher: not measured.
inline constexpr uint64_t kPalettePassMinVertexInstances = 2048;

// Largest palette texture the pass allocates: 3 RGBA32 texels (48 bytes) per joint per instance,
// so 256 MiB holds 240,000 instances of a 23-joint character, 78,000 of a 71-joint one. Bigger
// crowds are drawn with direct fetching rather than take that much GPU memory for palettes.
inline constexpr size_t kMaxPaletteBytes = size_t{256} << 20;

// Where the animation texture's frames and joints lie (the instanced renderer's GPU copy, see
// core/animation_texture.h and InstancedRenderer::framesPerRow).
struct AnimationTextureBinding {
  GLuint texture = 0;  // RGBA32F or RGBA16F
  int base_row = 0;    // the character's first row (a texture shared by several characters)
  int frames_per_row = 0;
  int texels_per_frame = 0;  // 3 * joint count
  int rows_per_frame = 1;
  int joints_per_row = 0;
};

// Owns the palette texture, its framebuffer and the pass's program. The render target is RGBA32F
// where the device renders to it (ES 3.2, or EXT_color_buffer_float: Caps::color_buffer_float),
// else RGBA32UI holding the floats' bits, which every ES 3.0 device and WebGL2 renders to: both
// keep the blended floats exactly, so there is no half-float variant. Lives and dies with its
// device's context current.
class PalettePass {
 public:
  // `attributes`: the locations of i_record1 (the instance record's frames, blends and fade;
  // render/instance_record.h) and, with `pivots` (jointPivots, one per joint: the pass blends
  // layers too, as crowd/layer_palette.h's layeredJointRows), of i_record2 and i_record3 (the
  // layer's words) in the caller's vertex arrays. kUnsupported when 3 texels per joint of one
  // instance do not fit one row of the device's largest texture; kGlError when the program does
  // not build (log included).
  static Result<std::unique_ptr<PalettePass>> create(const Device& device, int joint_count,
                                                     std::vector<AttributeBinding> attributes,
                                                     std::span<const glm::vec3> pivots = {});
  ~PalettePass();
  PalettePass(const PalettePass&) = delete;
  PalettePass& operator=(const PalettePass&) = delete;

  // True: the target is RGBA32UI (floats as bits, the PALETTE_BITS shader variants).
  bool bits() const { return bits_; }
  GLenum format() const { return bits_ ? GL_RGBA32UI : GL_RGBA32F; }
  int jointCount() const { return joint_count_; }
  int instancesPerRow() const { return instances_per_row_; }
  // Whether `instances` palettes fit the device's texture size and kMaxPaletteBytes.
  bool fits(size_t instances) const;

  // Blends the palettes of `instances` records: one instanced draw of `instance_vertex_array`
  // (the caller's: the three attributes given to create, divisor 1, from the first record)
  // into the palette texture, growing it when needed. Restores the framebuffer, viewport,
  // scissor, blending, depth test and culling it found. Requires fits(instances). kUnsupported
  // when the driver refuses the render target (its framebuffer status in the message); kGlError
  // on other GL failures.
  Status run(GLuint instance_vertex_array, size_t instances, const AnimationTextureBinding& anim);

  // Binds the palette texture to `unit` and sets `program`'s u_palette, u_palette_texels and
  // u_palette_instances_per_row (the program is in use). The caller sets u_palette_first.
  void bind(const Program& program, int unit) const;

  // Reads the first `instances` palettes of the last run back: palettes[i * jointCount() + j] is
  // instance i's joint j (palettes.size() == instances * jointCount()). kGlError on GL failure.
  Status read(size_t instances, std::span<JointRows> palettes) const;

 private:
  PalettePass() = default;
  Status reserve(size_t instances);

  const Device* device_ = nullptr;
  Program program_;
  bool bits_ = false;
  int joint_count_ = 0;
  int max_size_ = 0;  // texels per side the device allows for the target
  int instances_per_row_ = 0;
  int rows_ = 0;  // the texture's height
  GLuint texture_ = 0;
  GLuint framebuffer_ = 0;
};

}  // namespace throng::render
