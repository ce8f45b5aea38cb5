// throng-viewer: a window onto a crowd (GLFW, OpenGL ES through EGL, Dear ImGui panels), built on
// the library's public headers only, as a user's program would be.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "character_loader.h"
#include "crowd_scene.h"
#include "orbit_camera.h"
#include "shading_options.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"
#include "throng/render/mixed_crowd_renderer.h"

struct GLFWwindow;

namespace throng::viewer {

// Exit codes, as the throng CLI's (docs/errors.md, "Command line").
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

struct ViewerOptions {
  std::vector<std::string> inputs;  // the crowd's characters (loaded before the window opens)
  uint32_t agents = 2000;
  render::RenderPath path = render::RenderPath::kAuto;
  bool es2 = false;  // an OpenGL ES 2.0 context (merged batches)
  int width = 1280;  // window size, screen coordinates
  int height = 720;
  std::string screenshot;  // write the last frame here and exit
  int frames = 0;          // frames to run before the screenshot (0: no limit)
  bool vsync = true;
  bool lod_colors = false;
  std::vector<std::string> drops;  // loaded as if dropped onto the window at the start
  std::shared_ptr<const render::ShaderSource>
      shader;  // --shader: the crowd's shading; null: built-in
  render::ShadowMode shadows = render::ShadowMode::kMap;  // --shadows (the panel changes it)
  // --impostors: empty = auto (drawn where the package has one), true = on (a character without
  // one, dropped ones too, gets one baked in memory: seconds), false = off; the panel toggles it.
  std::optional<bool> impostors;
  std::optional<uint32_t> inspect;  // --inspect: the agent selected (and inspected) at the start
};

// Prints "throng-viewer: <message>" to standard error and returns kExitFailure.
int fail(const std::string& message);

class Viewer {
 public:
  Viewer(ViewerOptions options, std::vector<ViewerCharacter> characters);
  ~Viewer();
  Viewer(const Viewer&) = delete;
  Viewer& operator=(const Viewer&) = delete;

  // Opens the window and runs until it is closed (or the screenshot is written): the exit code.
  int run();

  // Called from GLFW's drop callback.
  void onDrop(int count, const char** paths);

 private:
  struct Message {
    std::string text;
    bool error = false;
  };

  Status openWindow();
  // A scene of every character, keeping the agent count and the settings.
  Status createScene();
  void frame(float seconds);
  void takeLoads();
  void handleMouse();
  void selectWithMouse(const glm::vec2& mouse);
  void drawPanels();
  void drawCharacterPanel();
  void drawCrowdPanel();
  void drawRenderingPanel();
  void drawAgentsPanel();
  void drawHelpAndMessages();
  void drawOverlay();
  void drawSelectionPanel();
  void drawMarkers();
  void drawImGui();
  render::FrameView currentView() const;
  void addMessage(std::string text, bool error);
  glm::vec2 toNdc(const glm::vec2& pixel) const;
  std::optional<glm::vec2> groundPoint(const glm::vec2& pixel) const;
  void frameCrowd();
  void frameSelection();
  void applyRenderSettings();
  void printScreenshotSummary(const render::Image& image);

  ViewerOptions options_;
  std::deque<std::unique_ptr<ViewerCharacter>> characters_;  // the crowd's, in the order added
  GLFWwindow* window_ = nullptr;
  bool glfw_ready_ = false;
  bool imgui_ready_ = false;
  bool imgui_gl_ready_ = false;  // ImGui's OpenGL back-end started
  std::unique_ptr<render::Device> device_;
  std::unique_ptr<CrowdScene> scene_;
  cli::OrbitCamera camera_;
  CharacterLoader loader_;
  std::deque<Message> messages_;

  // Controls.
  int agents_ = 0;
  int path_index_ = 0;
  int fixed_lod_ = -1;  // -1: the LOD rule
  bool lod_tint_ = false;
  float lod_threshold_ = kDefaultLodThresholdPx;  // pixels
  bool ground_ = true;
  bool impostors_ = true;     // CrowdRendererDesc::impostors (the panel's checkbox)
  int shadows_ = 0;           // render::ShadowMode
  int applied_shadows_ = -1;  // the renderer's (setShadows when the panel changes it)
  bool fog_ = true;
  float fog_scale_ = 1.0f;
  bool vsync_ = true;
  int group_ = 0;  // Group
  int clip_ = 0;
  float speed_ = 1.0f;
  std::optional<glm::vec2> target_;  // walk/run target on the ground (world x, z)
  bool paused_ = false;

  // Mouse.
  bool selecting_ = false;
  glm::vec2 select_from_{0.0f};
  glm::vec2 press_at_{0.0f};

  // Timing.
  double clock_ = 0.0;  // viewer seconds (simulation)
  static constexpr int kHistory = 240;
  std::array<float, kHistory> frame_ms_{};  // wall clock between frames
  std::array<float, kHistory> crowd_ms_{};  // beginFrame .. crowd drawn and finished
  int history_at_ = 0;
  int history_count_ = 0;
  std::vector<float> all_frame_ms_;  // every frame (screenshot runs report the median)
  std::vector<float> all_crowd_ms_;
};

}  // namespace throng::viewer
