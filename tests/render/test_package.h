// Test-only stand-in for the baker: bakes a character's clips into an in-memory Package.
#pragma once

#include <cstdint>

#include "throng/core/character.h"
#include "throng/core/package.h"

namespace throng::test {

// Every clip looping, frame i at clip start + i / fps (animation_texture.h), frames packed into
// rows of at most max_width texels. lods[0] is the character's mesh.
Package bakeForTest(const Character& character, float fps = 30.0f,
                    TexelFormat format = TexelFormat::kRgba32F, uint32_t max_width = 4096);

// A second looping clip for the chain character ("twist": rotations about X), so cross-fades
// blend two different motions.
Clip makeChainTwistClip();

// The chain character (support/test_support.h) with its twist clip as a second clip.
Character makeChainWithTwoClips();

}  // namespace throng::test
