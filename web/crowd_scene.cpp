// The page's scene: random commands, state tints, and the mixed-crowd renderer of each path.
#include "crowd_scene.h"

#include <algorithm>
#include <cmath>

#include "scenery.h"
#include "state_tint.h"
#include "throng/crowd/agent_grid.h"

namespace throng::web {
namespace {

// The crowd gets new commands this often (seconds), for about one agent in kCommandShare.
constexpr float kCommandPeriod = 0.5f;
constexpr uint32_t kCommandShare = 12;
// Distance between neighbours on the starting grid, in character sizes.
constexpr float kGridSpacing = 1.1f;
constexpr uint32_t kSeed = 1;

// The page's renderer settings for `path`: ground, the tools' default shadows (a shadow map where
// the device has depth textures, else blobs) and agents coloured by state.
render::CrowdRendererDesc sceneDesc(render::RenderPath path, bool impostors) {
  render::CrowdRendererDesc desc;
  desc.path = path;
  desc.impostors = impostors;
  cli::addGround(desc);
  desc.state_tints = cli::kStateTints;
  return desc;
}

}  // namespace

Result<std::unique_ptr<CrowdScene>> CrowdScene::create(render::Device& device,
                                                       std::span<const SceneCharacter> characters,
                                                       bool impostors) {
  std::unique_ptr<CrowdScene> scene(new CrowdScene());
  scene->characters_.assign(characters.begin(), characters.end());
  std::vector<const Package*> packages;
  std::vector<float> sizes;
  for (const SceneCharacter& c : characters) {
    packages.push_back(c.package);
    scene->crowd_characters_.push_back({c.package->clips, c.clip_set});
    const float size = c.package->lods.empty()
                           ? 1.0f
                           : computeBounds(c.package->lods[0].mesh.positions).largestExtent();
    sizes.push_back(std::max(size, 1e-3f));
  }
  scene->character_size_ = *std::max_element(sizes.begin(), sizes.end());
  for (const float size : sizes) scene->scales_.push_back(scene->character_size_ / size);
  Result<std::unique_ptr<render::MixedCrowdRenderer>> automatic =
      render::MixedCrowdRenderer::create(device, packages,
                                         sceneDesc(render::RenderPath::kAuto, impostors));
  if (!automatic.ok()) return automatic.status();
  scene->auto_path_ = (*automatic)->path();
  scene->auto_reason_ = (*automatic)->renderer(0).pathReason();
  scene->path_ = scene->auto_path_;
  scene->renderers_[static_cast<int>(scene->auto_path_)] = std::move(automatic).value();
  for (int p = 0; p < kPaths; ++p) {
    const auto path = static_cast<render::RenderPath>(p);
    if (path == render::RenderPath::kAuto) {
      scene->why_not_[p] = "not a path of its own";
      continue;
    }
    if (scene->renderers_[p]) continue;
    Result<std::unique_ptr<render::MixedCrowdRenderer>> renderer =
        render::MixedCrowdRenderer::create(device, packages, sceneDesc(path, impostors));
    if (renderer.ok()) {
      scene->renderers_[p] = std::move(renderer).value();
    } else {
      scene->why_not_[p] = renderer.status().message();
    }
  }
  scene->setAgentCount(1);
  return scene;
}

bool CrowdScene::supports(render::RenderPath path) const {
  return renderers_[static_cast<int>(path)] != nullptr;
}

const std::string& CrowdScene::whyNot(render::RenderPath path) const {
  return why_not_[static_cast<int>(path)];
}

Status CrowdScene::setPath(render::RenderPath path) {
  if (path == render::RenderPath::kAuto) path = auto_path_;
  if (!supports(path))
    return Status(ErrorCode::kUnsupported, std::string("page: the ") +
                                               render::renderPathName(path) +
                                               " path is unavailable: " + whyNot(path));
  path_ = path;
  return Status::okStatus();
}

void CrowdScene::setShadows(render::ShadowMode shadows) {
  for (const std::unique_ptr<render::MixedCrowdRenderer>& r : renderers_) {
    if (r) r->setShadows(shadows);
  }
}

render::ShadowMode CrowdScene::shadows() const {
  return renderers_[static_cast<int>(path_)]->shadows();
}

const std::string& CrowdScene::shadowReason() const {
  return renderers_[static_cast<int>(path_)]->shadowReason();
}

void CrowdScene::setAgentCount(uint32_t count) {
  count = std::clamp<uint32_t>(count, 1, kMaxAgents);
  crowd_ = std::make_unique<Crowd>(crowd_characters_);
  rng_.seed(kSeed);
  command_clock_ = 0.0f;
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const AgentGrid grid = squareGrid(count, kGridSpacing * character_size_);
  half_extent_ = -grid.origin.x;
  const uint32_t characters = static_cast<uint32_t>(characters_.size());
  for (uint32_t i = 0; i < count; ++i) {
    const uint16_t character = static_cast<uint16_t>(i % characters);
    Placement p;
    p.position = grid.position(i);
    p.heading = unit(rng_) * 6.2831853f;
    p.scale = scales_[character];
    crowd_->addAgent(p, unit(rng_) * 2.0f, character);
  }
  nobody_ = std::make_unique<Crowd>(crowd_characters_);
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

Status CrowdScene::frame(float seconds, const render::FrameView& view) {
  command_clock_ += seconds;
  if (command_clock_ >= kCommandPeriod) {
    command_clock_ = std::fmod(command_clock_, kCommandPeriod);
    issueCommands();
  }
  renderer().update(*crowd_, seconds);
  return renderer().draw(view, *crowd_);
}

Status CrowdScene::drawScenery(const render::FrameView& view) {
  return renderer().draw(view, *nobody_);
}

uint32_t CrowdScene::impostorAgents() const {
  const render::MixedCrowdRenderer& mixed = *renderers_[static_cast<int>(path_)];
  uint32_t agents = 0;
  for (size_t c = 0; c < mixed.characterCount(); ++c) {
    const render::CrowdRenderer& r = mixed.renderer(c);
    const std::vector<uint32_t>& per_lod = r.stats().agents_per_lod;
    const int lod = r.impostorLod();
    if (lod >= 0 && static_cast<size_t>(lod) < per_lod.size()) agents += per_lod[lod];
  }
  return agents;
}

const std::string& CrowdScene::impostorReason() const {
  return renderers_[static_cast<int>(path_)]->renderer(0).impostorReason();
}

const render::CrowdFrameStats& CrowdScene::stats() const {
  return renderers_[static_cast<int>(path_)]->stats();
}

}  // namespace throng::web
