// The page's scene: random commands, culling, LOD pick and the two draw paths.
#include "crowd_scene.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "throng/crowd/culling.h"
#include "throng/crowd/lod_pick.h"
#include "throng/crowd/playback.h"

namespace throng::web {
namespace {

// The crowd gets new commands this often (seconds), for about one agent in kCommandShare.
constexpr float kCommandPeriod = 0.5f;
constexpr uint32_t kCommandShare = 12;
// Distance between neighbours on the starting grid, in character sizes.
constexpr float kGridSpacing = 1.1f;
constexpr uint32_t kSeed = 1;

glm::vec4 stateTint(AgentState state) {
  static const std::array<glm::vec4, kAgentStateCount> kTints = {
      glm::vec4(0.80f, 0.80f, 0.85f, 1.0f),  // idle: grey
      glm::vec4(0.45f, 0.70f, 1.00f, 1.0f),  // walk: blue
      glm::vec4(0.40f, 0.95f, 0.50f, 1.0f),  // run: green
      glm::vec4(1.00f, 0.55f, 0.25f, 1.0f),  // attack: orange
      glm::vec4(0.55f, 0.25f, 0.25f, 1.0f),  // dead: dark red
  };
  return kTints[static_cast<int>(state)];
}

}  // namespace

const char* drawPathName(DrawPath path) {
  return path == DrawPath::kInstanced ? "instanced" : "merged";
}

Result<std::unique_ptr<CrowdScene>> CrowdScene::create(render::Device& device,
                                                       const Package& package,
                                                       const ClipSet& clip_set) {
  if (package.lods.empty() || package.clips.empty())
    return Status(ErrorCode::kInvalidArgument, "page: the package has no mesh or no clips");
  std::unique_ptr<CrowdScene> scene(new CrowdScene());
  scene->package_ = &package;
  scene->clip_set_ = clip_set;
  scene->character_size_ =
      std::max(computeBounds(package.lods[0].mesh.positions).largestExtent(), 1e-3f);

  Result<std::unique_ptr<render::InstancedRenderer>> instanced =
      render::InstancedRenderer::create(device, package);
  if (instanced.ok()) {
    scene->instanced_ = std::move(*instanced);
  } else {
    scene->instanced_error_ = instanced.status().message();
  }
  Result<std::unique_ptr<render::MergedBatchRenderer>> merged =
      render::MergedBatchRenderer::create(device, package.lods, package.skeleton.jointCount());
  if (merged.ok()) {
    scene->merged_ = std::move(*merged);
  } else {
    scene->merged_error_ = merged.status().message();
  }
  if (!scene->instanced_ && !scene->merged_)
    return Status(ErrorCode::kUnsupported,
                  "page: no path can draw this character (instanced: " + scene->instanced_error_ +
                      "; merged: " + scene->merged_error_ + ")");
  scene->path_ = scene->instanced_ ? DrawPath::kInstanced : DrawPath::kMerged;
  scene->lod_counts_.resize(package.lods.size());
  scene->lod_next_.resize(package.lods.size());
  scene->setAgentCount(1);
  return scene;
}

bool CrowdScene::supports(DrawPath path) const {
  return path == DrawPath::kInstanced ? instanced_ != nullptr : merged_ != nullptr;
}

Status CrowdScene::setPath(DrawPath path) {
  if (!supports(path))
    return Status(ErrorCode::kUnsupported,
                  std::string("page: the ") + drawPathName(path) + " path is unavailable: " +
                      (path == DrawPath::kInstanced ? instanced_error_ : merged_error_));
  path_ = path;
  return Status::okStatus();
}

void CrowdScene::setAgentCount(uint32_t count) {
  count = std::clamp<uint32_t>(count, 1, kMaxAgents);
  crowd_ = std::make_unique<Crowd>(package_->clips, clip_set_);
  rng_.seed(kSeed);
  command_clock_ = 0.0f;
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const float spacing = kGridSpacing * character_size_;
  const uint32_t columns = static_cast<uint32_t>(std::ceil(std::sqrt(static_cast<float>(count))));
  half_extent_ = 0.5f * spacing * static_cast<float>(columns - 1);
  for (uint32_t i = 0; i < count; ++i) {
    Placement p;
    p.position = glm::vec3(spacing * static_cast<float>(i % columns) - half_extent_, 0.0f,
                           spacing * static_cast<float>(i / columns) - half_extent_);
    p.heading = unit(rng_) * 6.2831853f;
    crowd_->addAgent(p, unit(rng_) * 2.0f);
  }
  frames_.resize(count);
  visible_.resize(count);
  lod_of_.resize(count);
}

float CrowdScene::radius() const {
  return std::sqrt(2.0f) * (half_extent_ + character_size_);
}

void CrowdScene::issueCommands() {
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const uint32_t agents = crowd_->agentCount();
  const uint32_t count = std::max<uint32_t>(1, agents / kCommandShare);
  for (uint32_t c = 0; c < count; ++c) {
    Command command;
    command.agent = static_cast<uint32_t>(rng_() % agents);
    const float roll = unit(rng_);
    command.type = roll < 0.45f   ? CommandType::kWalkTo
                   : roll < 0.75f ? CommandType::kRunTo
                   : roll < 0.97f ? CommandType::kAttack
                                  : CommandType::kDie;
    command.target = glm::vec2((unit(rng_) * 2.0f - 1.0f) * half_extent_,
                               (unit(rng_) * 2.0f - 1.0f) * half_extent_);
    crowd_->submit(command);
  }
}

Result<SceneStats> CrowdScene::frame(float seconds, const glm::mat4& view_projection,
                                     const glm::vec3& eye) {
  command_clock_ += seconds;
  if (command_clock_ >= kCommandPeriod) {
    command_clock_ = std::fmod(command_clock_, kCommandPeriod);
    issueCommands();
  }
  crowd_->update(seconds);
  PlaybackJob{package_->clips, crowd_->playback(), frames_}.run();
  SceneStats stats;
  stats.agents = crowd_->agentCount();
  CullJob{package_->clips,    crowd_->placements(),
          crowd_->playback(), frustumFromViewProjection(view_projection),
          visible_,           &stats.visible}
      .run();
  if (path_ == DrawPath::kMerged) {
    // No glGetError here: in a browser it waits for the GPU process; the page checks GL errors
    // when it reads pixels back (Device::readPixels).
    drawMerged(view_projection, eye, stats);
    return stats;
  }
  if (Status s = drawInstanced(view_projection, eye, stats); !s.ok()) return s;
  return stats;
}

Status CrowdScene::drawInstanced(const glm::mat4& view_projection, const glm::vec3& eye,
                                 SceneStats& stats) {
  // LOD per visible agent, then a counting sort by LOD (InstancedRenderer::draw's order).
  std::fill(lod_counts_.begin(), lod_counts_.end(), 0u);
  const std::span<const Placement> placements = crowd_->placements();
  for (uint32_t v = 0; v < stats.visible; ++v) {
    const Placement& p = placements[visible_[v]];
    const int lod = pickLod(package_->lods, modelDistance(glm::distance(eye, p.position), p.scale));
    lod_of_[visible_[v]] = lod;
    ++lod_counts_[lod];
  }
  lod_next_[0] = 0;
  for (size_t l = 1; l < lod_counts_.size(); ++l)
    lod_next_[l] = lod_next_[l - 1] + lod_counts_[l - 1];
  instances_.resize(stats.visible);
  const std::span<const AgentState> states = crowd_->states();
  for (uint32_t v = 0; v < stats.visible; ++v) {
    const uint32_t a = visible_[v];
    instances_[lod_next_[lod_of_[a]]++] = {placements[a], frames_[a], stateTint(states[a])};
  }
  render::FrameView view;
  view.view_projection = view_projection;
  if (Status s = instanced_->draw(view, instances_, lod_counts_); !s.ok()) return s;
  stats.draw_calls = instanced_->stats().draw_calls;
  return Status::okStatus();
}

void CrowdScene::drawMerged(const glm::mat4& view_projection, const glm::vec3& eye,
                            SceneStats& stats) {
  // The merged path takes the visible agents' arrays, compacted; it picks LODs itself.
  visible_placements_.resize(stats.visible);
  visible_playback_.resize(stats.visible);
  visible_frames_.resize(stats.visible);
  const std::span<const Placement> placements = crowd_->placements();
  const std::span<const AgentPlayback> playback = crowd_->playback();
  for (uint32_t v = 0; v < stats.visible; ++v) {
    const uint32_t a = visible_[v];
    visible_placements_[v] = placements[a];
    visible_playback_[v] = playback[a];
    visible_frames_[v] = frames_[a];
  }
  const render::MergedScene scene{
      &package_->skeleton, {}, package_->clips, &package_->animation, package_->lods};
  const render::MergedFrameStats merged = render::drawMergedCrowd(
      *merged_, scene, render::PaletteSource::kBakedFrames, view_projection, eye,
      visible_placements_, visible_playback_, visible_frames_, merged_scratch_);
  stats.draw_calls = static_cast<uint32_t>(merged.draw_calls);
}

}  // namespace throng::web
