// The impostor tests' shared inputs: the sample character baked at 10 fps, and a small layout
// (few views and frames of small tiles) that keeps their bakes and CPU references quick.
#pragma once

#include <gtest/gtest.h>

#include "throng/impostor/impostor_plan.h"
#include "throng/offline/bake.h"
#include "throng/offline/sample_character.h"

namespace throng::impostor::fixtures {

inline ImpostorBakeOptions smallOptions() {
  ImpostorBakeOptions o;
  o.max_azimuths = 4;
  o.max_elevations = 2;
  o.max_fps = 3.0f;
  o.max_tile_height = 48;
  return o;
}

inline const Package& samplePackage() {
  static const Package package = [] {
    BakeOptions options;
    options.fps = 10.0f;
    Result<Package> p = bakeCharacter(makeSampleCharacter(), options);
    EXPECT_TRUE(p.ok()) << p.status().message();
    return p.ok() ? *p : Package{};
  }();
  return package;
}

}  // namespace throng::impostor::fixtures
