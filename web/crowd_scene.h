// The page's scene: a crowd of every character shown so far, driven by random commands, drawn
// each frame through the library's mixed-crowd front end (render::MixedCrowdRenderer) on the path
// the user picks.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/crowd/crowd.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"
#include "throng/render/mixed_crowd_renderer.h"

namespace throng::web {

// The largest crowd the page accepts: 32-byte instance records and the merged paths' CPU
// palettes (23 joints x 48 bytes per agent for the sample) stay a few megabytes.
inline constexpr uint32_t kMaxAgents = 50000;

// One character of the crowd: its package and which clip each state plays.
struct SceneCharacter {
  const Package* package = nullptr;  // outlives the scene
  ClipSet clip_set;
};

class CrowdScene {
 public:
  // Builds a renderer for every path `device` can draw the characters with (instanced needs
  // WebGL2; the merged paths need LODs whose palettes fit the vertex uniforms) and starts on the
  // path MixedCrowdRenderer picks itself. Agent i is of character i % count, every character
  // scaled to stand as tall as the largest. The error of the automatic choice when no path can
  // draw the characters.
  // `impostors`: CrowdRendererDesc::impostors (a character's impostor drawn as its last LOD when
  // its package has one).
  static Result<std::unique_ptr<CrowdScene>> create(render::Device& device,
                                                    std::span<const SceneCharacter> characters,
                                                    bool impostors = true);

  // Whether `path` (not kAuto) can draw here; why not, when it cannot.
  bool supports(render::RenderPath path) const;
  const std::string& whyNot(render::RenderPath path) const;
  // kUnsupported (naming why) when the device or the characters cannot use `path`; kAuto goes
  // back to the automatic choice.
  Status setPath(render::RenderPath path);
  render::RenderPath path() const { return path_; }
  // The shadows of every path's renderer (CrowdRenderer::setShadows: a shadow map, blob shadows
  // or none; kMap draws blobs where the device has no depth textures). The scene starts with the
  // tools' default (cli::addGround). What the current path draws, and why:
  void setShadows(render::ShadowMode shadows);
  render::ShadowMode shadows() const;
  const std::string& shadowReason() const;
  // Why the automatic choice is what it is (CrowdRenderer::pathReason of the first character).
  const std::string& autoReason() const { return auto_reason_; }
  // Places `count` agents (clamped to [1, kMaxAgents]) on a grid, idle, with the same random
  // commands every time for the same count.
  void setAgentCount(uint32_t count);
  uint32_t agentCount() const { return crowd_->agentCount(); }
  // The tallest character's size: every character stands this tall.
  float characterSize() const { return character_size_; }
  // Radius (world units) of the ground the crowd stands and walks on, centred on the origin.
  float radius() const;

  // Applies this frame's random commands, advances the crowd by `seconds` and draws it, with the
  // ground and the shadows, seen through `view` into the bound framebuffer. The renderer's
  // status or kGlError on failure.
  Status frame(float seconds, const render::FrameView& view);
  // Draws the scenery alone (the ground, no characters, no shadows) as `frame` would: what the
  // page compares a frame with to measure how much of it the crowd covers.
  Status drawScenery(const render::FrameView& view);
  // The agents the last frame drew as impostors (every character), and why the first character
  // draws them or not (CrowdRenderer::impostorReason).
  uint32_t impostorAgents() const;
  const std::string& impostorReason() const;
  // Counters and CPU phase times of the last frame, over every character.
  const render::CrowdFrameStats& stats() const;

 private:
  static constexpr int kPaths = render::kRenderPathCount;

  CrowdScene() = default;
  render::MixedCrowdRenderer& renderer() { return *renderers_[static_cast<int>(path_)]; }
  void issueCommands();

  std::vector<SceneCharacter> characters_;
  std::vector<CrowdCharacter> crowd_characters_;
  std::vector<float> scales_;  // per character: Placement::scale
  float character_size_ = 1.0f;
  // One renderer per concrete path (index: RenderPath; kAuto's slot stays empty), or why none.
  std::array<std::unique_ptr<render::MixedCrowdRenderer>, kPaths> renderers_;
  std::array<std::string, kPaths> why_not_;
  render::RenderPath auto_path_ = render::RenderPath::kInstanced;
  std::string auto_reason_;
  render::RenderPath path_ = render::RenderPath::kInstanced;

  std::unique_ptr<Crowd> crowd_;
  std::unique_ptr<Crowd> nobody_;  // an empty crowd: drawScenery's
  std::mt19937 rng_;
  float half_extent_ = 0.0f;  // the grid's half width, world units
  float command_clock_ = 0.0f;
};

}  // namespace throng::web
