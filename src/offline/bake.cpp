// The animation baker: clip frames -> skinning palettes -> texture, with error measurement.
#include "throng/offline/bake.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cctype>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <thread>

#include <fmt/core.h>

#include "offline/package_images.h"
#include "throng/core/excerpt.h"
#include "throng/core/half.h"
#include "throng/core/morph.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"

namespace throng {
namespace {

// Clips longer than this many frames are a mistake (a day of animation at 30 Hz needs
// 2.6 million); it also keeps every frame count within uint32.
constexpr double kMaxClipFrames = 1e8;

std::string lowercase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

float maxDistance(std::span<const glm::vec3> a, std::span<const glm::vec3> b) {
  float worst = 0.0f;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, glm::distance(a[i], b[i]));
  return worst;
}

// The palette a GPU reads back from the texture: identical for RGBA32F, rounded to halves for
// RGBA16F.
JointRows quantize(const JointRows& rows, TexelFormat format) {
  if (format == TexelFormat::kRgba32F) return rows;
  JointRows out;
  for (int r = 0; r < kVec4PerJoint; ++r) {
    for (int c = 0; c < 4; ++c) out.rows[r][c] = halfToFloat(floatToHalf(rows.rows[r][c]));
  }
  return out;
}

// Per-thread buffers: sized once, reused for every frame.
struct Worker {
  PoseScratch scratch;
  std::vector<JointRows> reference, stored, next, middle, blended;
  std::vector<glm::vec3> ref_positions, stored_positions, mid_positions, blend_positions;
  std::vector<float> morph_weights;  // the mesh's morph weights at the frame being baked
  std::vector<glm::vec3> morphed;    // the mesh morphed by them (before skinning)

  void resize(size_t joints, size_t vertices) {
    for (auto* p : {&reference, &stored, &next, &middle, &blended}) p->resize(joints);
    for (auto* v : {&ref_positions, &stored_positions, &mid_positions, &blend_positions}) {
      v->resize(vertices);
    }
  }
};

// `mesh` at `time` of `clip` (null: the rest pose) before skinning: its positions morphed by the
// weights there, or its positions as they are without morph targets. `buffer` holds the result
// when there is one to compute.
std::span<const glm::vec3> morphedPositions(const SkinnedMesh& mesh, const Clip* clip, float time,
                                            std::vector<float>& weights,
                                            std::vector<glm::vec3>& buffer) {
  if (mesh.morph_targets.empty()) return mesh.positions;
  weights.resize(mesh.morph_targets.size());
  buffer.resize(mesh.vertexCount());
  sampleMorphWeights(mesh.morph_targets, clip, time, weights);
  [[maybe_unused]] const bool ok =
      MorphJob{mesh.morph_targets, weights, mesh.positions, {}, {}, buffer, {}, {}}.run();
  assert(ok);
  return buffer;
}

void skin(const SkinnedMesh& mesh, std::span<const glm::vec3> positions,
          std::span<const JointRows> palette, std::span<glm::vec3> out) {
  [[maybe_unused]] const bool ok =
      SkinJob{positions, {}, mesh.joints, mesh.weights, palette, out, {}}.run();
  assert(ok);
}

struct FrameResult {
  float error = 0.0f;
  float interpolation_error = 0.0f;
  Bounds bounds;
  glm::vec3 root{0.0f};
  bool representable = true;  // every value fits the texel format
  int non_finite_joint = -1;  // first joint whose palette entry (or root) is not finite
  bool finite_positions = true;
};

struct ClipPlan {
  const Clip* clip = nullptr;
  int motion_joint = -1;
  BakedClip baked;
  LoopReason reason = LoopReason::kPosesDiffer;
};

Status badOption(const std::string& what) {
  return Status(ErrorCode::kInvalidArgument, what);
}

Status checkOptions(const BakeOptions& o) {
  if (!(std::isfinite(o.fps) && o.fps > 0.0f && o.fps <= kMaxBakeFps)) {
    return badOption(fmt::format("fps {} is outside (0, {}]", o.fps, kMaxBakeFps));
  }
  if (o.max_width < 3 || o.max_width > kMaxAnimationTextureSize) {
    return badOption(
        fmt::format("max width {} is outside [3, {}]", o.max_width, kMaxAnimationTextureSize));
  }
  if (o.threads < 0 || o.threads > kMaxBakeThreads) {
    return badOption(fmt::format("thread count {} is outside [0, {}]", o.threads, kMaxBakeThreads));
  }
  if (std::isnan(o.max_error)) return badOption("max error is NaN");
  if (o.format != TexelFormat::kRgba32F && o.format != TexelFormat::kRgba16F) {
    return badOption("unknown texel format");
  }
  return {};
}

std::string clipNames(const Character& c) {
  std::string s;
  for (const Clip& clip : c.clips) s += (s.empty() ? "'" : ", '") + clip.name + "'";
  return s.empty() ? "none" : s;
}

Result<std::vector<int>> resolveClips(const Character& c, const std::vector<std::string>& names,
                                      const char* option) {
  std::vector<int> out;
  for (const std::string& name : names) {
    const int index = c.findClip(name);
    if (index < 0) {
      return badOption(
          fmt::format("{}: unknown clip '{}' (the character has {})", option, name, clipNames(c)));
    }
    if (std::find(out.begin(), out.end(), index) == out.end()) out.push_back(index);
  }
  return out;
}

}  // namespace

const char* loopReasonName(LoopReason reason) {
  switch (reason) {
    case LoopReason::kPosesMatch:
      return "ends match";
    case LoopReason::kName:
      return "name";
    case LoopReason::kForcedLoop:
      return "forced loop";
    case LoopReason::kPosesDiffer:
      return "ends differ";
    case LoopReason::kForcedClamp:
      return "forced clamp";
    case LoopReason::kOneShotName:
      return "one-shot name";
    case LoopReason::kZeroDuration:
      return "single pose";
  }
  return "?";
}

uint32_t bakedFrameCount(float duration, float fps, bool loop) {
  if (!(duration >= kMinClipSeconds)) return 1;
  const double intervals = std::round(static_cast<double>(duration) * fps);
  assert(intervals < kMaxClipFrames);
  const auto n = static_cast<uint32_t>(intervals);
  return loop ? std::max(1u, n) : std::max(2u, n + 1);
}

float bakedFrameRate(float duration, uint32_t frame_count, bool loop, float fps) {
  if (!(duration >= kMinClipSeconds)) return fps;
  const uint32_t intervals = loop ? frame_count : frame_count - 1;
  return static_cast<float>(static_cast<double>(intervals) / duration);
}

float bakedFrameTime(const Clip& clip, const BakedClip& baked, uint32_t frame) {
  if (!baked.loop && frame + 1 == baked.frame_count) return clip.end_time;
  return clip.start_time + static_cast<float>(static_cast<double>(frame) / baked.fps);
}

int motionJoint(const Skeleton& skeleton, const Clip& clip) {
  const int n = skeleton.jointCount();
  std::vector<int> depth(n, 0), descendants(n, 0);
  for (int j = 0; j < n; ++j) {
    const int parent = skeleton.parents()[j];
    if (parent != kNoParent) depth[j] = depth[parent] + 1;
  }
  for (int j = n - 1; j >= 0; --j) {  // children come after their parents
    const int parent = skeleton.parents()[j];
    if (parent != kNoParent) descendants[parent] += descendants[j] + 1;
  }
  int best = -1;
  for (int j = 0; j < n && j < static_cast<int>(clip.joints.size()); ++j) {
    if (clip.joints[j].translation.empty()) continue;
    if (best < 0 || depth[j] < depth[best] ||
        (depth[j] == depth[best] && descendants[j] > descendants[best])) {
      best = j;
    }
  }
  return best;
}

float loopMismatch(const Character& character, const Clip& clip) {
  if (!(clip.duration() >= kMinClipSeconds)) return 0.0f;
  const Skeleton& skeleton = character.skeleton;
  const SkinnedMesh& mesh = character.mesh;
  PoseScratch scratch;
  std::vector<JointRows> first(skeleton.jointCount()), last(skeleton.jointCount());
  const int root = motionJoint(skeleton, clip);
  evaluatePalette(skeleton, &clip, clip.start_time, scratch, first);
  const glm::vec3 root_first = root < 0 ? glm::vec3(0.0f) : glm::vec3(scratch.models[root][3]);
  evaluatePalette(skeleton, &clip, clip.end_time, scratch, last);
  const glm::vec3 root_shift =
      root < 0 ? glm::vec3(0.0f) : glm::vec3(scratch.models[root][3]) - root_first;
  std::vector<glm::vec3> a(mesh.vertexCount()), b(mesh.vertexCount()), morphed;
  std::vector<float> weights;
  skin(mesh, morphedPositions(mesh, &clip, clip.start_time, weights, morphed), first, a);
  skin(mesh, morphedPositions(mesh, &clip, clip.end_time, weights, morphed), last, b);
  for (glm::vec3& p : b) p -= root_shift;  // a walk cycle that moves the root still loops
  const float size = character.size();
  const float distance = maxDistance(a, b);
  return size > 0.0f ? distance / size : (distance > 0.0f ? 1.0f : 0.0f);
}

LoopReason detectLoop(const Character& character, const Clip& clip) {
  if (!(clip.duration() >= kMinClipSeconds)) return LoopReason::kZeroDuration;
  const std::string name = lowercase(clip.name);
  // An attack that returns to its guard pose still plays once: its name says so.
  for (const char* word :
       {"attack", "punch", "hit", "throw", "jump", "death", "die", "shoot", "slash"}) {
    if (name.find(word) != std::string::npos) return LoopReason::kOneShotName;
  }
  if (loopMismatch(character, clip) <= kLoopPoseTolerance) return LoopReason::kPosesMatch;
  for (const char* word : {"loop", "cycle", "idle", "walk", "run"}) {
    if (name.find(word) != std::string::npos) return LoopReason::kName;
  }
  return LoopReason::kPosesDiffer;
}

namespace {

// The character can be baked at all: valid, with joints and clips.
Status checkBakeable(const Character& character, const std::string& source) {
  if (Status s = validateCharacter(character, source); !s.ok()) return s;
  if (character.skeleton.jointCount() == 0) {
    return Status(ErrorCode::kInvalidData, fmt::format("{}: the skeleton has no joints", source));
  }
  if (character.clips.empty()) {
    return badOption(fmt::format("{}: the character has no clips to bake", source));
  }
  return {};
}

// The clips the options force to loop and to clamp (never both).
struct LoopOverrides {
  std::vector<int> loop;
  std::vector<int> clamp;
};

Result<LoopOverrides> resolveLoopOverrides(const Character& character, const BakeOptions& options) {
  Result<std::vector<int>> forced_loop =
      resolveClips(character, options.loop, "clips forced to loop");
  if (!forced_loop.ok()) return forced_loop.status();
  Result<std::vector<int>> forced_clamp =
      resolveClips(character, options.no_loop, "clips forced to clamp");
  if (!forced_clamp.ok()) return forced_clamp.status();
  for (int c : *forced_loop) {
    if (std::find(forced_clamp->begin(), forced_clamp->end(), c) != forced_clamp->end()) {
      return badOption(fmt::format("clip '{}' is both forced to loop and forced to clamp",
                                   character.clips[c].name));
    }
  }
  return LoopOverrides{std::move(forced_loop).value(), std::move(forced_clamp).value()};
}

// Clip `c`'s plan: whether it loops (and why), and its frames from `first_frame` on.
ClipPlan planClip(const Character& character, int c, const LoopOverrides& overrides, float fps,
                  uint64_t first_frame) {
  const Clip& clip = character.clips[c];
  ClipPlan plan;
  plan.clip = &clip;
  plan.motion_joint = motionJoint(character.skeleton, clip);
  auto contains = [](const std::vector<int>& v, int x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  plan.reason = detectLoop(character, clip);
  if (plan.reason != LoopReason::kZeroDuration) {
    if (contains(overrides.loop, c)) plan.reason = LoopReason::kForcedLoop;
    if (contains(overrides.clamp, c)) plan.reason = LoopReason::kForcedClamp;
  }
  const bool loop = plan.reason == LoopReason::kPosesMatch || plan.reason == LoopReason::kName ||
                    plan.reason == LoopReason::kForcedLoop;
  const float duration = clip.duration();
  BakedClip& b = plan.baked;
  b.name = clip.name;
  b.events = clip.events;
  b.loop = loop;
  b.duration = duration;
  b.first_frame = static_cast<uint32_t>(first_frame);
  b.frame_count = bakedFrameCount(duration, fps, loop);
  b.fps = bakedFrameRate(duration, b.frame_count, loop, fps);
  return plan;
}

// Which clips, in which order, and whether each loops; `total_frames` gets their frame count.
Result<std::vector<ClipPlan>> planClips(const Character& character, const BakeOptions& options,
                                        const std::string& source, uint64_t& total_frames) {
  Result<std::vector<int>> selected = resolveClips(character, options.clips, "clips to bake");
  if (!selected.ok()) return selected.status();
  if (selected->empty()) {
    for (size_t i = 0; i < character.clips.size(); ++i) selected->push_back(static_cast<int>(i));
  }
  Result<LoopOverrides> overrides = resolveLoopOverrides(character, options);
  if (!overrides.ok()) return overrides.status();
  std::vector<ClipPlan> plans;
  total_frames = 0;
  for (int c : *selected) {
    const Clip& clip = character.clips[c];
    const float duration = clip.duration();
    if (static_cast<double>(duration) * options.fps >= kMaxClipFrames) {
      return Status(ErrorCode::kLimitExceeded,
                    fmt::format("{}: clip '{}' lasts {} s: too many frames at {} fps", source,
                                clip.name, duration, options.fps));
    }
    plans.push_back(planClip(character, c, *overrides, options.fps, total_frames));
    total_frames += plans.back().baked.frame_count;
  }
  return plans;
}

// The texture, zeroed, in its layout (animation_texture.h): whole frames per row, rows as needed;
// a frame wider than max_width spans several rows.
Result<AnimationTexture> allocateTexture(uint32_t joints, uint64_t total_frames,
                                         const BakeOptions& options, const std::string& source) {
  AnimationTexture texture;
  texture.format = options.format;
  texture.joint_count = joints;
  const AnimationTextureLayout layout =
      chooseAnimationTextureLayout(joints, total_frames, options.max_width);
  if (layout.height > kMaxAnimationTextureSize) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: {} frames need a texture {} rows high, more than the limit of "
                              "{} (lower the frame rate or bake fewer clips)",
                              source, total_frames, layout.height, kMaxAnimationTextureSize));
  }
  texture.frame_count = static_cast<uint32_t>(total_frames);
  texture.frames_per_row = layout.frames_per_row;
  texture.width = layout.width;
  texture.height = static_cast<uint32_t>(layout.height);
  const size_t channels = static_cast<size_t>(texture.width) * texture.height * 4;
  if (options.format == TexelFormat::kRgba32F) {
    texture.texels32.assign(channels, 0.0f);
  } else {
    texture.texels16.assign(channels, 0);
  }
  return texture;
}

// Bakes frames into the texture on a pool of threads, each frame measured into its FrameResult.
class FrameBaker {
 public:
  FrameBaker(const Character& character, const BakeOptions& options,
             const std::vector<ClipPlan>& plans, AnimationTexture& texture,
             std::vector<FrameResult>& results)
      : character_(character),
        options_(options),
        plans_(plans),
        texture_(texture),
        results_(results),
        clip_of_frame_(results.size()) {
    for (uint32_t c = 0; c < plans.size(); ++c) {
      const BakedClip& b = plans[c].baked;
      std::fill_n(clip_of_frame_.begin() + b.first_frame, b.frame_count, c);
    }
  }

  // Bakes every frame; returns the number of threads used.
  int run() {
    const uint64_t total_frames = results_.size();
    int threads = options_.threads > 0 ? options_.threads
                                       : static_cast<int>(std::thread::hardware_concurrency());
    threads = std::clamp(threads, 1, kMaxBakeThreads);
    threads = static_cast<int>(std::min<uint64_t>(threads, total_frames));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back([this] { work(); });
    work();
    for (std::thread& t : pool) t.join();
    return threads;
  }

 private:
  void work() {
    const uint32_t joints = texture_.joint_count;
    Worker w;
    w.resize(joints, character_.mesh.vertexCount());
    for (;;) {
      const uint32_t f = next_frame_.fetch_add(1);
      if (f >= results_.size()) break;
      bakeFrame(w, f);
      if (options_.progress) {
        // Counted under the lock, so that `done` rises by one per call.
        std::lock_guard<std::mutex> lock(progress_mutex_);
        options_.progress(++done_, static_cast<uint32_t>(results_.size()));
      }
    }
  }

  // Stores frame f and measures it: the stored palette against the exact one, skinned.
  void bakeFrame(Worker& w, uint32_t f) {
    const Skeleton& skeleton = character_.skeleton;
    const SkinnedMesh& mesh = character_.mesh;
    const uint32_t joints = texture_.joint_count;
    const ClipPlan& plan = plans_[clip_of_frame_[f]];
    const Clip& clip = *plan.clip;
    const BakedClip& b = plan.baked;
    const uint32_t i = f - b.first_frame;
    FrameResult& out = results_[f];

    evaluatePalette(skeleton, &clip, bakedFrameTime(clip, b, i), w.scratch, w.reference);
    if (plan.motion_joint >= 0) out.root = glm::vec3(w.scratch.models[plan.motion_joint][3]);
    // Overflow is caught here, where the clip and frame are known, not by the package check.
    for (uint32_t j = 0; j < joints && out.non_finite_joint < 0; ++j) {
      const JointRows& rows = w.reference[j];
      if (!isFinite(rows.rows[0]) || !isFinite(rows.rows[1]) || !isFinite(rows.rows[2])) {
        out.non_finite_joint = static_cast<int>(j);
      }
    }
    if (out.non_finite_joint < 0 && !isFinite(out.root)) out.non_finite_joint = plan.motion_joint;
    for (uint32_t j = 0; j < joints; ++j) {
      storeJointRows(texture_, f, j, w.reference[j]);
      w.stored[j] = loadJointRows(texture_, f, j);
      out.representable = out.representable && isFinite(w.stored[j].rows[0]) &&
                          isFinite(w.stored[j].rows[1]) && isFinite(w.stored[j].rows[2]);
    }
    const std::span<const glm::vec3> morphed =
        morphedPositions(mesh, &clip, bakedFrameTime(clip, b, i), w.morph_weights, w.morphed);
    skin(mesh, morphed, w.reference, w.ref_positions);
    skin(mesh, morphed, w.stored, w.stored_positions);
    out.error = maxDistance(w.ref_positions, w.stored_positions);
    Bounds a = computeBounds(w.stored_positions), r = computeBounds(w.ref_positions);
    out.bounds = {glm::min(a.min, r.min), glm::max(a.max, r.max)};
    out.finite_positions = isFinite(r.min) && isFinite(r.max) && std::isfinite(r.largestExtent());
    out.interpolation_error = interpolationError(w, plan, i);
  }

  // Mid-frame: the runtime blends the stored frames i and i+1 (frame 0 after a looping clip's
  // last); compared with the clip sampled halfway between their times. 0 without a next frame.
  // Expects w.stored to hold frame i as stored.
  float interpolationError(Worker& w, const ClipPlan& plan, uint32_t i) const {
    const Skeleton& skeleton = character_.skeleton;
    const SkinnedMesh& mesh = character_.mesh;
    const Clip& clip = *plan.clip;
    const BakedClip& b = plan.baked;
    const bool has_next = b.loop ? b.duration > 0.0f : i + 1 < b.frame_count;
    if (!has_next) return 0.0f;
    const uint32_t n = i + 1 == b.frame_count ? 0 : i + 1;  // only loops wrap
    const float t0 = bakedFrameTime(clip, b, i);
    const float t1 = n == 0 ? clip.end_time : bakedFrameTime(clip, b, n);
    // The played next frame is the stored one: frame 0 itself after a wrap.
    evaluatePalette(skeleton, &clip, bakedFrameTime(clip, b, n), w.scratch, w.next);
    evaluatePalette(skeleton, &clip, 0.5f * (t0 + t1), w.scratch, w.middle);
    for (uint32_t j = 0; j < texture_.joint_count; ++j)
      w.blended[j] = mixRows(w.stored[j], quantize(w.next[j], options_.format), 0.5f);
    // Both at the mid-frame's morph: this measures the palette's interpolation only.
    const std::span<const glm::vec3> morphed =
        morphedPositions(mesh, &clip, 0.5f * (t0 + t1), w.morph_weights, w.morphed);
    skin(mesh, morphed, w.middle, w.mid_positions);
    skin(mesh, morphed, w.blended, w.blend_positions);
    return maxDistance(w.mid_positions, w.blend_positions);
  }

  const Character& character_;
  const BakeOptions& options_;
  const std::vector<ClipPlan>& plans_;
  AnimationTexture& texture_;
  std::vector<FrameResult>& results_;
  std::vector<uint32_t> clip_of_frame_;  // frame f of the texture -> its clip
  std::atomic<uint32_t> next_frame_{0};
  uint32_t done_ = 0;  // frames reported to options_.progress, under progress_mutex_
  std::mutex progress_mutex_;
};

// Gathers one clip's frames, in frame order (the same whatever the thread count): its bounds,
// root motion and errors into plan.baked and its report; returns the clip's first failure.
Status gatherClip(const Character& character, ClipPlan& plan,
                  const std::vector<FrameResult>& results, const std::string& source,
                  float root_tolerance, ClipBakeReport& cr) {
  BakedClip& b = plan.baked;
  cr.name = b.name;
  cr.frames = b.frame_count;
  cr.fps = b.fps;
  cr.duration = b.duration;
  cr.loop = b.loop;
  cr.loop_reason = plan.reason;
  cr.end_mismatch = loopMismatch(character, *plan.clip);
  b.bounds = results[b.first_frame].bounds;
  const glm::vec3 root0 = results[b.first_frame].root;
  bool moves = false;
  Status failure;
  for (uint32_t i = 0; i < b.frame_count; ++i) {
    const FrameResult& fr = results[b.first_frame + i];
    if (fr.non_finite_joint >= 0 && failure.ok()) {
      failure = Status(ErrorCode::kInvalidData,
                       fmt::format("{}: clip '{}' frame {} ({} s): joint '{}' gets a non-finite "
                                   "transform (the clip's keys or the rest pose overflow the "
                                   "float range)",
                                   source, excerpt(b.name), i, bakedFrameTime(*plan.clip, b, i),
                                   excerpt(character.skeleton.names()[fr.non_finite_joint])));
    }
    if (!fr.finite_positions && failure.ok()) {
      failure = Status(ErrorCode::kInvalidData,
                       fmt::format("{}: clip '{}' frame {} ({} s): skinned vertices leave the "
                                   "float range (the pose moves or scales the mesh too far)",
                                   source, excerpt(b.name), i, bakedFrameTime(*plan.clip, b, i)));
    }
    if (!fr.representable && failure.ok()) {
      failure = Status(ErrorCode::kLimitExceeded,
                       fmt::format("{}: clip '{}' frame {}: a palette value is outside the "
                                   "half-float range (+-{}); bake with rgba32f",
                                   source, b.name, i, kMaxHalf));
    }
    cr.max_error = std::max(cr.max_error, fr.error);
    cr.interpolation_error = std::max(cr.interpolation_error, fr.interpolation_error);
    b.bounds.min = glm::min(b.bounds.min, fr.bounds.min);
    b.bounds.max = glm::max(b.bounds.max, fr.bounds.max);
    moves = moves || glm::distance(fr.root, root0) > root_tolerance;
  }
  if (moves) {
    b.root_motion.resize(b.frame_count);
    for (uint32_t i = 0; i < b.frame_count; ++i) {
      b.root_motion[i] = results[b.first_frame + i].root - root0;
    }
  }
  cr.root_motion = moves;
  return failure;
}

// The package's looks: the character's materials, variants and images with their mip chains.
Status addLooks(const Character& character, Package& package, BakeReport& rep) {
  package.materials = character.materials;
  package.variants = character.variants;
  Result<std::vector<PackageImage>> images =
      buildPackageImages(character.images, character.materials);
  if (!images.ok()) return images.status();
  package.images = std::move(images).value();
  rep.materials = package.materials.size();
  rep.images = package.images.size();
  for (const PackageImage& image : package.images) {
    for (const auto* chain : {&image.mips, &image.pot_mips}) {
      for (const ImageLevel& level : *chain) rep.image_bytes += level.rgba.size();
    }
  }
  return {};
}

}  // namespace

Result<Package> bakeCharacter(const Character& character, const BakeOptions& options,
                              BakeReport* report) {
  const auto start = std::chrono::steady_clock::now();
  if (Status s = checkOptions(options); !s.ok()) return s;
  const std::string source = options.source.empty() ? "character" : options.source;
  if (Status s = checkBakeable(character, source); !s.ok()) return s;
  const uint32_t joints = static_cast<uint32_t>(character.skeleton.jointCount());
  uint64_t total_frames = 0;
  Result<std::vector<ClipPlan>> plans = planClips(character, options, source, total_frames);
  if (!plans.ok()) return plans.status();
  Result<AnimationTexture> texture = allocateTexture(joints, total_frames, options, source);
  if (!texture.ok()) return texture.status();
  std::vector<FrameResult> results(total_frames);
  const int threads = FrameBaker(character, options, *plans, *texture, results).run();

  BakeReport local;
  BakeReport& rep = report != nullptr ? *report : local;
  rep = BakeReport{};
  rep.character_size = character.size();
  rep.format = options.format;
  rep.width = texture->width;
  rep.height = texture->height;
  rep.frames = texture->frame_count;
  rep.texel_bytes = static_cast<size_t>(texture->width) * texture->height * 4 *
                    (options.format == TexelFormat::kRgba32F ? 4 : 2);
  rep.threads = threads;
  Package package;
  package.source = options.source;
  package.skeleton = character.skeleton;
  package.attachments = character.attachments;
  package.masks = character.masks;
  package.lods.push_back(MeshLod{character.mesh, {}, 0.0f, 0.0f, 0.0f});
  Status failure;
  const float root_tolerance = kRootMotionTolerance * rep.character_size;
  for (ClipPlan& plan : *plans) {
    ClipBakeReport cr;
    Status clip_failure = gatherClip(character, plan, results, source, root_tolerance, cr);
    if (failure.ok() && !clip_failure.ok()) failure = std::move(clip_failure);
    rep.max_error = std::max(rep.max_error, cr.max_error);
    rep.interpolation_error = std::max(rep.interpolation_error, cr.interpolation_error);
    rep.clips.push_back(cr);
    package.clips.push_back(std::move(plan.baked));
  }
  package.animation = std::move(texture).value();
  if (Status s = addLooks(character, package, rep); !s.ok()) return s;
  if (Status s = bakeMorphAnimation(character, package, options.max_width, &rep.morph); !s.ok()) {
    return s;
  }
  if (rep.character_size > 0.0f) {
    rep.max_error_fraction = rep.max_error / rep.character_size;
    rep.interpolation_error_fraction = rep.interpolation_error / rep.character_size;
  }
  if (rep.height > options.max_width) {
    rep.warnings.push_back(makeWarning(
        WarningKind::kTextureTallerThanWide,
        fmt::format("the texture is {} rows high, more than its maximum width {}: devices whose "
                    "GL_MAX_TEXTURE_SIZE is below {} cannot load it",
                    rep.height, options.max_width, rep.height),
        fmt::format("{} x {} texels", rep.width, rep.height)));
    rep.warnings.back()
        .with("height", rep.height)
        .with("width", rep.width)
        .with("max_width", options.max_width);
  }
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!failure.ok()) return failure;
  if (options.max_error >= 0.0f && rep.max_error > options.max_error) {
    return Status(
        ErrorCode::kLimitExceeded,
        fmt::format("{}: baked error {:.6g} model units ({:.3g}% of the character's "
                    "size) exceeds the allowed error of {:.6g}",
                    source, rep.max_error, 100.0f * rep.max_error_fraction, options.max_error));
  }
  // Valid by construction; renderers trust it without checking again.
  assert(validatePackage(package, source).ok());
  return package;
}

}  // namespace throng
