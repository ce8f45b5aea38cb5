// Animation clips: per-joint translation/rotation/scale tracks with glTF interpolation semantics.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/math.h"
#include "throng/core/status.h"

namespace throng {

enum class Interpolation : uint8_t {
  kStep,         // hold the previous key
  kLinear,       // lerp; rotations use shortest-path slerp (glTF 2.0, appendix C)
  kCubicSpline,  // Hermite; each key stores (in-tangent, value, out-tangent)
};

// A keyframed track. `times` are seconds on the clip's own (file) timeline, strictly increasing.
// `values` holds one value per key, or three per key for kCubicSpline. An empty track means
// "not animated": the joint keeps its rest value.
template <typename T>
struct Track {
  Interpolation interpolation = Interpolation::kLinear;
  std::vector<float> times;
  std::vector<T> values;

  bool empty() const { return times.empty(); }
};
using Vec3Track = Track<glm::vec3>;
using QuatTrack = Track<glm::quat>;
using FloatTrack = Track<float>;  // a morph target's weight (glTF "weights" channels)

struct JointTracks {
  Vec3Track translation;
  QuatTrack rotation;
  Vec3Track scale;
};

// A named moment of a clip (a footstep, the hit of a swing): `time` is seconds from the clip's
// start, within [0, duration].
struct ClipEvent {
  std::string name;
  float time = 0.0f;
};

// A named animation; `joints` has one entry per skeleton joint, in skeleton order.
struct Clip {
  std::string name;
  float start_time = 0.0f;  // seconds: first key of any track (clips need not start at 0)
  float end_time = 0.0f;    // seconds: last key of any track
  std::vector<JointTracks> joints;
  // Morph target weights: empty (no weights channel), or one track per morph target of the
  // character's mesh (SkinnedMesh::morph_targets, same order); an empty track keeps the target's
  // default weight.
  std::vector<FloatTrack> weights;
  std::vector<ClipEvent> events;  // sorted by time (see validateClip)

  float duration() const { return end_time - start_time; }
};

// Value of a track at `time` (file timeline): clamped to the first/last key outside the keys.
// Rotations are normalised. Requires a non-empty, validated track.
glm::vec3 sampleTrack(const Vec3Track& track, float time);
glm::quat sampleTrack(const QuatTrack& track, float time);
float sampleTrack(const FloatTrack& track, float time);

// Maps seconds of playback (0 = clip start) to the clip's file timeline: wraps into
// [start, end) when looping, clamps to [start, end] otherwise. A zero-length clip maps to start.
float clipTime(const Clip& clip, float playback_seconds, bool loop);

// Checks sizes (one JointTracks per joint, key/value counts; weights tracks as joint tracks, their
// count against the mesh is validateCharacter's), strictly increasing finite times,
// finite values, that start/end cover the keys, and that events are named, sorted and within
// [0, duration]. Errors name `source`, the clip and the joint.
Status validateClip(const Clip& clip, int joint_count, std::string_view source);

// Checks clip events: non-empty names, finite times in [0, duration], sorted by time. Errors
// (kInvalidData) name `source`, the clip and the event.
Status validateClipEvents(std::span<const ClipEvent> events, float duration,
                          std::string_view source, std::string_view clip_name);
// Recomputes start_time/end_time from the keys (0/0 for a clip without keys).
void updateClipRange(Clip& clip);

struct PackOptions {
  // Tracks whose keys are all the same (bit for bit) become constants, sampled for free: exact
  // for translations, scales and STEP rotations; a LINEAR rotation gets the normalised key,
  // within 1e-7 of sampleTrack's nlerp between two equal keys. CUBICSPLINE tracks are kept.
  bool fold_constant_tracks = true;
};

// A clip repacked for the fast pose chain (SamplePackedClipJob in pose.h): built once, read-only,
// shareable between threads. Tracks of one channel (translation, rotation or scale) that share
// their key times (a "timeline") and interpolation form a group; a group stores its values as
// structure of arrays, kSoaWidth joints side by side in the lanes of their joint block, key after
// key, so that sampling one key interval reads two runs of memory and interpolates four joints at
// once. Exported clips key every channel at the same times, so a character's whole pose needs
// one key search (see SamplingContext). Channels without a track hold the rest value given to
// packClip, constant tracks (exporters key every channel, moving or not) their value. Keys are
// stored exactly (no quantisation).
class PackedClip {
 public:
  enum class Channel : uint8_t { kTranslation, kRotation, kScale };
  struct Timeline {
    uint32_t first = 0;  // into times()
    uint32_t count = 0;  // keys, >= 1
  };
  struct Group {
    uint32_t timeline = 0;
    Channel channel = Channel::kTranslation;
    Interpolation interpolation = Interpolation::kLinear;
    uint32_t first_block = 0;  // into blocks()
    uint32_t block_count = 0;
    // Key k of block b starts at values()[first_value + (k * block_count + b) * stride]: for each
    // slot (1, or in-tangent/value/out-tangent for kCubicSpline) its components (3, or 4 for
    // rotations, x y z w), each kSoaWidth lanes.
    uint32_t first_value = 0;
    uint32_t stride = 0;  // floats per key and block
  };
  struct Block {
    uint16_t joint_block = 0;  // joints joint_block * kSoaWidth + lane
    uint8_t track_lanes = 0;   // bit l: lane l has a track in this group
    uint8_t store_lanes = 0;   // track lanes plus padding lanes past the last joint (identity)
  };

  PackedClip() = default;

  const std::string& name() const { return name_; }
  int jointCount() const { return joint_count_; }
  int blockCount() const { return (joint_count_ + kSoaWidth - 1) / kSoaWidth; }
  float startTime() const { return start_time_; }
  float endTime() const { return end_time_; }
  int timelineCount() const { return static_cast<int>(timelines_.size()); }
  // Bytes of keys, times and tables.
  size_t byteSize() const;

  // The layout, for the sampling job.
  std::span<const float> times() const { return times_; }
  std::span<const Timeline> timelines() const { return timelines_; }
  std::span<const Group> groups() const { return groups_; }
  std::span<const Block> blocks() const { return blocks_; }
  std::span<const float> values() const { return values_; }
  // Every joint block's values where no group writes: the rest pose, or a folded constant track.
  // restBlocks() lists the blocks the sampler copies them from, with the channels to copy (bit c
  // for Channel c).
  struct RestBlock {
    uint16_t joint_block = 0;
    uint8_t channels = 0;
  };
  std::span<const SoaTransform> rest() const { return rest_; }
  std::span<const RestBlock> restBlocks() const { return rest_blocks_; }

 private:
  friend PackedClip packClip(const Clip& clip, std::span<const Transform> rest,
                             const PackOptions& options);
  std::string name_;
  int joint_count_ = 0;
  float start_time_ = 0.0f;
  float end_time_ = 0.0f;
  std::vector<float> times_;
  std::vector<Timeline> timelines_;
  std::vector<Group> groups_;
  std::vector<Block> blocks_;
  std::vector<float> values_;
  std::vector<SoaTransform> rest_;
  std::vector<RestBlock> rest_blocks_;
};

// Packs a clip that passed validateClip for a skeleton whose rest pose is `rest` (one transform
// per joint; clip.joints.size() == rest.size(), asserted). Allocates; call once per clip.
PackedClip packClip(const Clip& clip, std::span<const Transform> rest,
                    const PackOptions& options = {});

// One character's key cursors (ozz-animation's SamplingJob::Context): per timeline of the clip
// it last sampled, the key interval it found, so that the next sample (usually a little later)
// starts its search there and finds its keys in O(1); seeks backwards or far are searched in
// O(log keys). The cursors are hints only: results never depend on them. Not thread-safe: one per
// character (or per sampling thread). Switching clips resets them.
class SamplingContext {
 public:
  SamplingContext() = default;
  // Room for clips of up to `max_timelines` timelines, so that sampling never allocates (a copy
  // keeps the cursors, not the room).
  explicit SamplingContext(int max_timelines) { reserve(max_timelines); }
  void reserve(int max_timelines) { cursors_.reserve(static_cast<size_t>(max_timelines)); }
  // Forgets the cursors; the next sample searches from the start.
  void invalidate() { clip_ = nullptr; }
  // The cursors for `clip` (timelineCount() entries), zeroed when the context last sampled
  // another clip. Allocates only when clip has more timelines than reserved.
  std::span<uint32_t> cursorsFor(const PackedClip& clip);

 private:
  const PackedClip* clip_ = nullptr;
  std::vector<uint32_t> cursors_;
};

}  // namespace throng
