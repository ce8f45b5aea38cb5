// How `inspect --json` and `bake --json` show a package's props and masks as data.
#pragma once

#include <nlohmann/json.hpp>

#include "throng/core/package.h"

namespace throng::cli {

// The props, one object each: {"name", "joint" (its name), "source" (the prop's file),
// "triangles" (one count per LOD)}, in package order (summarizeProps).
nlohmann::ordered_json propsJson(const Package& package);
// The masks, one object each: {"name", "root" (joint name), "joints" (in the subtree, the root
// included)}, in package order (summarizeMasks).
nlohmann::ordered_json masksJson(const Package& package);

}  // namespace throng::cli
