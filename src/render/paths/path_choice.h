// Which render path draws a crowd: the one asked for, or (kAuto) the best the device's
// capabilities allow, made and explained. A new path is added here and in a file of its own.
#pragma once

#include <memory>
#include <string>

#include "render/crowd_facts.h"
#include "render/paths/crowd_path.h"
#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"

namespace throng::render {

struct PathChoice {
  Status status;                        // why no path could be made (then `path` is null)
  std::unique_ptr<CrowdPath> path;      // the path made
  RenderPath kind = RenderPath::kAuto;  // its kind; on failure the one tried last
  std::string reason;                   // why (CrowdRenderer::pathReason)
};

// kAuto tries gpu (ES 3.1 compute, no blob shadows, no material variants; mapped shadows and a
// user's shader are fine), then instanced (ES 3
// with instancing, float textures and vertex texture fetch, the texture fitting), then merged
// (ES 2.0, or a texture too large) or per-character. The merged paths write their decisions into
// `facts` (MergedCrowdPath::create).
PathChoice chooseCrowdPath(Device& device, const Package& package, const CrowdRendererDesc& desc,
                           CrowdFacts& facts);

}  // namespace throng::render
