// Method B, offline: bake every clip of a character into an animation texture and a package.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "throng/core/character.h"
#include "throng/core/package.h"
#include "throng/core/vertex_animation.h"

namespace throng {

// Largest sampling rate accepted (frames per second): far above any display rate; beyond it a
// bake only burns memory.
inline constexpr float kMaxBakeFps = 1000.0f;
// Worker threads a bake may use.
inline constexpr int kMaxBakeThreads = 256;
// A clip loops when its last pose matches its first within this fraction of the character's
// size (largest vertex distance, root motion removed): 2% of a 1.8 m figure is 36 mm. Real
// one-shot clips differ by far more (a jump or a fall: 50-120%); walk cycles whose last key is
// one frame short of the first pose (CesiumMan: 1.8%) still loop.
inline constexpr float kLoopPoseTolerance = 0.02f;
// A clip "moves the root" when its motion joint strays more than this fraction of the
// character's size from where it is at the clip's first frame: 3% of a 1.8 m figure is 54 mm,
// more than the bob and sway of a walk in place.
inline constexpr float kRootMotionTolerance = 0.03f;

// A clip shorter than this (seconds) bakes as a single pose, like a zero-length one: its keys are
// a rounding error apart (exporters write such clips; a fuzzed file wrote 1e-39 s), far below
// any frame, and whole frames over it would need a rate past what a float holds.
inline constexpr float kMinClipSeconds = 1e-6f;

struct BakeOptions {
  float fps = 30.0f;  // requested samples per second; each clip adjusts it (see bakedFrameCount)
  TexelFormat format = TexelFormat::kRgba32F;
  uint32_t max_width = 4096;         // texels; one frame (3 texels per joint) must fit in a row
  std::vector<std::string> clips;    // names (or decimal indices) to bake, in order; empty = all
  std::vector<std::string> loop;     // clips forced to loop
  std::vector<std::string> no_loop;  // clips forced to clamp (play once, keep both ends)
  float max_error = -1.0f;  // model units; the bake fails when its error exceeds it; < 0: no limit
  int threads = 0;          // worker threads; 0 = std::thread::hardware_concurrency()
  std::string source;       // recorded as Package::source
  // Called after each baked frame with (frames done, frames in all): `done` rises by one per call
  // from 1 to `total`. Calls are serialised but come from worker threads; keep them cheap (a
  // frame waits for its call). May be empty.
  std::function<void(uint32_t done, uint32_t total)> progress;
};

// Why a clip loops or not.
enum class LoopReason : uint8_t {
  kPosesMatch,    // first and last poses equal within kLoopPoseTolerance: loops
  kName,          // name contains loop, cycle, idle, walk or run (any case): loops
  kForcedLoop,    // BakeOptions::loop
  kPosesDiffer,   // ends differ and no rule applies: clamped
  kForcedClamp,   // BakeOptions::no_loop
  kZeroDuration,  // a single pose: clamped, one frame
  kOneShotName,   // name says a one-off action (attack, punch, hit, throw, jump, death, die,
                  // shoot, slash; any case): clamped even when it ends where it started
};
const char* loopReasonName(LoopReason reason);

struct ClipBakeReport {
  std::string name;
  uint32_t frames = 0;
  float fps = 0.0f;       // the clip's actual frame rate (BakedClip::fps)
  float duration = 0.0f;  // seconds
  bool loop = false;
  LoopReason loop_reason = LoopReason::kPosesDiffer;
  bool root_motion = false;
  float end_mismatch = 0.0f;  // loopMismatch: fraction of the character's size
  // Largest distance (model units) between a vertex skinned from the stored frame and the same
  // vertex skinned by SkinJob from the clip sampled at that frame's time, over all frames.
  float max_error = 0.0f;
  // Same, at every mid-frame time: the stored frames blended half-half against the clip sampled
  // there. Tells whether fps is high enough for smooth playback.
  float interpolation_error = 0.0f;
};

// What bakeMorphAnimation made of the character's morph targets.
struct MorphBakeReport {
  MorphBakeKind kind = MorphBakeKind::kNone;
  size_t targets = 0;         // the mesh's morph targets
  size_t active_targets = 0;  // kTargetDeltas: those with a non-zero weight in some frame
  uint64_t texel_bytes = 0;   // every LOD's vertex texture
  float max_error = 0.0f;     // model units (MorphAnimation::max_error)
};

struct BakeReport {
  std::vector<ClipBakeReport> clips;
  float character_size = 0.0f;      // Character::size(), model units
  float max_error = 0.0f;           // model units, over all clips
  float max_error_fraction = 0.0f;  // max_error / character_size
  float interpolation_error = 0.0f;
  float interpolation_error_fraction = 0.0f;
  TexelFormat format = TexelFormat::kRgba32F;
  uint32_t width = 0;  // texels
  uint32_t height = 0;
  uint32_t frames = 0;       // over all clips
  uint64_t texel_bytes = 0;  // size of the texture data
  size_t materials = 0;      // Package::materials (0: everything draws with the default)
  size_t images = 0;         // Package::images
  uint64_t image_bytes = 0;  // RGBA8 bytes of the material images, mip chains included
  MorphBakeReport morph;     // the package's morph animation
  int threads = 0;
  double seconds = 0.0;  // wall-clock time of the bake
  std::vector<Warning> warnings;
};

// Samples every selected clip at its frame times, stores each frame's skinning palette
// (evaluatePalette) as 3 texels per joint, measures the error against SkinJob, and returns the
// package: lods[0] is the character's mesh with the full skeleton (its morph targets baked by
// bakeMorphAnimation), one BakedClip per clip, the
// character's materials and variants, and its images with their mip chains (buildPackageImages).
// Deterministic: the same input gives the same package whatever the thread count. Errors:
// kInvalidArgument (bad option, unknown clip), kLimitExceeded (a frame wider than max_width, too
// many frames, a value outside the half range, error above max_error), kInvalidData (from
// validateCharacter). `report`, when given, is filled even when max_error fails the bake.
Result<Package> bakeCharacter(const Character& character, const BakeOptions& options,
                              BakeReport* report = nullptr);

// How bakeMorphAnimation stores a character's morph targets (docs/morph.md): kNone without any;
// kVertexFrames (VAT) when every vertex rides a single joint (a creature animated by morph
// targets alone, whose nodes moved by node animation stay rigid joints); kTargetDeltas otherwise
// (a skinned mesh with morph targets keeps its joints and adds per-frame weights and deltas).
MorphBakeKind chooseMorphBakeKind(const Character& character);

// Bakes the morph targets of package.lods' meshes into package.morph at the frames of
// package.clips (each clip is the character's clip of the same name, sampled at bakedFrameTime),
// in the animation texture's texel format and at most `max_width` texels wide, then clears the
// LOD meshes' morph targets. bakeCharacter calls it; call it again after replacing package.lods
// (buildLodChain's meshes keep their vertices' targets): each LOD's texture holds only its own
// vertices. kVertexFrames: every frame's morphed positions and normals; kTargetDeltas: the
// weights of the targets that are non-zero in some frame, and those targets' deltas (the shader
// loops over them: the per-vertex cost is bounded by the active targets, not all of them).
// Errors: kInvalidArgument (a baked clip the character lacks, a LOD whose targets differ from the
// character's), kLimitExceeded (a texture taller than kMaxAnimationTextureSize, a value outside
// the half-float range for RGBA16F), kInvalidData (a LOD whose targets' deltas or normals do not
// match its vertices). `report`, when given, says what was made.
Status bakeMorphAnimation(const Character& character, Package& package, uint32_t max_width,
                          MorphBakeReport* report = nullptr);

// Frames stored for a clip of `duration` seconds at `fps`: a looping clip stores
// max(1, round(duration * fps)) frames (its end equals its start), a clamped one
// max(2, round(duration * fps) + 1) frames (both ends); a clip shorter than kMinClipSeconds
// stores 1.
uint32_t bakedFrameCount(float duration, float fps, bool loop);
// The clip's actual rate: frame_count / duration when looping, (frame_count - 1) / duration when
// clamped, so that whole frames span the clip exactly; `fps` for a clip shorter than
// kMinClipSeconds.
float bakedFrameRate(float duration, uint32_t frame_count, bool loop, float fps);
// File-timeline time of the clip's frame `frame`: clip.start_time + frame / baked.fps, except the
// last frame of a clamped clip, which is clip.end_time exactly.
float bakedFrameTime(const Clip& clip, const BakedClip& baked, uint32_t frame);
// The joint whose translation is the clip's root motion: among the joints with an animated
// translation, the one nearest the top of the hierarchy, ties going to the one with the most
// descendants (a hips or body joint rather than a foot IK target); -1 when no joint's
// translation is animated.
int motionJoint(const Skeleton& skeleton, const Clip& clip);
// The looping rule above, without overrides.
LoopReason detectLoop(const Character& character, const Clip& clip);
// How far the clip's last pose is from its first: the largest vertex distance between the mesh
// skinned at end_time (shifted back by the root's displacement) and at start_time, as a fraction
// of the character's size (0 for a zero-length clip).
float loopMismatch(const Character& character, const Clip& clip);

}  // namespace throng
