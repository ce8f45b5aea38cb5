// Layers against their definition: re-rooting on the base pose at weight 1, the blend's
// continuity, the crowd's fades and events, the merged fill and the command-script lines.
#include "throng/crowd/layer.h"

#include <cmath>

#include <gtest/gtest.h>

#include "throng/core/job_system.h"

#include "throng/core/pose.h"
#include "throng/crowd/batch_palette.h"
#include "throng/crowd/command_script.h"
#include "throng/crowd/crowd.h"
#include "throng/crowd/frame_palette.h"
#include "throng/crowd/layer_palette.h"
#include "throng/offline/bake.h"
#include "throng/offline/sample_character.h"

namespace throng {
namespace {

struct Baked {
  Character character;
  Package package;
};

const Baked& baked() {
  static const Baked b = [] {
    Baked out;
    out.character = makeSampleCharacter();
    BakeOptions options;
    options.fps = 10.0f;
    out.package = bakeCharacter(out.character, options).value();
    return out;
  }();
  return b;
}

float maxDifference(const JointRows& a, const JointRows& b) {
  float worst = 0.0f;
  for (int r = 0; r < kVec4PerJoint; ++r) {
    for (int c = 0; c < 4; ++c) worst = std::max(worst, std::abs(a.rows[r][c] - b.rows[r][c]));
  }
  return worst;
}

float maxDifference(const glm::mat4& a, const glm::mat4& b) {
  float worst = 0.0f;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) worst = std::max(worst, std::abs(a[c][r] - b[c][r]));
  }
  return worst;
}

// The keyframed local matrices of `clip` at `time` (file timeline): the independent side.
std::vector<glm::mat4> localMatrices(const Character& c, const Clip& clip, float time) {
  std::vector<Transform> locals(static_cast<size_t>(c.skeleton.jointCount()));
  EXPECT_TRUE((SampleClipJob{&clip, time, c.skeleton.restPoses(), locals}.run()));
  std::vector<glm::mat4> out;
  for (const Transform& t : locals) out.push_back(toMatrix(t));
  return out;
}

std::vector<glm::mat4> modelMatrices(const Skeleton& s, const std::vector<glm::mat4>& locals) {
  std::vector<glm::mat4> models(locals.size());
  for (size_t j = 0; j < locals.size(); ++j) {
    const int parent = s.parents()[j];
    models[j] = parent == kNoParent ? locals[j] : models[static_cast<size_t>(parent)] * locals[j];
  }
  return models;
}

// The blend docs/props_and_layers.md defines, on model matrices written out here: rotation by
// normalised quaternion blend (the shorter way), the joint's position and uniform scale linearly.
glm::mat4 blendModels(const glm::mat4& a, const glm::mat4& b, float w) {
  const float sa = glm::length(glm::vec3(a[0])), sb = glm::length(glm::vec3(b[0]));
  const glm::quat qa = glm::quat_cast(glm::mat3(a) / sa);
  glm::quat qb = glm::quat_cast(glm::mat3(b) / sb);
  if (glm::dot(qa, qb) < 0.0f) qb = -qb;
  const glm::quat q =
      glm::normalize(glm::quat((1.0f - w) * qa.w + w * qb.w, (1.0f - w) * qa.x + w * qb.x,
                               (1.0f - w) * qa.y + w * qb.y, (1.0f - w) * qa.z + w * qb.z));
  glm::mat4 out = glm::mat4_cast(q) * glm::mat4(glm::mat3((1.0f - w) * sa + w * sb));
  out[3] = glm::mix(a[3], b[3], w);
  return out;
}

// At weight 1 the masked joints take the layer clip's locals under the base pose's parent; below
// 1 that is blended with the base (blendModels); joints outside the mask keep clip A's pose.
TEST(Layer, MaskedJointsTakeTheLayerClipsLocalsUnderTheBasePosesParentBlendedByWeight) {
  const Baked& b = baked();
  const Skeleton& skeleton = b.package.skeleton;
  const int root = skeleton.findJoint("spine_01");
  ASSERT_GE(root, 0);
  const JointRange range = jointRange(skeleton, static_cast<uint16_t>(root));
  ASSERT_NE(range.parent, kNoParent);
  ASSERT_GT(range.end, range.first + 10);  // the upper body
  const uint16_t base_clip = 1, layer_clip = static_cast<uint16_t>(b.package.clips.size() - 1);
  ASSERT_NE(base_clip, layer_clip);
  const BakedClip& bc = b.package.clips[base_clip];
  const BakedClip& lc = b.package.clips[layer_clip];
  // Whole frames, so that the stored frames are the keyframed poses at those times.
  const uint32_t base_frame = 3, layer_frame = 2;
  InstanceFrames frames;
  frames.primary = frames.secondary = {bc.first_frame + base_frame, bc.first_frame + base_frame, 0};
  const Character& c = b.character;
  const Clip& a_clip = c.clips[static_cast<size_t>(c.findClip(bc.name))];
  const Clip& b_clip = c.clips[static_cast<size_t>(c.findClip(lc.name))];
  const std::vector<glm::mat4> base_models =
      modelMatrices(skeleton, localMatrices(c, a_clip, bakedFrameTime(a_clip, bc, base_frame)));
  const std::vector<glm::mat4> layer_locals =
      localMatrices(c, b_clip, bakedFrameTime(b_clip, lc, layer_frame));
  const float size = c.size();
  const std::vector<glm::vec3> pivots = jointPivots(skeleton);
  std::vector<JointRows> plain(static_cast<size_t>(skeleton.jointCount()));
  ASSERT_TRUE((FramePaletteJob{&b.package.animation, frames, plain}.run()));
  for (const float weight : {1.0f, 0.7f, 0.3f}) {
    SCOPED_TRACE(testing::Message() << "weight " << weight);
    const LayerSample layer{
        {lc.first_frame + layer_frame, lc.first_frame + layer_frame, 0.0f}, weight, range};
    std::vector<JointRows> palette(plain.size());
    ASSERT_TRUE((LayerPaletteJob{&b.package.animation, frames, layer, pivots, palette}.run()));
    for (uint32_t j = 0; j < palette.size(); ++j) {
      const glm::mat4 model = unpackRows(palette[j]) * glm::inverse(skeleton.inverseBinds()[j]);
      if (!range.contains(j)) {
        // Clip A's model transform, from its keys, and exactly the palette without a layer.
        EXPECT_LT(maxDifference(model, base_models[j]), 1e-4f * size) << "joint " << j;
        EXPECT_EQ(maxDifference(palette[j], plain[j]), 0.0f) << "joint " << j << " outside";
        continue;
      }
      // The re-rooted model matrix: the base's parent, then the layer's locals down to j.
      glm::mat4 rerooted = glm::mat4(1.0f);
      for (int k = static_cast<int>(j); k != range.parent; k = skeleton.parents()[k]) {
        rerooted = layer_locals[static_cast<size_t>(k)] * rerooted;
      }
      rerooted = base_models[static_cast<size_t>(range.parent)] * rerooted;
      const glm::mat4 expected =
          weight == 1.0f ? rerooted : blendModels(base_models[j], rerooted, weight);
      EXPECT_LT(maxDifference(model, expected), 1e-4f * size) << "joint " << j;
    }
  }
}

TEST(Layer, BlendIsContinuousAndExactAtItsEnds) {
  const Baked& b = baked();
  const Skeleton& skeleton = b.package.skeleton;
  const JointRange range =
      jointRange(skeleton, static_cast<uint16_t>(skeleton.findJoint("spine_01")));
  const BakedClip& bc = b.package.clips[1];
  const BakedClip& lc = b.package.clips.back();
  InstanceFrames frames;
  frames.primary = frames.secondary = sampleFrames(bc, 0.43f);
  const std::vector<glm::vec3> pivots = jointPivots(skeleton);
  const size_t n = static_cast<size_t>(skeleton.jointCount());
  auto palette = [&](float weight) {
    std::vector<JointRows> out(n);
    const LayerSample layer{sampleFrames(lc, 0.61f), weight, range};
    EXPECT_TRUE((LayerPaletteJob{&b.package.animation, frames, layer, pivots, out}.run()));
    return out;
  };
  const std::vector<JointRows> base = palette(0.0f), full = palette(1.0f);
  std::vector<JointRows> previous = base;
  float largest_step = 0.0f, total_change = 0.0f;
  constexpr int kSteps = 200;
  for (int i = 1; i <= kSteps; ++i) {
    const std::vector<JointRows> now = palette(static_cast<float>(i) / kSteps);
    for (size_t j = 0; j < n; ++j) {
      const float step = maxDifference(now[j], previous[j]);
      largest_step = std::max(largest_step, step);
    }
    previous = now;
  }
  for (size_t j = 0; j < n; ++j)
    total_change = std::max(total_change, maxDifference(base[j], full[j]));
  ASSERT_GT(total_change, 0.05f);  // the clips differ, so the test can see a jump
  // 200 steps over a change of total_change: no step is a jump (a few times the mean step).
  EXPECT_LT(largest_step, 5.0f * total_change / kSteps);
  for (size_t j = 0; j < n; ++j) EXPECT_EQ(maxDifference(previous[j], full[j]), 0.0f);
}

TEST(Layer, MergedFillPlacesTheLayeredEntries) {
  const Baked& b = baked();
  const Skeleton& skeleton = b.package.skeleton;
  const JointRange range =
      jointRange(skeleton, static_cast<uint16_t>(skeleton.findJoint("spine_01")));
  InstanceFrames frames;
  frames.primary = frames.secondary = sampleFrames(b.package.clips[1], 0.2f);
  const LayerSample layer{sampleFrames(b.package.clips.back(), 0.3f), 0.6f, range};
  const std::vector<glm::vec3> pivots = jointPivots(skeleton);
  const std::vector<uint16_t> slots = {0, static_cast<uint16_t>(range.first),
                                       static_cast<uint16_t>(range.end - 1)};
  const glm::mat4 placement = placementMatrix({{3.0f, 0.0f, -2.0f}, 0.7f, 1.3f});
  std::vector<JointRows> out(slots.size());
  layeredBakedPalette(b.package.animation, frames, layer, pivots, placement, slots, out);
  for (size_t s = 0; s < slots.size(); ++s) {
    const JointRows expected = placeRows(
        placement, layeredJointRows(b.package.animation, frames, layer, pivots, slots[s]));
    EXPECT_LT(maxDifference(out[s], expected), 1e-5f) << "slot " << s;
  }
  EXPECT_GT(maxDifference(out[1], placeRows(placement, blendedJointRows(b.package.animation, frames,
                                                                        range.first))),
            1e-3f);
}

TEST(Layer, CrowdFadesInAndOutContinuouslyAndReportsTheLayersEvents) {
  std::vector<BakedClip> clips = baked().package.clips;
  BakedClip& wave = clips.back();
  wave.loop = true;
  wave.events = {{"hit", 0.5f * wave.duration}};
  const ClipSet set = clipSetByName(clips).value();
  Crowd crowd(clips, set, {}, 1);
  crowd.addAgent({});
  EXPECT_FALSE(crowd.playLayer(0, static_cast<uint16_t>(clips.size() - 1), 1));  // no mask 1
  EXPECT_FALSE(crowd.playLayer(1, 0, 0));                                        // no agent 1
  ASSERT_TRUE(crowd.playLayer(0, static_cast<uint16_t>(clips.size() - 1), 0, 0.8f, 0.5f));
  const float dt = 0.05f;
  float previous = layerWeight(crowd.layers()[0]);
  EXPECT_EQ(previous, 0.0f);
  bool hit = false;
  for (int i = 0; i < 20; ++i) {
    crowd.update(dt);
    const float w = layerWeight(crowd.layers()[0]);
    EXPECT_NEAR(w - previous, 0.8f * dt / 0.5f, 1e-5f) << "step " << i;  // no jump
    previous = w;
    if (w >= 0.8f) break;
  }
  EXPECT_NEAR(previous, 0.8f, 1e-5f);
  for (int i = 0; i < 200 && !hit; ++i) {
    crowd.update(dt);
    for (const EventHit& e : crowd.events()) hit = hit || (e.layer && e.clip == clips.size() - 1);
  }
  EXPECT_TRUE(hit) << "the layer clip's event fires";
  crowd.stopLayer(0, 0.2f);
  for (int i = 0; i < 3; ++i) {
    crowd.update(dt);
    const float w = layerWeight(crowd.layers()[0]);
    EXPECT_NEAR(previous - w, 0.8f * dt / 0.2f, 1e-5f);
    previous = w;
  }
  crowd.update(dt);
  crowd.update(dt);
  EXPECT_FALSE(crowd.layers()[0].active);

  // A once-layer fades out over its last fade seconds and ends at the clip's end.
  ASSERT_TRUE(
      crowd.playLayer(0, static_cast<uint16_t>(clips.size() - 1), 0, 1.0f, 0.1f, LayerLoop::kOnce));
  float t = 0.0f;
  while (crowd.layers()[0].active && t < 2.0f * wave.duration + 1.0f) {
    crowd.update(dt);
    t += dt;
    if (crowd.layers()[0].active) {
      EXPECT_LE(layerWeight(crowd.layers()[0]),
                std::max(0.0f, (wave.duration - crowd.layers()[0].time) / 0.1f) + 1e-5f);
    }
  }
  EXPECT_FALSE(crowd.layers()[0].active);
  EXPECT_NEAR(t, wave.duration, dt + 1e-4f);

  crowd.setAttachments(0, 0x5u);
  EXPECT_EQ(crowd.attachments()[0], 0x5u);
  crowd.addAgent({});
  EXPECT_EQ(crowd.attachments()[1], kAllAttachments);
  crowd.removeAgent(0);
  EXPECT_EQ(crowd.attachments()[0], kAllAttachments);
}

// advanceLayers (what the GPU-driven path calls instead of update) moves the layers exactly as
// update does (times, fades, a once-layer's end, a stop, a kDie's end, the layers' events) and
// nothing else.
TEST(Layer, AdvanceLayersMovesTheLayersAsUpdateDoesAndNothingElse) {
  std::vector<BakedClip> clips = baked().package.clips;
  clips.back().events = {{"hit", 0.5f * clips.back().duration}};
  const ClipSet set = clipSetByName(clips).value();
  const uint16_t wave = static_cast<uint16_t>(clips.size() - 1);
  Crowd updated(clips, set, {}, 1);
  Crowd layered(clips, set, {}, 1);
  for (Crowd* crowd : {&updated, &layered}) {
    for (int i = 0; i < 4; ++i) crowd->addAgent({}, 0.1f * static_cast<float>(i));
    crowd->setSpeed(1, 1.5f);
    ASSERT_TRUE(crowd->playLayer(0, wave, 0, 0.8f, 0.5f, LayerLoop::kLoop));
    ASSERT_TRUE(crowd->playLayer(1, wave, 0, 1.0f, 0.1f, LayerLoop::kOnce));
    ASSERT_TRUE(crowd->playLayer(2, 0, 0, 0.6f, 0.0f, LayerLoop::kLoop));
    ASSERT_TRUE(crowd->playLayer(3, wave, 0, 1.0f, 0.2f, LayerLoop::kLoop));
  }
  const AgentPlayback before = layered.playback()[0];
  const float dt = 0.05f;
  size_t events = 0;
  for (int step = 0; step < 60; ++step) {
    if (step == 10) {
      for (Crowd* crowd : {&updated, &layered}) crowd->stopLayer(2, 0.3f);
    }
    if (step == 20) {
      for (Crowd* crowd : {&updated, &layered}) crowd->submit({3, CommandType::kDie});
    }
    updated.update(dt);
    layered.advanceLayers(dt);
    layered.clearCommands();  // what the mirror takes
    for (uint32_t a = 0; a < 4; ++a) {
      const AgentLayer& u = updated.layers()[a];
      const AgentLayer& l = layered.layers()[a];
      EXPECT_EQ(u.active, l.active) << "agent " << a << " step " << step;
      EXPECT_EQ(u.time, l.time) << "agent " << a << " step " << step;
      EXPECT_EQ(u.level, l.level) << "agent " << a << " step " << step;
      EXPECT_EQ(u.stopping, l.stopping) << "agent " << a << " step " << step;
    }
    std::vector<EventHit> layer_events;
    for (const EventHit& e : updated.events()) {
      if (e.layer) layer_events.push_back(e);
    }
    ASSERT_EQ(layer_events.size(), layered.events().size()) << "step " << step;
    for (size_t i = 0; i < layer_events.size(); ++i) {
      EXPECT_EQ(layer_events[i].agent, layered.events()[i].agent);
      EXPECT_EQ(layer_events[i].event, layered.events()[i].event);
      EXPECT_EQ(layer_events[i].weight, layered.events()[i].weight);
    }
    events += layered.events().size();
  }
  EXPECT_GT(events, 0u);
  EXPECT_TRUE(layered.layers()[0].active);
  EXPECT_GT(layered.layers()[0].time, 0.0f);
  EXPECT_FALSE(layered.layers()[1].active) << "the once-layer ended";
  EXPECT_FALSE(layered.layers()[2].active) << "the stopped layer ended";
  EXPECT_FALSE(layered.layers()[3].active) << "the kDie ended the layer";
  // Nothing but the layers moved.
  EXPECT_EQ(layered.playback()[0].time, before.time);
  EXPECT_EQ(layered.states()[3], AgentState::kIdle);
}

// activeLayerCount() (what lets the gpu path skip the layers in O(1)) stays the number of agents
// whose layer is active through every call that starts or ends one, on one thread and on several,
// in update() and in advanceLayers(); attachmentsVersion() moves with every change of props.
TEST(Layer, TheCrowdCountsItsActiveLayersAndVersionsItsProps) {
  const std::vector<BakedClip>& clips = baked().package.clips;
  const ClipSet set = clipSetByName(clips).value();
  const uint16_t wave = static_cast<uint16_t>(clips.size() - 1);
  JobSystem jobs(2);
  for (const int mode : {0, 1, 2}) {  // update() alone, update() on jobs, advanceLayers()
    SCOPED_TRACE("mode " + std::to_string(mode));
    Crowd crowd(clips, set, {}, 1);
    auto counted = [&] {
      uint32_t active = 0;
      for (const AgentLayer& layer : crowd.layers()) active += layer.active ? 1 : 0;
      return active;
    };
    for (int i = 0; i < 3000; ++i) crowd.addAgent({}, 0.001f * static_cast<float>(i));
    EXPECT_EQ(crowd.activeLayerCount(), 0u);
    for (uint32_t a = 0; a < 3000; a += 3) {
      ASSERT_TRUE(
          crowd.playLayer(a, wave, 0, 1.0f, 0.1f, a % 2 ? LayerLoop::kOnce : LayerLoop::kLoop));
    }
    ASSERT_TRUE(crowd.playLayer(0, wave, 0, 1.0f, 0.1f, LayerLoop::kLoop));  // replaced: no more
    EXPECT_EQ(crowd.activeLayerCount(), counted());
    EXPECT_EQ(crowd.activeLayerCount(), 1000u);
    crowd.stopLayer(3, 0.0f);  // at once
    crowd.stopLayer(6, 0.2f);  // fading
    crowd.submit({9, CommandType::kDie});
    crowd.removeAgent(12);  // the last agent (2999: a layer) moves in
    crowd.truncate(2900);
    EXPECT_EQ(crowd.activeLayerCount(), counted());
    for (int step = 0; step < 90; ++step) {  // once-layers end, the stopped one fades out
      if (mode == 2) {
        crowd.advanceLayers(1.0f / 30.0f);
        crowd.clearCommands();
      } else {
        crowd.update(1.0f / 30.0f, mode == 1 ? &jobs : nullptr);
      }
      ASSERT_EQ(crowd.activeLayerCount(), counted()) << "step " << step;
    }
    EXPECT_LT(crowd.activeLayerCount(), 1000u) << "once-layers ended";
    EXPECT_GT(crowd.activeLayerCount(), 0u) << "looped layers go on";
  }
  Crowd crowd(clips, set);
  crowd.addAgent({});
  const uint64_t added = crowd.attachmentsVersion();
  crowd.setAttachments(0, kAllAttachments);  // as it was
  EXPECT_EQ(crowd.attachmentsVersion(), added);
  crowd.setAttachments(0, 0u);
  const uint64_t hidden = crowd.attachmentsVersion();
  EXPECT_NE(hidden, added);
  crowd.addAgent({});
  EXPECT_NE(crowd.attachmentsVersion(), hidden);
}

TEST(Layer, CommandScriptLinesPlayStopAndShowProps) {
  const std::vector<BakedClip>& clips = baked().package.clips;
  const std::vector<JointMask> masks = {{"upper", 3}};
  const std::vector<Attachment> props = {{"sword", 5, {}, ""}, {"hat", 9, {}, ""}};
  Result<CommandScript> script =
      parseCommandScript("0 all layer " + clips.back().name +
                             " upper 0.5 0.2\n1 0 stop-layer 0.1\n"
                             "2 0..1 attachments hat\n3 1 attachments none\n",
                         "props.txt");
  ASSERT_TRUE(script.ok()) << script.status().toString();
  ASSERT_TRUE(bindCommandScript(*script, clips, 2, masks, props).ok());
  EXPECT_EQ(script->commands[0].action, ScriptAction::kLayer);
  EXPECT_EQ(script->commands[0].clip_index, clips.size() - 1);
  EXPECT_EQ(script->commands[2].attachments, 0x2u);
  EXPECT_EQ(script->commands[3].attachments, 0u);
  Result<CommandScript> again = parseCommandScript(formatCommandScript(*script), "again");
  ASSERT_TRUE(again.ok()) << again.status().toString();
  ASSERT_TRUE(bindCommandScript(*again, clips, 2, masks, props).ok());
  EXPECT_EQ(formatCommandScript(*again), formatCommandScript(*script));

  Crowd crowd(clips, clipSetByName(clips).value(), {}, masks.size());
  crowd.addAgent({});
  crowd.addAgent({});
  size_t next = 0;
  submitDueCommands(*script, 0.0, &next, crowd);
  EXPECT_TRUE(crowd.layers()[1].active);
  EXPECT_FLOAT_EQ(crowd.layers()[1].weight, 0.5f);
  submitDueCommands(*script, 3.0, &next, crowd);
  EXPECT_TRUE(crowd.layers()[0].stopping);
  EXPECT_EQ(crowd.attachments()[0], 0x2u);
  EXPECT_EQ(crowd.attachments()[1], 0u);

  auto bindError = [&](const std::string& line) {
    Result<CommandScript> s = parseCommandScript(line, "bad.txt");
    if (!s.ok()) return s.status().message();
    return bindCommandScript(*s, clips, 2, masks, props).message();
  };
  EXPECT_EQ(bindError("0 0 layer 0 legs"),
            "bad.txt:1: no mask 'legs' (masks: 0 upper; name them at bake with --mask)");
  EXPECT_EQ(bindError("0 0 attachments shield"),
            "bad.txt:1: no prop 'shield' (props: 0 sword, 1 hat)");
  EXPECT_EQ(bindError("0 0 layer 0 upper 2"), "bad.txt:1: layer: '2' is not a weight (0..1)");
  EXPECT_EQ(bindError("0 0 layer 0"),
            "bad.txt:1: layer takes a clip, a mask, and then a weight (0..1) and a fade (seconds)");
  EXPECT_EQ(bindError("0 0 stop-layer -1"),
            "bad.txt:1: stop-layer: '-1' is not a fade (seconds >= 0)");
  EXPECT_EQ(bindError("0 0 attachments a,,b"), "bad.txt:1: attachments: 'a,,b' has an empty name");
  EXPECT_EQ(bindError("0 0 stop-layer 0.1 0.2"),
            "bad.txt:1: stop-layer takes at most a fade (seconds)");
  EXPECT_EQ(bindError("0 0 attachments"),
            "bad.txt:1: attachments takes all, none or props by name or index, comma-separated");
}

}  // namespace
}  // namespace throng
