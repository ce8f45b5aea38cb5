// The front end's shadow map (CrowdRendererDesc::shadows = kMap): a depth texture rendered from
// FrameView's directional light, fitted to the camera's view up to the shadow distance, which the
// crowd's and the ground's shaders sample (shaders/common/shadow.glsl).
#pragma once

#include <memory>

#include <glm/glm.hpp>

#include "render/frame_shading.h"
#include "throng/core/status.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"

namespace throng::render {

// A shadow map's side when CrowdRendererDesc::shadow_map_size is 0 (capped by
// GL_MAX_TEXTURE_SIZE): 8 MB of 16-to-32-bit depth, a fair share for a crowd on any ES 3 device.
inline constexpr int kDefaultShadowMapSize = 2048;
// The shadow distance when CrowdRendererDesc::shadow_distance is 0: the fog's end when the view has
// fog (nothing past it shows), else this many character heights from the eye.
inline constexpr float kDefaultShadowDistanceHeights = 40.0f;
// Casters may stand this far outside the fitted sphere towards the light (as a share of its
// radius) and still shadow what is in it.
inline constexpr float kShadowCasterMargin = 1.0f;
// Depth bias (in texels of depth range per map texel) and normal offset (in map texels) that keep
// lit surfaces from shadowing themselves; glPolygonOffset's factor and units in the depth pass.
inline constexpr float kShadowDepthBiasTexels = 0.5f;
inline constexpr float kShadowNormalOffsetTexels = 1.5f;
inline constexpr float kShadowPolygonOffsetFactor = 2.0f;
inline constexpr float kShadowPolygonOffsetUnits = 4.0f;

// The light's orthographic view fitted to `camera`: the part of its frustum up to `distance`
// world units from the eye (along the view's axis) in a sphere, seen along
// camera.light_direction from kShadowCasterMargin radii beyond it, its centre snapped to the
// map's texels (`map_size`) so that the map does not shimmer as the camera moves. The same fit
// for every path.
struct ShadowFit {
  glm::mat4 view_projection{1.0f};  // world -> the light's clip space (depth -1..1)
  glm::vec3 eye{0.0f};              // where the light's view looks from (world)
  float radius = 0.0f;              // the sphere's (world units): the map covers 2 radius
};
ShadowFit fitShadowView(const FrameView& camera, float distance, int map_size);

class ShadowMapPass {
 public:
  // A `size` x `size` depth texture and its framebuffer. kUnsupported when the device has no depth
  // textures (Caps::depth_textures); kGlError when the framebuffer is incomplete.
  static Result<std::unique_ptr<ShadowMapPass>> create(Device& device, int size);
  ~ShadowMapPass();
  ShadowMapPass(const ShadowMapPass&) = delete;
  ShadowMapPass& operator=(const ShadowMapPass&) = delete;

  int size() const { return size_; }
  // Fits the light's view to `camera` up to `distance` (fitShadowView) and sets what the shaders
  // sample.
  void fit(const FrameView& camera, float distance);
  // The light's view to draw the depth pass with (fov_y 0: orthographic; the map's size as its
  // viewport height).
  const FrameView& lightView() const { return light_view_; }
  const ShadowFit& lastFit() const { return fit_; }
  const ShadowBinding& binding() const { return binding_; }
  // begin(): the map's framebuffer bound (the caller's binding and viewport kept), depth cleared,
  // colour writes off, polygon offset on; end() puts the caller's state back.
  void begin();
  void end();

 private:
  ShadowMapPass() = default;

  int size_ = 0;
  GLuint texture_ = 0;
  GLuint framebuffer_ = 0;
  GLint saved_framebuffer_ = 0;
  GLint saved_viewport_[4] = {};
  ShadowFit fit_;
  FrameView light_view_;
  ShadowBinding binding_;
};

}  // namespace throng::render
