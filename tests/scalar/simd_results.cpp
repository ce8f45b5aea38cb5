// The results of every hot loop that has a SIMD and a scalar form (core/simd.h: the fast pose
// chain, joint encoding, baked palettes, culling), on fixed inputs built in code, printed one value
// a line as hexadecimal floats:
//   throng_simd_results                 print them
//   throng_simd_results --compare FILE  compare them with FILE (another build's print) and fail
//                                       on a difference past kTolerance
// CI prints them from the SSE2 build and compares in the THRONG_NO_SIMD build (what WebAssembly
// compiles): simd.h promises the same IEEE results lane by lane.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "throng/core/animation_texture.h"
#include "throng/core/clip.h"
#include "throng/core/joint_encoding.h"
#include "throng/core/pose.h"
#include "throng/core/simd.h"
#include "throng/core/skeleton.h"
#include "throng/crowd/batch_palette.h"
#include "throng/crowd/culling.h"

namespace throng {
namespace {

// Largest difference allowed between the two builds, relative to max(1, |value|): none. The SIMD
// and scalar forms run the same IEEE operations in the same order (simd.h), and the AVX clones
// use no FMA; a difference is a broken scalar path, not rounding.
constexpr double kTolerance = 0.0;
// The rig: enough joints for several 4-lane blocks and a partial last block.
constexpr int kJoints = 29;
constexpr int kKeys = 9;
constexpr int kSamples = 40;

struct Output {
  std::vector<std::pair<std::string, float>> values;
  void add(const std::string& name, float v) { values.emplace_back(name, v); }
  void add(const std::string& name, const JointRows& m) {
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) add(name + "." + std::to_string(r * 4 + c), m.rows[r][c]);
  }
};

glm::quat randomQuat(std::mt19937& rng, float max_angle) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const glm::vec3 axis =
      glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0.0f, 0.01f, 0.0f));
  return glm::angleAxis(max_angle * u(rng), axis);
}

Skeleton makeSkeleton(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  RawSkeleton raw;
  for (int j = 0; j < kJoints; ++j) {
    RawJoint joint;
    joint.name = "j" + std::to_string(j);
    if (j > 0) joint.parent = "j" + std::to_string((j - 1) / 2);  // a binary tree
    joint.rest.translation = glm::vec3(u(rng), 0.5f + 0.5f * u(rng), u(rng)) * 0.3f;
    joint.rest.rotation = randomQuat(rng, 1.0f);
    joint.rest.scale = glm::vec3(1.0f + 0.1f * u(rng));
    raw.joints.push_back(joint);
  }
  Skeleton skeleton = buildSkeleton(raw, "simd results").value();
  // Inverse binds of the rest pose (what an exporter writes).
  RawSkeleton bound = toRaw(skeleton);
  PoseScratch scratch;
  evaluateModels(skeleton, nullptr, 0.0f, glm::mat4(1.0f), scratch);
  for (int j = 0; j < kJoints; ++j) bound.joints[j].inverse_bind = glm::inverse(scratch.models[j]);
  return buildSkeleton(bound, "simd results").value();
}

// Every interpolation, rotations turning both less and more than 90 degrees between keys.
Clip makeClip(const Skeleton& skeleton, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Clip clip;
  clip.name = "mixed";
  clip.joints.resize(skeleton.jointCount());
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    JointTracks& t = clip.joints[j];
    const Interpolation kinds[] = {Interpolation::kLinear, Interpolation::kStep,
                                   Interpolation::kCubicSpline};
    const Interpolation kind = kinds[j % 3];
    const int per_key = kind == Interpolation::kCubicSpline ? 3 : 1;
    t.rotation.interpolation = t.translation.interpolation = kind;
    t.scale.interpolation = Interpolation::kLinear;
    for (int k = 0; k < kKeys; ++k) {
      const float time = 0.25f * static_cast<float>(k) + (j % 2 == 0 ? 0.0f : 0.05f);
      t.rotation.times.push_back(time);
      t.translation.times.push_back(time);
      for (int v = 0; v < per_key; ++v) {
        t.rotation.values.push_back(glm::normalize(skeleton.restPoses()[j].rotation *
                                                   randomQuat(rng, j % 4 == 0 ? 2.5f : 0.6f)));
        t.translation.values.push_back(skeleton.restPoses()[j].translation +
                                       0.05f * glm::vec3(u(rng), u(rng), u(rng)));
      }
      if (j % 5 == 0) {
        t.scale.times.push_back(time);
        t.scale.values.push_back(glm::vec3(1.0f + 0.2f * u(rng)));
      }
    }
  }
  updateClipRange(clip);
  if (Status s = validateClip(clip, skeleton.jointCount(), "simd results"); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.toString().c_str());
    std::exit(1);
  }
  return clip;
}

Output compute() {
  std::mt19937 rng(27);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Output out;
  const Skeleton skeleton = makeSkeleton(rng);
  const Clip clip = makeClip(skeleton, rng);
  const SoaSkeleton soa(skeleton);
  const PackedClip packed = packClip(clip, skeleton.restPoses());
  SamplingContext context;
  PoseScratch scratch;
  scratch.resize(skeleton.jointCount());
  std::vector<JointRows> palette(skeleton.jointCount());
  std::vector<JointRows> frames;  // every sample's palette, for the baked texture below

  // The fast chain: sampling forwards, then backwards (the key cursors' two searches).
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < kSamples; ++i) {
      const int s = pass == 0 ? i : kSamples - 1 - i;
      const float time = clip.start_time + clip.duration() * static_cast<float>(s) / (kSamples - 1);
      evaluatePalette(soa, &packed, time, context, scratch, palette);
      for (int j = 0; j < kJoints; ++j) {
        out.add(
            "palette." + std::to_string(pass) + "." + std::to_string(s) + "." + std::to_string(j),
            palette[j]);
        if (pass == 0) frames.push_back(palette[j]);
      }
    }
  }
  // Placed palettes of a joint subset (the merged path's tree source).
  const std::vector<uint16_t> subset = {0, 1, 2, 5, 6, 11, 12, 13, 20, 28};
  std::vector<JointRows> placed(subset.size());
  for (int i = 0; i < 8; ++i) {
    const Placement p{glm::vec3(10.0f * u(rng), 0.0f, 10.0f * u(rng)), 3.0f * u(rng),
                      1.0f + 0.5f * u(rng)};
    treePalette(soa, &packed, clip.start_time + 0.3f * static_cast<float>(i), context,
                placementMatrix(p), subset, scratch, placed);
    for (size_t s = 0; s < subset.size(); ++s)
      out.add("placed." + std::to_string(i) + "." + std::to_string(s), placed[s]);
  }
  // Joint encoding (2 vec4 per joint), with pivots.
  std::vector<glm::vec3> pivots(frames.size());
  for (glm::vec3& p : pivots) p = 0.2f * glm::vec3(u(rng), u(rng), u(rng));
  std::vector<QuatJoint> quats(frames.size());
  encodeQuatJoints(frames, pivots, quats);
  for (size_t i = 0; i < quats.size(); ++i) {
    for (int c = 0; c < 4; ++c) {
      out.add("quat." + std::to_string(i) + ".r" + std::to_string(c), quats[i].rotation[c]);
      out.add("quat." + std::to_string(i) + ".t" + std::to_string(c),
              quats[i].translation_scale[c]);
    }
  }
  // Baked palettes from both texel formats, blended within and across two clips' frames.
  for (TexelFormat format : {TexelFormat::kRgba32F, TexelFormat::kRgba16F}) {
    AnimationTexture texture;
    texture.format = format;
    texture.joint_count = kJoints;
    texture.frame_count = kSamples;
    const AnimationTextureLayout layout = chooseAnimationTextureLayout(kJoints, kSamples, 1024);
    texture.width = layout.width;
    texture.height = static_cast<uint32_t>(layout.height);
    texture.frames_per_row = layout.frames_per_row;
    const size_t channels = static_cast<size_t>(texture.width) * texture.height * 4;
    if (format == TexelFormat::kRgba32F) {
      texture.texels32.assign(channels, 0.0f);
    } else {
      texture.texels16.assign(channels, 0);
    }
    for (uint32_t f = 0; f < kSamples; ++f)
      for (uint32_t j = 0; j < kJoints; ++j) storeJointRows(texture, f, j, frames[f * kJoints + j]);
    std::vector<JointRows> baked(kJoints);
    for (int i = 0; i < 12; ++i) {
      InstanceFrames frame;
      frame.primary = {static_cast<uint32_t>(rng() % kSamples),
                       static_cast<uint32_t>(rng() % kSamples), 0.5f + 0.5f * u(rng)};
      frame.secondary = {static_cast<uint32_t>(rng() % kSamples),
                         static_cast<uint32_t>(rng() % kSamples), 0.5f + 0.5f * u(rng)};
      frame.fade = i % 3 == 0 ? 0.0f : 0.5f + 0.5f * u(rng);
      const Placement p{glm::vec3(5.0f * u(rng), 0.0f, 5.0f * u(rng)), 3.0f * u(rng), 1.0f};
      bakedPalette(texture, frame, placementMatrix(p), {}, baked);
      for (int j = 0; j < kJoints; ++j)
        out.add("baked." + std::to_string(static_cast<int>(format)) + "." + std::to_string(i) +
                    "." + std::to_string(j),
                baked[j]);
    }
  }
  // Culling: spheres against a frustum, as 0/1.
  const glm::mat4 view_projection =
      glm::perspective(0.9f, 1.5f, 0.1f, 80.0f) *
      glm::lookAt(glm::vec3(0.0f, 6.0f, 20.0f), glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f));
  const FrustumLanes lanes = frustumLanes(frustumFromViewProjection(view_projection));
  for (int i = 0; i < 2000; ++i) {
    const AxisSphere sphere{u(rng), 0.5f + 0.5f * u(rng)};
    const Placement p{glm::vec3(40.0f * u(rng), 2.0f * u(rng), 40.0f * u(rng)), 0.0f,
                      1.0f + 0.5f * u(rng)};
    out.add("cull." + std::to_string(i), axisSphereInFrustum(lanes, sphere, p) ? 1.0f : 0.0f);
  }
  return out;
}

int print(const Output& out) {
  std::printf("# throng_simd_results: %s\n",
#ifdef THRONG_SIMD_SSE2
              "SSE2"
#else
              "scalar"
#endif
  );
  for (const auto& [name, v] : out.values)
    std::printf("%s %a\n", name.c_str(), static_cast<double>(v));
  return 0;
}

int compare(const Output& out, const char* path) {
  std::ifstream in(path);
  std::map<std::string, double> theirs;
  std::string header;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("#")) {
      header = line;
      continue;
    }
    const size_t space = line.find(' ');
    if (space != std::string::npos)
      theirs[line.substr(0, space)] = std::strtod(line.c_str() + space + 1, nullptr);
  }
  if (theirs.size() != out.values.size()) {
    std::fprintf(stderr, "throng_simd_results: %s holds %zu values, this build makes %zu\n", path,
                 theirs.size(), out.values.size());
    return 1;
  }
  double worst = 0.0;
  std::string worst_name;
  size_t differing = 0;
  for (const auto& [name, v] : out.values) {
    const auto it = theirs.find(name);
    if (it == theirs.end()) {
      std::fprintf(stderr, "throng_simd_results: %s lacks %s\n", path, name.c_str());
      return 1;
    }
    const double d =
        std::abs(static_cast<double>(v) - it->second) / std::max(1.0, std::abs(it->second));
    differing += d > 0.0;
    if (d > worst || std::isnan(d)) {
      worst = std::isnan(d) ? INFINITY : d;
      worst_name = name;
    }
  }
  std::printf(
      "throng_simd_results: %zu values against %s (%s): %zu differ, largest relative "
      "difference %.3g%s%s (allowed %.3g)\n",
      out.values.size(), path, header.c_str(), differing, worst, worst_name.empty() ? "" : " at ",
      worst_name.c_str(), kTolerance);
  return worst <= kTolerance ? 0 : 1;
}

}  // namespace
}  // namespace throng

int main(int argc, char** argv) {
  const throng::Output out = throng::compute();
  if (argc == 3 && std::strcmp(argv[1], "--compare") == 0) return throng::compare(out, argv[2]);
  if (argc != 1) {
    std::fprintf(stderr, "usage: throng_simd_results [--compare FILE]\n");
    return 2;
  }
  return throng::print(out);
}
