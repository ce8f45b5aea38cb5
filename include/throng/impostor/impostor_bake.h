// bakeImpostors: renders a package's character into impostor atlases, headless, through the
// public CrowdRenderer (docs/lods.md, "Impostors"). It renders, so it lives above the render
// layer, not in the GL-free offline one.
#pragma once

#include "throng/core/impostor.h"
#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/impostor/impostor_error.h"
#include "throng/impostor/impostor_plan.h"

namespace throng::impostor {

// Plans the layout (planImpostor), then draws every view's row of frames into a headless device
// of its own (OpenGL ES 3.0, instanced path; ES 2.0, merged path, where the process asked Mesa
// for ES 2.0 only), twice: base colour (sRGB, untinted, unlit; alpha the coverage) and shading
// normal (model space, 0.5 n + 0.5), each by a user shading file (docs/shaders.md). The package
// is drawn with its own materials and the mesh LOD the plan picked (ImpostorPlan::lod). Then its
// error as drawn is measured (measureImpostorError, options.error_samples samples) and stored in
// Impostor::max_error (ImpostorError::total()). Errors: planImpostor's, measureImpostorError's,
// and kGlError when no device or renderer could be made or a draw failed. `package` must be valid
// (readPackage, bake). `plan`, when given, receives the plan (the layout and its planning
// estimates); `error`, the measured error's parts.
Result<Impostor> bakeImpostors(const Package& package, const ImpostorBakeOptions& options = {},
                               ImpostorPlan* plan = nullptr, ImpostorError* error = nullptr);

}  // namespace throng::impostor
