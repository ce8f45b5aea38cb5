// CrowdScene: the spiral layout of a mixed crowd, picking, the selection and its tints, group
// commands and the event log.
#include "crowd_scene.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/core.h>

#include "state_tint.h"
#include "throng/crowd/character_gather.h"
#include "throng/offline/sample_character.h"

namespace throng::viewer {
namespace {

// Agents stand on a sunflower spiral (Vogel 1979): agent i at radius kSpacing * size * sqrt(i),
// turned by the golden angle each time, so agent i's place does not depend on the crowd's size
// and the disc stays evenly filled (about 1.1 character sizes between neighbours).
constexpr float kSpacing = 0.62f;
constexpr float kGoldenAngle = 2.39996323f;
// Agents of a growing crowd start their idle clip up to this many seconds in, so they do not
// move in step.
constexpr float kStartSpread = 2.0f;
// The inspected agent's log keeps this many events.
constexpr size_t kMaxEvents = 12;

// Multiplied into the selected agents' state colours (CrowdRendererDesc::state_tints): yellowed.
const glm::vec4 kSelectedTint(1.0f, 0.85f, 0.15f, 1.0f);

// A fixed pseudo-random number in [0, 1) for agent i and a stream (integer hash by Chris
// Wellons' "lowbias32"), so a regrown agent gets back its heading and start.
float unitHash(uint32_t i, uint32_t stream) {
  uint32_t x = i * 2654435761u + stream * 0x9e3779b9u;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return static_cast<float>(x >> 8) / 16777216.0f;
}

Placement spiralPlacement(uint32_t i, float size, float scale) {
  Placement p;
  p.scale = scale;
  const float r = kSpacing * size * std::sqrt(static_cast<float>(i) + 0.5f);
  const float a = kGoldenAngle * static_cast<float>(i);
  p.position = glm::vec3(r * std::cos(a), 0.0f, r * std::sin(a));
  p.heading = unitHash(i, 1) * 6.2831853f;
  return p;
}

}  // namespace

ViewerCharacter makeViewerCharacter(cli::CrowdInput input) {
  ViewerCharacter c;
  std::vector<AgentState> missing;
  c.clip_set = clipSetByName(input.package.clips, 0, &missing);
  if (!missing.empty()) {
    std::string list;
    for (AgentState s : missing)
      list += fmt::format("{}{}", list.empty() ? "" : ", ", agentStateName(s));
    c.clip_note = fmt::format("no clip named for {}: played by clip 0 ({})", list,
                              input.package.clips[0].name);
  }
  if (input.sample) {
    // The sample's walk and run are in place; these speeds keep its planted feet from sliding.
    c.clip_set.walk_speed = kSampleWalkSpeed;
    c.clip_set.run_speed = kSampleRunSpeed;
  }
  c.input = std::move(input);
  return c;
}

namespace {

// Every character's clips and clip set, for the crowd.
std::vector<CrowdCharacter> crowdCharacters(std::span<const ViewerCharacter* const> characters) {
  std::vector<CrowdCharacter> out;
  for (const ViewerCharacter* c : characters) out.push_back({c->input.package.clips, c->clip_set});
  return out;
}

}  // namespace

CrowdScene::CrowdScene(render::Device& device, std::span<const ViewerCharacter* const> characters,
                       const render::CrowdRendererDesc& desc)
    : device_(&device),
      characters_(characters.begin(), characters.end()),
      desc_(desc),
      crowd_(crowdCharacters(characters)) {
  size_ = 0.0f;
  for (const ViewerCharacter* c : characters_) size_ = std::max(size_, c->input.size);
  for (const ViewerCharacter* c : characters_) scales_.push_back(size_ / c->input.size);
}

Result<std::unique_ptr<CrowdScene>> CrowdScene::create(
    render::Device& device, std::span<const ViewerCharacter* const> characters,
    const render::CrowdRendererDesc& desc, uint32_t agents) {
  std::unique_ptr<CrowdScene> scene(new CrowdScene(device, characters, desc));
  if (Status s = scene->setRendererDesc(desc); !s.ok()) return s;
  scene->setAgentCount(agents);
  return scene;
}

void CrowdScene::setAgentCount(uint32_t agents) {
  agents = std::clamp<uint32_t>(agents, 1, kMaxAgents);
  const uint32_t now = crowd_.agentCount();
  if (agents < now) {
    crowd_.truncate(agents);
    flags_.resize(agents);
    std::erase_if(selection_, [agents](uint32_t a) { return a >= agents; });
    if (watched_ && *watched_ >= agents) watched_.reset();
  }
  const uint32_t count = static_cast<uint32_t>(characters_.size());
  for (uint32_t i = now; i < agents; ++i) {
    const uint16_t c = static_cast<uint16_t>(i % count);
    crowd_.addAgent(spiralPlacement(i, size_, scales_[c]), unitHash(i, 2) * kStartSpread, c);
  }
  flags_.resize(agents, 0);
}

Status CrowdScene::setRendererDesc(const render::CrowdRendererDesc& desc) {
  std::vector<const Package*> packages;
  std::vector<std::string> names;
  for (const ViewerCharacter* c : characters_) {
    packages.push_back(&c->input.package);
    names.push_back(c->input.name);
  }
  // The renderer tints by state: on the gpu path the crowd lives on the GPU and the CPU's states
  // lag (read back on demand), so tints made from them here would too.
  render::CrowdRendererDesc tinted = desc;
  tinted.state_tints = cli::kStateTints;
  Result<std::unique_ptr<render::MixedCrowdRenderer>> renderer =
      render::MixedCrowdRenderer::create(*device_, packages, tinted, names);
  if (!renderer.ok()) return renderer.status();
  renderer_ = std::move(renderer).value();
  desc_ = desc;
  info_agent_.reset();
  return Status::okStatus();
}

const ViewerCharacter& CrowdScene::characterOf(uint32_t agent) const {
  return *characters_[crowd_.agentCharacters()[agent]];
}

float CrowdScene::radius() const {
  return kSpacing * size_ * std::sqrt(static_cast<float>(agentCount()) + 0.5f) + size_;
}

int CrowdScene::lodCount() const {
  int lods = renderer_->renderer(0).lodCount();
  for (size_t c = 1; c < renderer_->characterCount(); ++c)
    lods = std::min(lods, renderer_->renderer(c).lodCount());
  return lods;
}

uint32_t CrowdScene::impostorAgents() const {
  uint32_t agents = 0;
  for (size_t c = 0; c < renderer_->characterCount(); ++c) {
    const render::CrowdRenderer& r = renderer_->renderer(c);
    const std::vector<uint32_t>& per_lod = r.stats().agents_per_lod;
    const int lod = r.impostorLod();
    if (lod >= 0 && static_cast<size_t>(lod) < per_lod.size()) agents += per_lod[lod];
  }
  return agents;
}

void CrowdScene::gatherCharacter(uint16_t c, std::vector<Placement>& placements,
                                 std::vector<AgentPlayback>& playback,
                                 std::vector<uint32_t>& agents) const {
  const uint32_t n = crowd_.agentCount();
  placements.resize(n);
  playback.resize(n);
  agents.resize(n);
  uint32_t count = 0;
  const CharacterGatherJob gather{c,
                                  crowd_.agentCharacters(),
                                  crowd_.placements(),
                                  crowd_.playback(),
                                  {},
                                  placements,
                                  playback,
                                  {},
                                  agents,
                                  &count};
  gather.run();
  placements.resize(count);
  playback.resize(count);
  agents.resize(count);
}

int64_t CrowdScene::pick(const Ray& ray) const {
  // Each character's agents against its own clips' bounds; the nearest hit of any.
  int64_t best = -1;
  float best_distance = 0.0f;
  for (uint16_t c = 0; c < characters_.size(); ++c) {
    std::vector<Placement> placements;
    std::vector<AgentPlayback> playback;
    std::vector<uint32_t> agents;
    gatherCharacter(c, placements, playback, agents);
    float distance = 0.0f;
    const int64_t hit = pickAgent(crowd_.clips(c), placements, playback, ray, &distance);
    if (hit >= 0 && (best < 0 || distance < best_distance)) {
      best = agents[static_cast<size_t>(hit)];
      best_distance = distance;
    }
  }
  return best;
}

std::vector<uint32_t> CrowdScene::agentsInside(const glm::mat4& view_projection,
                                               const glm::vec2& ndc_a,
                                               const glm::vec2& ndc_b) const {
  std::vector<uint32_t> inside;
  for (uint16_t c = 0; c < characters_.size(); ++c) {
    std::vector<Placement> placements;
    std::vector<AgentPlayback> playback;
    std::vector<uint32_t> agents;
    gatherCharacter(c, placements, playback, agents);
    std::vector<uint32_t> of_character;
    agentsInRectangle(crowd_.clips(c), placements, playback, view_projection, ndc_a, ndc_b,
                      of_character);
    for (uint32_t i : of_character) inside.push_back(agents[i]);
  }
  std::sort(inside.begin(), inside.end());
  return inside;
}

void CrowdScene::select(const std::vector<uint32_t>& agents, bool add) {
  if (!add) clearSelection();
  for (uint32_t a : agents) {
    if (a >= flags_.size() || flags_[a]) continue;
    flags_[a] = 1;
    selection_.push_back(a);
  }
}

void CrowdScene::clearSelection() {
  for (uint32_t a : selection_) flags_[a] = 0;
  selection_.clear();
}

std::optional<uint32_t> CrowdScene::inspected() const {
  if (selection_.empty()) return std::nullopt;
  return selection_.front();
}

template <typename F>
void CrowdScene::forGroup(Group group, F&& f) {
  if (group == Group::kEverybody) {
    for (uint32_t a = 0; a < crowd_.agentCount(); ++a) f(a);
  } else {
    for (uint32_t a : selection_) f(a);
  }
}

void CrowdScene::readBack() {
  // CPU paths: current already. A failure leaves the copy as it was (the next draw reports it).
  (void)renderer_->readBack(crowd_, true);
}

void CrowdScene::command(Group group, CommandType type, const glm::vec2& target) {
  readBack();  // the group's formation around where its agents stand now
  glm::dvec2 sum(0.0);
  size_t count = 0;
  forGroup(group, [&](uint32_t a) {
    const glm::vec3& p = crowd_.placements()[a].position;
    sum += glm::dvec2(p.x, p.z);
    ++count;
  });
  if (count == 0) return;
  const glm::vec2 center(sum / static_cast<double>(count));
  forGroup(group, [&](uint32_t a) {
    const glm::vec3& p = crowd_.placements()[a].position;
    crowd_.submit({a, type, target + (glm::vec2(p.x, p.z) - center)});
  });
}

void CrowdScene::playClip(Group group, const std::string& clip) {
  forGroup(group, [&](uint32_t a) {
    const int index = findClip(crowd_.clips(crowd_.agentCharacters()[a]), clip);
    if (index < 0) return;
    Command c;
    c.agent = a;
    c.type = CommandType::kPlay;
    c.clip = static_cast<uint16_t>(index);
    c.loop = true;
    crowd_.submit(c);
  });
}

void CrowdScene::setSpeed(Group group, float speed) {
  forGroup(group, [&](uint32_t a) { crowd_.setSpeed(a, speed); });
}

void CrowdScene::watchInspected(double now) {
  const std::optional<uint32_t> agent = inspected();
  // The gpu path: the inspected agent's state as the GPU had it a frame ago (never waiting;
  // O(agents) only while an agent is inspected).
  if (agent) (void)renderer_->readBack(crowd_, false);
  if (agent != watched_) {
    watched_ = agent;
    events_.clear();
    if (!agent) return;
    watched_state_ = crowd_.states()[*agent];
    watched_clip_ = crowd_.playback()[*agent].clip;
    events_.push_back({now, fmt::format("inspected ({})", agentStateName(watched_state_))});
    return;
  }
  if (!agent) return;
  const AgentState state = crowd_.states()[*agent];
  const uint16_t clip = crowd_.playback()[*agent].clip;
  const std::span<const BakedClip> clips = crowd_.clips(crowd_.agentCharacters()[*agent]);
  if (state != watched_state_) {
    events_.push_back(
        {now, fmt::format("{} -> {}", agentStateName(watched_state_), agentStateName(state))});
  }
  if (clip != watched_clip_ && clip < clips.size()) {
    events_.push_back({now, fmt::format("clip: {}", clips[clip].name)});
  }
  watched_state_ = state;
  watched_clip_ = clip;
  while (events_.size() > kMaxEvents) events_.pop_front();
}

void CrowdScene::update(float seconds, double now) {
  renderer_->update(crowd_, seconds);
  watchInspected(now);
}

Status CrowdScene::draw(const render::FrameView& view) {
  ++draws_;
  // The state's colour comes from the renderer (state_tints); per-agent tints only highlight the
  // selection (multiplied into it), and without one none are passed (no upload on the gpu path).
  if (selection_.empty()) return renderer_->draw(view, crowd_, {});
  const uint32_t n = crowd_.agentCount();
  tints_.resize(n);
  for (uint32_t a = 0; a < n; ++a) tints_[a] = flags_[a] ? kSelectedTint : glm::vec4(1.0f);
  return renderer_->draw(view, crowd_, tints_);
}

const render::AgentDrawInfo& CrowdScene::inspectedDrawInfo() {
  const std::optional<uint32_t> agent = inspected();
  if (!agent) {
    info_agent_.reset();
    info_ = {};
    return info_;
  }
  const uint64_t every = renderer_->path() == render::RenderPath::kGpu ? kGpuDrawInfoEvery : 1;
  if (agent != info_agent_ || draws_ - info_draw_ >= every) {
    info_ = renderer_->agentDrawInfo(crowd_, *agent);
    info_agent_ = agent;
    info_draw_ = draws_;
    ++draw_info_reads_;
  }
  return info_;
}

}  // namespace throng::viewer
