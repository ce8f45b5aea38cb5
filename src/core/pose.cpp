// Pose jobs: the reference chain (sampling, local-to-model, palette over Transform / glm::mat4)
// and the fast chain (packed clips with key cursors, SoA blocks, SIMD) that must agree with it.
#include "throng/core/pose.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "throng/core/simd.h"

namespace throng {

bool SampleClipJob::validate() const {
  return clip != nullptr && clip->joints.size() == rest.size() && output.size() == rest.size();
}

bool SampleClipJob::run() const {
  if (!validate()) return false;
  for (size_t j = 0; j < output.size(); ++j) {
    const JointTracks& tracks = clip->joints[j];
    Transform t = rest[j];
    if (!tracks.translation.empty()) t.translation = sampleTrack(tracks.translation, time);
    if (!tracks.rotation.empty()) t.rotation = sampleTrack(tracks.rotation, time);
    if (!tracks.scale.empty()) t.scale = sampleTrack(tracks.scale, time);
    output[j] = t;
  }
  return true;
}

bool LocalToModelJob::validate() const {
  if (parents.size() != locals.size() || models.size() != locals.size()) return false;
  for (size_t j = 0; j < parents.size(); ++j) {
    if (parents[j] >= static_cast<int>(j)) return false;  // parents must come first
  }
  return true;
}

bool LocalToModelJob::run() const {
  if (!validate()) return false;
  for (size_t j = 0; j < locals.size(); ++j) {
    const int parent = parents[j];
    models[j] = (parent == kNoParent ? root : models[parent]) * toMatrix(locals[j]);
  }
  return true;
}

bool PaletteJob::validate() const {
  return inverse_binds.size() == models.size() && palette.size() == models.size();
}

bool PaletteJob::run() const {
  if (!validate()) return false;
  for (size_t j = 0; j < models.size(); ++j) palette[j] = packRows(models[j] * inverse_binds[j]);
  return true;
}

SoaSkeleton::SoaSkeleton(const Skeleton& skeleton)
    : parents_(skeleton.parents().begin(), skeleton.parents().end()) {
  const int joints = skeleton.jointCount();
  rest_.resize(static_cast<size_t>((joints + kSoaWidth - 1) / kSoaWidth));
  for (int j = 0; j < static_cast<int>(rest_.size()) * kSoaWidth; ++j) {
    soaSet(rest_.data(), j, j < joints ? skeleton.restPoses()[j] : Transform{});
  }
  inverse_bind_rows_.reserve(static_cast<size_t>(joints) * 4);
  for (const glm::mat4& m : skeleton.inverseBinds()) {
    for (int r = 0; r < 4; ++r) inverse_bind_rows_.emplace_back(m[0][r], m[1][r], m[2][r], m[3][r]);
  }
}

namespace {

using simd::F4;

// A joint's key search walks this many intervals from its cursor before it switches to a binary
// search: playback moves one interval per frame or so, seeks move far.
constexpr int kLinearSteps = 4;

// Key interval [k, k1] of a timeline holding `time`, the fraction u in it and its length dt:
// the very same k, u and dt as sampleTrack's std::upper_bound (k1 == k and u == 0 at and past
// the ends, where sampleTrack returns the end key).
struct TimelineSpan {
  uint32_t k;
  uint32_t k1;
  float u;
  float dt;
};

TimelineSpan locate(const float* times, uint32_t n, float time, uint32_t& cursor) {
  if (!(time > times[0])) {  // also NaN
    cursor = 0;
    return {0, std::min(1u, n - 1), 0.0f, 0.0f};
  }
  if (time >= times[n - 1]) {
    cursor = n - 1;
    return {n - 1, n - 1, 0.0f, 0.0f};
  }
  // n >= 2 and times[0] < time < times[n - 1]: find times[k] <= time < times[k + 1].
  uint32_t k = std::min(cursor, n - 2);
  int steps = 0;
  if (times[k] <= time) {
    while (!(time < times[k + 1])) {
      if (++steps > kLinearSteps) {
        k = static_cast<uint32_t>(std::upper_bound(times + k + 1, times + n, time) - times) - 1;
        break;
      }
      ++k;
    }
  } else {
    while (times[k] > time) {
      if (++steps > kLinearSteps) {
        k = static_cast<uint32_t>(std::upper_bound(times, times + k, time) - times) - 1;
        break;
      }
      --k;
    }
  }
  cursor = k;
  const float dt = times[k + 1] - times[k];
  return {k, k + 1, (time - times[k]) / dt, dt};
}

// Writes the lanes of `value` selected by `lanes` to dst (all four when lanes is 0xf).
inline void storeLanes(float* dst, F4 value, uint32_t lanes, F4 mask) {
  simd::store(dst, lanes == 0xfu ? value : simd::select(mask, value, simd::load(dst)));
}

float* channelOf(SoaTransform& t, PackedClip::Channel channel) {
  switch (channel) {
    case PackedClip::Channel::kTranslation:
      return &t.translation[0][0];
    case PackedClip::Channel::kRotation:
      return &t.rotation[0][0];
    case PackedClip::Channel::kScale:
      return &t.scale[0][0];
  }
  return &t.translation[0][0];
}

// glm::normalize(quat) lane by lane: the same dot product order, 1 / sqrt, and identity for a
// zero quaternion.
inline void normalizeQuat(F4 q[4]) {
  const F4 len2 = (q[3] * q[3] + q[0] * q[0]) + (q[1] * q[1] + q[2] * q[2]);
  const F4 positive = simd::greater(len2, simd::zero());
  const F4 inv = simd::splat(1.0f) / simd::sqrt(len2);
  for (int c = 0; c < 4; ++c) {
    q[c] = simd::select(positive, q[c] * inv, simd::splat(c == 3 ? 1.0f : 0.0f));
  }
}

// sin(t A) / sin(A) as Eberly's series in y = 1 - cos(A) ("A Fast and Accurate Algorithm for
// Computing SLERP", JGT 2011): f = sum_i term_i with term_0 = t and term_i = term_{i-1} *
// (i^2 - t^2) / (i (2i + 1)) * y, the last term scaled by (1 + mu_n) to balance the truncation
// error. Used for quaternions at most kWideAngle apart (a 90 degree turn between two keys), where
// 7 terms are within 1.1e-7 of the true ratio; wider pairs (rare at exporters' key rates) take
// sampleTrack's acos/sin.
constexpr int kSlerpTerms = 7;
constexpr double kSlerpOnePlusMu = 1.88998444919711206;
constexpr float kWideCos = 0.70710677f;  // cos(pi / 4)

// The series as a polynomial in y for one t: f(t, y) = sum_i C_i y^i with C_0 = t and
// C_i = C_{i-1} (i^2 - t^2) / (i (2i + 1)), the last with (1 + mu). Evaluated by Horner's rule,
// one multiply and one add per term and lane; the C_i are the same for every lane of a group.
struct SlerpPolynomial {
  F4 c[kSlerpTerms + 1];
};
SlerpPolynomial slerpPolynomial(float t) {
  SlerpPolynomial p;
  double coefficient = t;
  p.c[0] = simd::splat(t);
  for (int i = 1; i <= kSlerpTerms; ++i) {
    const double scale = i == kSlerpTerms ? kSlerpOnePlusMu : 1.0;
    coefficient *= scale * (i * i - static_cast<double>(t) * t) / (i * (2.0 * i + 1.0));
    p.c[i] = simd::splat(static_cast<float>(coefficient));
  }
  return p;
}
inline F4 slerpRatio(const SlerpPolynomial& p, F4 y) {
  F4 sum = p.c[kSlerpTerms];
  for (int i = kSlerpTerms - 1; i >= 0; --i) sum = sum * y + p.c[i];
  return sum;
}

// sampleTrack's slerp weights, lane by lane, for the lanes set in `lanes`.
void exactSlerpWeights(F4 cosine, float u, uint32_t lanes, F4& f0, F4& f1) {
  alignas(16) float d[4], w0[4], w1[4];
  simd::store(d, cosine);
  simd::store(w0, f0);
  simd::store(w1, f1);
  for (int l = 0; l < 4; ++l) {
    if (!(lanes & (1u << l))) continue;
    const float theta = std::acos(std::min(d[l], 1.0f));
    const float s = std::sin(theta);
    w0[l] = std::sin((1.0f - u) * theta) / s;
    w1[l] = std::sin(u * theta) / s;
  }
  f0 = simd::load(w0);
  f1 = simd::load(w1);
}

// One group of a packed clip at one key span: every block interpolated and stored.
template <int kComponents>
THRONG_HOT_LOOP void sampleGroup(const PackedClip& clip, const PackedClip::Group& g,
                                 const TimelineSpan& s, std::span<SoaTransform> output) {
  const float* values = clip.values().data() + g.first_value;
  const float* key_a = values + size_t{s.k} * g.block_count * g.stride;
  const float* key_b = values + size_t{s.k1} * g.block_count * g.stride;
  const PackedClip::Block* blocks = clip.blocks().data() + g.first_block;
  const F4 u = simd::splat(s.u);
  const bool rotation = g.channel == PackedClip::Channel::kRotation;
  // Per-group constants of the interpolation.
  SlerpPolynomial w0{}, w1{};
  F4 h00 = simd::zero(), h10 = h00, h01 = h00, h11 = h00;
  if (g.interpolation == Interpolation::kLinear && rotation) {
    w0 = slerpPolynomial(1.0f - s.u);
    w1 = slerpPolynomial(s.u);
  } else if (g.interpolation == Interpolation::kCubicSpline) {
    // The Hermite basis exactly as sampleTrack's, tangents scaled by the interval length.
    const float u1 = s.u, u2 = u1 * u1, u3 = u2 * u1;
    h00 = simd::splat(2 * u3 - 3 * u2 + 1);
    h10 = simd::splat(u3 - 2 * u2 + u1);
    h01 = simd::splat(-2 * u3 + 3 * u2);
    h11 = simd::splat(u3 - u2);
  }
  const F4 dt = simd::splat(s.dt);
  for (uint32_t b = 0; b < g.block_count; ++b) {
    const float* a = key_a + b * g.stride;
    const float* c = key_b + b * g.stride;
    F4 out[kComponents];
    for (F4& o : out) o = simd::zero();  // every case below sets them; the compiler cannot tell
    switch (g.interpolation) {
      case Interpolation::kStep:
        for (int i = 0; i < kComponents; ++i) out[i] = simd::load(a + i * kSoaWidth);
        break;
      case Interpolation::kLinear:
        if constexpr (kComponents == 4) {
          F4 qa[4], qb[4];
          for (int i = 0; i < 4; ++i) {
            qa[i] = simd::load(a + i * kSoaWidth);
            qb[i] = simd::load(c + i * kSoaWidth);
          }
          // Shortest path: flip b where the keys are more than a half turn apart.
          F4 d = (qa[3] * qb[3] + qa[0] * qb[0]) + (qa[1] * qb[1] + qa[2] * qb[2]);
          const F4 sign = simd::signBits(d);
          for (F4& q : qb) q = simd::flipSign(q, sign);
          d = simd::flipSign(d, sign);
          // y = 1 - cos(A) in [0, 1] (rounding can push cos above 1).
          F4 y = simd::splat(1.0f) - d;
          y = simd::select(simd::greater(y, simd::zero()), y, simd::zero());
          F4 f0 = slerpRatio(w0, y);
          F4 f1 = slerpRatio(w1, y);
          const uint32_t wide = simd::laneBits(simd::greater(simd::splat(kWideCos), d));
          if (wide != 0) exactSlerpWeights(d, s.u, wide, f0, f1);
          for (int i = 0; i < 4; ++i) out[i] = qa[i] * f0 + qb[i] * f1;
        } else {
          for (int i = 0; i < kComponents; ++i) {
            const F4 va = simd::load(a + i * kSoaWidth);
            out[i] = va + (simd::load(c + i * kSoaWidth) - va) * u;
          }
        }
        break;
      case Interpolation::kCubicSpline:
        for (int i = 0; i < kComponents; ++i) {
          const F4 p0 = simd::load(a + (kComponents + i) * kSoaWidth);
          const F4 m0 = simd::load(a + (2 * kComponents + i) * kSoaWidth) * dt;
          const F4 p1 = simd::load(c + (kComponents + i) * kSoaWidth);
          const F4 m1 = simd::load(c + i * kSoaWidth) * dt;
          out[i] = p0 * h00 + m0 * h10 + p1 * h01 + m1 * h11;
        }
        break;
    }
    if constexpr (kComponents == 4) normalizeQuat(out);
    float* dst = channelOf(output[blocks[b].joint_block], g.channel);
    const uint32_t lanes = blocks[b].store_lanes;
    const F4 mask = simd::laneMask(lanes);
    for (int i = 0; i < kComponents; ++i) storeLanes(dst + i * kSoaWidth, out[i], lanes, mask);
  }
}

// Row r of P * L for affine P (its row r at p, in memory) and L given by rows: the sum over k of
// P[r][k] * L.row(k), with L.row(3) = (0, 0, 0, 1), in glm's order of operations, so the result
// equals glm::mat4 products to the bit. P's elements are broadcast straight from memory.
THRONG_INLINE F4 multiplyRow(const float* p, const F4 l[3], F4 e3) {
  return ((simd::splatFrom(p) * l[0] + simd::splatFrom(p + 1) * l[1]) +
          simd::splatFrom(p + 2) * l[2]) +
         simd::splatFrom(p + 3) * e3;
}

// rows(model * inverse_bind) with the inverse bind as 4 rows (it may be projective).
template <bool kStream>
THRONG_INLINE void skinRows(const JointRows& model, const glm::vec4* inverse_bind, JointRows& out) {
  F4 ib[4];
  for (int r = 0; r < 4; ++r) ib[r] = simd::load(&inverse_bind[r].x);
  for (int r = 0; r < 3; ++r) {
    const float* m = &model.rows[r].x;
    const F4 row = ((simd::splatFrom(m) * ib[0] + simd::splatFrom(m + 1) * ib[1]) +
                    simd::splatFrom(m + 2) * ib[2]) +
                   simd::splatFrom(m + 3) * ib[3];
    if constexpr (kStream) {
      simd::stream(&out.rows[r].x, row);
    } else {
      simd::store(&out.rows[r].x, row);
    }
  }
}

// The local matrices of one SoA block as rows: local[l][r] is row r of lane l's toMatrix().
THRONG_INLINE void localRows(const SoaTransform& t, F4 local[kSoaWidth][3]) {
  const F4 qx = simd::load(t.rotation[0]), qy = simd::load(t.rotation[1]);
  const F4 qz = simd::load(t.rotation[2]), qw = simd::load(t.rotation[3]);
  const F4 sx = simd::load(t.scale[0]), sy = simd::load(t.scale[1]), sz = simd::load(t.scale[2]);
  // glm::mat3_cast's products and sums, in its order.
  const F4 xx = qx * qx, yy = qy * qy, zz = qz * qz;
  const F4 xz = qx * qz, xy = qx * qy, yz = qy * qz;
  const F4 wx = qw * qx, wy = qw * qy, wz = qw * qz;
  const F4 one = simd::splat(1.0f), two = simd::splat(2.0f);
  F4 rows[3][4] = {
      {(one - two * (yy + zz)) * sx, two * (xy - wz) * sy, two * (xz + wy) * sz,
       simd::load(t.translation[0])},
      {two * (xy + wz) * sx, (one - two * (xx + zz)) * sy, two * (yz - wx) * sz,
       simd::load(t.translation[1])},
      {two * (xz - wy) * sx, two * (yz + wx) * sy, (one - two * (xx + yy)) * sz,
       simd::load(t.translation[2])},
  };
  for (int r = 0; r < 3; ++r) {
    simd::transpose(rows[r][0], rows[r][1], rows[r][2], rows[r][3]);
    for (int l = 0; l < kSoaWidth; ++l) local[l][r] = rows[r][l];
  }
}

}  // namespace

bool SamplePackedClipJob::validate() const {
  return clip != nullptr && context != nullptr &&
         output.size() == static_cast<size_t>(clip->blockCount());
}

bool SamplePackedClipJob::run() const {
  if (!validate()) return false;
  const std::span<uint32_t> cursors = context->cursorsFor(*clip);
  const std::span<const SoaTransform> rest = clip->rest();
  for (const PackedClip::RestBlock& r : clip->restBlocks()) {
    if (r.channels == 0x7u) {
      output[r.joint_block] = rest[r.joint_block];
      continue;
    }
    SoaTransform& o = output[r.joint_block];
    const SoaTransform& i = rest[r.joint_block];
    if (r.channels & 1u) std::memcpy(o.translation, i.translation, sizeof(o.translation));
    if (r.channels & 2u) std::memcpy(o.rotation, i.rotation, sizeof(o.rotation));
    if (r.channels & 4u) std::memcpy(o.scale, i.scale, sizeof(o.scale));
  }
  const float* times = clip->times().data();
  for (const PackedClip::Group& g : clip->groups()) {
    const PackedClip::Timeline& t = clip->timelines()[g.timeline];
    const TimelineSpan s = locate(times + t.first, t.count, time, cursors[g.timeline]);
    if (g.channel == PackedClip::Channel::kRotation) {
      sampleGroup<4>(*clip, g, s, output);
    } else {
      sampleGroup<3>(*clip, g, s, output);
    }
  }
  return true;
}

bool SoaPaletteJob::validate() const {
  if (skeleton == nullptr) return false;
  const size_t joints = static_cast<size_t>(skeleton->jointCount());
  if (locals.size() != static_cast<size_t>(skeleton->blockCount()) || models.size() != joints) {
    return false;
  }
  if (palette_joints.empty()) return palette.size() == joints;
  if (palette.size() != palette_joints.size()) return false;
  return std::all_of(palette_joints.begin(), palette_joints.end(),
                     [joints](uint16_t j) { return j < joints; });
}

namespace {

template <bool kStream>
THRONG_HOT_LOOP void soaPalette(const SoaPaletteJob& job) {
  const SoaSkeleton& skeleton = *job.skeleton;
  const int joints = skeleton.jointCount();
  const std::span<const int16_t> parents = skeleton.parents();
  const glm::vec4* inverse_binds = skeleton.inverseBindRows().data();
  const std::span<JointRows> models = job.models;
  const std::span<JointRows> palette = job.palette;
  const bool every_joint = job.palette_joints.empty();
  const JointRows root_rows = packRows(job.root);
  const F4 e3 = simd::set(0.0f, 0.0f, 0.0f, 1.0f);
  for (int b = 0; b < skeleton.blockCount(); ++b) {
    F4 local[kSoaWidth][3];
    localRows(job.locals[b], local);
    for (int l = 0; l < kSoaWidth; ++l) {
      const int j = b * kSoaWidth + l;
      if (j >= joints) break;
      const int parent = parents[j];
      const JointRows& p = parent == kNoParent ? root_rows : models[parent];
      F4 m[3];
      for (int r = 0; r < 3; ++r) m[r] = multiplyRow(&p.rows[r].x, local[l], e3);
      for (int r = 0; r < 3; ++r) simd::store(&models[j].rows[r].x, m[r]);
      if (every_joint) skinRows<kStream>(models[j], inverse_binds + 4 * j, palette[j]);
    }
  }
  if (!every_joint) {
    for (size_t s = 0; s < job.palette_joints.size(); ++s) {
      const uint16_t j = job.palette_joints[s];
      skinRows<kStream>(models[j], inverse_binds + 4 * j, palette[s]);
    }
  }
  if constexpr (kStream) simd::streamFence();
}

}  // namespace

bool SoaPaletteJob::run() const {
  if (!validate()) return false;
  const bool aligned = reinterpret_cast<uintptr_t>(palette.data()) % 16 == 0;
  if (store == PaletteStore::kStreaming && aligned) {
    soaPalette<true>(*this);
  } else {
    soaPalette<false>(*this);
  }
  return true;
}

void PoseScratch::resize(int joint_count) {
  locals.resize(joint_count);
  models.resize(joint_count);
  soa_locals.resize(static_cast<size_t>((joint_count + kSoaWidth - 1) / kSoaWidth));
  model_rows.resize(joint_count);
}

void evaluateModels(const Skeleton& skeleton, const Clip* clip, float time, const glm::mat4& root,
                    PoseScratch& scratch) {
  scratch.resize(skeleton.jointCount());
  if (clip != nullptr) {
    [[maybe_unused]] const bool sampled =
        SampleClipJob{clip, time, skeleton.restPoses(), scratch.locals}.run();
    assert(sampled);
  } else {
    std::copy(skeleton.restPoses().begin(), skeleton.restPoses().end(), scratch.locals.begin());
  }
  [[maybe_unused]] const bool modeled =
      LocalToModelJob{skeleton.parents(), scratch.locals, root, scratch.models}.run();
  assert(modeled);
}

void evaluatePalette(const Skeleton& skeleton, const Clip* clip, float time, PoseScratch& scratch,
                     std::span<JointRows> palette) {
  evaluateModels(skeleton, clip, time, glm::mat4(1.0f), scratch);
  [[maybe_unused]] const bool paletted =
      PaletteJob{scratch.models, skeleton.inverseBinds(), palette}.run();
  assert(paletted);
}

void evaluatePalette(const SoaSkeleton& skeleton, const PackedClip* clip, float time,
                     SamplingContext& context, const glm::mat4& root,
                     std::span<const uint16_t> palette_joints, PoseScratch& scratch,
                     std::span<JointRows> palette, PaletteStore store) {
  if (scratch.model_rows.size() != static_cast<size_t>(skeleton.jointCount())) {
    scratch.resize(skeleton.jointCount());
  }
  std::span<const SoaTransform> locals = skeleton.restPose();
  if (clip != nullptr) {
    assert(clip->jointCount() == skeleton.jointCount());
    [[maybe_unused]] const bool sampled =
        SamplePackedClipJob{clip, time, &context, scratch.soa_locals}.run();
    assert(sampled);
    locals = scratch.soa_locals;
  }
  [[maybe_unused]] const bool paletted =
      SoaPaletteJob{&skeleton, locals, root, scratch.model_rows, palette_joints, palette, store}
          .run();
  assert(paletted);
}

void evaluatePalette(const SoaSkeleton& skeleton, const PackedClip* clip, float time,
                     SamplingContext& context, PoseScratch& scratch, std::span<JointRows> palette,
                     PaletteStore store) {
  evaluatePalette(skeleton, clip, time, context, glm::mat4(1.0f), {}, scratch, palette, store);
}

}  // namespace throng
