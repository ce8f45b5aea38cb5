// The page's scene: random commands, state tints, and the front end's renderer of each path.
#include "crowd_scene.h"

#include <algorithm>
#include <cmath>

#include "scenery.h"
#include "state_tint.h"

namespace throng::web {
namespace {

// The crowd gets new commands this often (seconds), for about one agent in kCommandShare.
constexpr float kCommandPeriod = 0.5f;
constexpr uint32_t kCommandShare = 12;
// Distance between neighbours on the starting grid, in character sizes.
constexpr float kGridSpacing = 1.1f;
constexpr uint32_t kSeed = 1;

}  // namespace

Result<std::unique_ptr<CrowdScene>> CrowdScene::create(render::Device& device,
                                                       const Package& package,
                                                       const ClipSet& clip_set) {
  std::unique_ptr<CrowdScene> scene(new CrowdScene());
  scene->package_ = &package;
  scene->clip_set_ = clip_set;
  if (!package.lods.empty()) {
    scene->character_size_ =
        std::max(computeBounds(package.lods[0].mesh.positions).largestExtent(), 1e-3f);
  }
  render::CrowdRendererDesc automatic_desc;
  cli::addGround(automatic_desc);
  render::CrowdRenderer automatic(device, package, automatic_desc);
  if (!automatic.ok()) return automatic.status();
  scene->auto_path_ = automatic.path();
  scene->auto_reason_ = automatic.pathReason();
  scene->path_ = scene->auto_path_;
  scene->renderers_[static_cast<int>(scene->auto_path_)].emplace(std::move(automatic));
  for (int p = 0; p < kPaths; ++p) {
    const auto path = static_cast<render::RenderPath>(p);
    if (path == render::RenderPath::kAuto) {
      scene->why_not_[p] = "not a path of its own";
      continue;
    }
    if (scene->renderers_[p]) continue;
    render::CrowdRendererDesc desc;
    desc.path = path;
    cli::addGround(desc);
    render::CrowdRenderer renderer(device, package, desc);
    if (renderer.ok()) {
      scene->renderers_[p].emplace(std::move(renderer));
    } else {
      scene->why_not_[p] = renderer.status().message();
    }
  }
  scene->setAgentCount(1);
  return scene;
}

bool CrowdScene::supports(render::RenderPath path) const {
  return renderers_[static_cast<int>(path)].has_value();
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
  tints_.resize(count);
  nobody_ = std::make_unique<Crowd>(package_->clips, clip_set_);
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
  const std::span<const AgentState> states = crowd_->states();
  for (size_t a = 0; a < states.size(); ++a) tints_[a] = cli::stateTint(states[a]);
  return renderer().draw(view, *crowd_, tints_);
}

Status CrowdScene::drawScenery(const render::FrameView& view) {
  return renderer().draw(view, *nobody_);
}

const render::CrowdFrameStats& CrowdScene::stats() const {
  return renderers_[static_cast<int>(path_)]->stats();
}

}  // namespace throng::web
