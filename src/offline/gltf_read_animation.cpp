// glTF animations -> Clips on a skeleton, given which joint (if any) each node drives.
#include "offline/gltf_read_animation.h"

#include <set>
#include <string>

#include <fmt/format.h>

#include "offline/gltf_key_times.h"
#include "offline/gltf_read_accessor.h"
#include "offline/gltf_read_morph.h"
#include "offline/gltf_read_skeleton.h"

namespace throng::gltf {
namespace {

enum class Path { kTranslation, kRotation, kScale };

// Reads one sampler into a track: times never going backwards (repeats become steps: stepKeyTimes),
// values matching the key count.
template <typename T>
Status readTrack(Document& doc, const tinygltf::AnimationSampler& sampler, const std::string& what,
                 Path path, Track<T>& track) {
  if (Status s = readInterpolation(doc, sampler, what, track.interpolation); !s.ok()) return s;
  Result<std::vector<float>> times =
      readFloats(doc, {sampler.input, TINYGLTF_TYPE_SCALAR, {kFloatForm}, what + " input"});
  if (!times.ok()) return times.status();
  const bool rotation = path == Path::kRotation;
  std::vector<ComponentForm> forms =
      rotation ? std::vector<ComponentForm>{kFloatForm, kNormByteForm, kNormUByteForm,
                                            kNormShortForm, kNormUShortForm}
               : std::vector<ComponentForm>{kFloatForm};
  Result<std::vector<float>> values =
      readFloats(doc, {sampler.output, rotation ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_VEC3, forms,
                       what + " output"});
  if (!values.ok()) return values.status();
  const size_t per_key = track.interpolation == Interpolation::kCubicSpline ? 3 : 1;
  const size_t components = rotation ? 4 : 3;
  const size_t value_count = values->size() / components;
  if (value_count != times->size() * per_key) {
    return Status(ErrorCode::kInvalidData,
                  place(doc, fmt::format("{}: {} output values for {} keys (expected {})", what,
                                         value_count, times->size(), times->size() * per_key)));
  }
  track.times = std::move(times).value();
  track.values.resize(value_count);
  for (size_t i = 0; i < value_count; ++i) {
    const float* v = values->data() + i * components;
    if constexpr (std::is_same_v<T, glm::quat>) {
      // glTF stores (x, y, z, w); glm::quat takes (w, x, y, z).
      glm::quat q(v[3], v[0], v[1], v[2]);
      const bool tangent = per_key == 3 && i % 3 != 1;
      if (!tangent) {
        if (!(glm::length(q) > 1e-6f)) {
          return Status(
              ErrorCode::kInvalidData,
              place(doc, fmt::format("{}: key {} is a zero quaternion", what, i / per_key)));
        }
        q = glm::normalize(q);
      }
      track.values[i] = q;
    } else {
      track.values[i] = glm::vec3(v[0], v[1], v[2]);
    }
  }
  Result<KeyTimeSteps> steps = stepKeyTimes(track.times, track.values, per_key, what);
  if (!steps.ok()) return Status(steps.status().code(), place(doc, steps.status().message()));
  warnKeySteps(doc, what, *steps);
  return {};
}

// "Armature|Walk" -> "Walk" when "Armature" names a node of the file (Blender's export habit).
std::string clipName(const Document& doc, const tinygltf::Animation& animation, size_t index) {
  if (animation.name.empty()) return fmt::format("clip{}", index);
  const size_t bar = animation.name.find('|');
  if (bar != std::string::npos && bar + 1 < animation.name.size()) {
    const std::string prefix = animation.name.substr(0, bar);
    for (const tinygltf::Node& node : doc.model.nodes) {
      if (node.name == prefix) return animation.name.substr(bar + 1);
    }
  }
  return animation.name;
}

// What lines that group an animation's warnings show of it: its name, its index when unnamed.
std::string animationSubject(size_t a, const std::string& name) {
  return name.empty() ? fmt::format("animation {}", a) : "'" + name + "'";
}

// The warnings for animation `a`'s skipped channels: morph-target weights, unsupported targets.
void warnSkippedChannels(Document& doc, size_t a, const std::string& name, int weights_channels,
                         int other_channels) {
  const std::string subject = animationSubject(a, name);
  if (weights_channels > 0) {
    warn(doc, WarningKind::kWeightsChannelsSkipped,
         fmt::format("animation {} ('{}'): {} morph-target weights channels skipped", a, name,
                     weights_channels),
         fmt::format("{} ({})", subject, weights_channels))
        .with("animation", a)
        .with("animation_name", name)
        .with("channels", weights_channels);
  }
  if (other_channels > 0) {
    warn(doc, WarningKind::kUnsupportedChannelsSkipped,
         fmt::format("animation {} ('{}'): {} channels with unsupported targets skipped", a, name,
                     other_channels),
         fmt::format("{} ({})", subject, other_channels))
        .with("animation", a)
        .with("animation_name", name)
        .with("channels", other_channels);
  }
}

// Reads weights channel `c` of animation `a` into clip.weights when its node has targets in
// `morph` (true); false when it has none (the channel is skipped), or when another channel
// already animates the node's weights (warned).
Result<bool> readWeightsTarget(Document& doc, const tinygltf::Animation& animation, size_t a,
                               size_t c, const MorphLayout* morph, Clip& clip) {
  const tinygltf::AnimationChannel& channel = animation.channels[c];
  const std::string what = fmt::format("animation {} channel {}", a, c);
  const NodeMorph targets = channel.target_node >= 0 && morph != nullptr
                                ? morph->nodes[static_cast<size_t>(channel.target_node)]
                                : NodeMorph{};
  if (targets.count == 0) return false;  // a node without targets, or clips bound by name
  clip.weights.resize(morph->targets.size());
  const auto tracks =
      std::span<FloatTrack>(clip.weights)
          .subspan(static_cast<size_t>(targets.first), static_cast<size_t>(targets.count));
  if (!tracks.front().empty()) {
    warn(doc, WarningKind::kChannelAnimatedTwice,
         fmt::format("{}: node {} weights is animated twice; the first channel is kept", what,
                     channel.target_node),
         fmt::format("node {} weights", channel.target_node))
        .with("animation", a)
        .with("channel", c)
        .with("node", channel.target_node)
        .with("path", channel.target_path);
    return true;
  }
  if (Status s = readWeightsChannel(doc, animation.samplers[static_cast<size_t>(channel.sampler)],
                                    what, tracks);
      !s.ok()) {
    return s;
  }
  return true;
}

}  // namespace

Status readInterpolation(Document& doc, const tinygltf::AnimationSampler& sampler,
                         const std::string& what, Interpolation& interpolation) {
  if (sampler.interpolation == "LINEAR" || sampler.interpolation.empty()) {
    interpolation = Interpolation::kLinear;
  } else if (sampler.interpolation == "STEP") {
    interpolation = Interpolation::kStep;
  } else if (sampler.interpolation == "CUBICSPLINE") {
    interpolation = Interpolation::kCubicSpline;
  } else {
    return Status(ErrorCode::kInvalidData, place(doc, fmt::format("{}: unknown interpolation '{}'",
                                                                  what, sampler.interpolation)));
  }
  return {};
}

void warnKeySteps(Document& doc, const std::string& what, const KeyTimeSteps& steps) {
  if (steps.steps == 0) return;
  warn(doc, WarningKind::kKeyTimesRepeated,
       fmt::format("{}: {} repeated key time{} (first at key {}, {} s) kept as a step", what,
                   steps.steps, steps.steps == 1 ? "" : "s", steps.first_key, steps.first_time),
       fmt::format("{} ({})", what, steps.steps))
      .with("steps", steps.steps)
      .with("first_key", steps.first_key)
      .with("first_time", static_cast<double>(steps.first_time));
}

Result<std::vector<Clip>> readClips(Document& doc, std::span<const int> node_to_joint,
                                    int joint_count, const MorphLayout* morph) {
  const tinygltf::Model& model = doc.model;
  std::vector<Clip> clips;
  std::set<std::string> names;
  std::set<int> outside_nodes;
  for (size_t a = 0; a < model.animations.size(); ++a) {
    const tinygltf::Animation& animation = model.animations[a];
    Clip clip;
    clip.name = clipName(doc, animation, a);
    if (names.count(clip.name) != 0 && animation.name != clip.name) clip.name = animation.name;
    if (names.count(clip.name) != 0) clip.name = fmt::format("{}#{}", clip.name, a);
    clip.joints.resize(static_cast<size_t>(joint_count));
    std::vector<bool> filled(static_cast<size_t>(joint_count) * 3, false);
    int weights_channels = 0;
    int other_channels = 0;
    int read_channels = 0;
    for (size_t c = 0; c < animation.channels.size(); ++c) {
      const tinygltf::AnimationChannel& channel = animation.channels[c];
      const std::string what = fmt::format("animation {} channel {}", a, c);
      if (channel.sampler < 0 ||
          static_cast<size_t>(channel.sampler) >= animation.samplers.size()) {
        return Status(ErrorCode::kInvalidData,
                      place(doc, fmt::format("{}: sampler {} does not exist ({} samplers)", what,
                                             channel.sampler, animation.samplers.size())));
      }
      if (channel.target_node >= static_cast<int>(model.nodes.size())) {
        return Status(ErrorCode::kInvalidData,
                      place(doc, fmt::format("{}: target node {} does not exist ({} nodes)", what,
                                             channel.target_node, model.nodes.size())));
      }
      Path path;
      if (channel.target_path == "translation") {
        path = Path::kTranslation;
      } else if (channel.target_path == "rotation") {
        path = Path::kRotation;
      } else if (channel.target_path == "scale") {
        path = Path::kScale;
      } else if (channel.target_path == "weights") {
        Result<bool> read = readWeightsTarget(doc, animation, a, c, morph, clip);
        if (!read.ok()) return read.status();
        if (*read) {
          ++read_channels;
        } else {
          ++weights_channels;
        }
        continue;
      } else {
        ++other_channels;
        continue;
      }
      if (channel.target_node < 0) {  // e.g. KHR_animation_pointer targets
        ++other_channels;
        continue;
      }
      const int joint = node_to_joint[static_cast<size_t>(channel.target_node)];
      if (joint < 0) {
        outside_nodes.insert(channel.target_node);
        continue;
      }
      const size_t slot = static_cast<size_t>(joint) * 3 + static_cast<size_t>(path);
      if (filled[slot]) {
        warn(doc, WarningKind::kChannelAnimatedTwice,
             fmt::format("{}: node {} {} is animated twice; the first channel is kept", what,
                         channel.target_node, channel.target_path),
             fmt::format("node {} {}", channel.target_node, channel.target_path))
            .with("animation", a)
            .with("channel", c)
            .with("node", channel.target_node)
            .with("path", channel.target_path);
        continue;
      }
      filled[slot] = true;
      const tinygltf::AnimationSampler& sampler =
          animation.samplers[static_cast<size_t>(channel.sampler)];
      JointTracks& tracks = clip.joints[static_cast<size_t>(joint)];
      Status status;
      if (path == Path::kRotation) {
        status = readTrack(doc, sampler, what, path, tracks.rotation);
      } else {
        status = readTrack(doc, sampler, what, path,
                           path == Path::kTranslation ? tracks.translation : tracks.scale);
      }
      if (!status.ok()) return status;
      ++read_channels;
    }
    warnSkippedChannels(doc, a, animation.name, weights_channels, other_channels);
    if (read_channels == 0) {
      warn(doc, WarningKind::kAnimationSkipped,
           fmt::format("animation {} ('{}') animates no joint and no morph target; skipped", a,
                       animation.name),
           animationSubject(a, animation.name))
          .with("animation", a)
          .with("animation_name", animation.name);
      continue;
    }
    updateClipRange(clip);
    if (Status s = validateClip(clip, joint_count, doc.path); !s.ok()) return s;
    names.insert(clip.name);
    clips.push_back(std::move(clip));
  }
  if (!outside_nodes.empty()) {
    std::string list;
    for (int node : outside_nodes) {
      if (!list.empty()) list += ", ";
      list += nodeName(doc, node);
    }
    warn(doc, WarningKind::kChannelsOutsideSkeleton,
         fmt::format("channels on {} nodes outside the skeleton are ignored: {}",
                     outside_nodes.size(), list),
         list)
        .with("nodes", outside_nodes.size())
        .with("names", list);
  }
  return clips;
}

}  // namespace throng::gltf
