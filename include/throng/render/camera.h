// Camera framing: a perspective view looking down at a world-space box so that all of it shows.
#pragma once

#include <glm/glm.hpp>

#include "throng/core/mesh.h"
#include "throng/render/frame_view.h"

namespace throng::render {

struct CameraFraming {
  float fov_y = 0.7853982f;  // radians (45 degrees)
  float pitch = 0.6108652f;  // radians above the horizon the camera looks down from (35 degrees)
  float yaw = 0.0f;          // radians about +Y; 0 puts the camera on the +Z side looking to -Z
  float margin = 1.05f;      // >= 1: how much larger than the box's bounding sphere to frame
  // Pull the camera in until the box's corners (not its bounding sphere) touch the frame: fills
  // the picture for flat boxes such as a crowd on the ground.
  bool fit_corners = false;
};

// World -> clip matrix (GL conventions, depth -1..1) of a camera that sees the whole of `bounds`
// in a viewport of `aspect` = width / height: it frames the box's bounding sphere and puts the
// near and far planes just around it. A zero-size box is framed as a unit sphere.
glm::mat4 framingViewProjection(const Bounds& bounds, float aspect,
                                const CameraFraming& framing = {});
// The same camera as a FrameView (eye and fov_y filled, default light).
FrameView framingView(const Bounds& bounds, float aspect, const CameraFraming& framing = {});

}  // namespace throng::render
