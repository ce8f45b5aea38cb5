// The viewer's window and frame loop: GLFW + EGL context, the device over it, mouse handling,
// dropped files, the crowd frame and the panels, and the screenshot.
#include "viewer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#define GLFW_INCLUDE_NONE
#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <fmt/core.h>
#include <imgui.h>

#include "gles_version.h"
#include "scenery.h"
#include "throng/crowd/picking.h"
#include "throng/render/capture.h"

namespace throng::viewer {
namespace {

// A mouse button released within this many pixels of where it was pressed is a click.
constexpr float kClickPixels = 4.0f;
// Frame steps are capped so a stall (a load, a breakpoint) does not teleport the crowd.
constexpr float kMaxStepSeconds = 0.1f;
// Screenshot runs step the crowd by this much per frame, whatever the wall clock says, so the
// same command line gives the same picture.
constexpr float kScreenshotStepSeconds = 1.0f / 30.0f;
// Messages shown at once in the panel.
constexpr size_t kMaxMessages = 6;
// The far plane without fog, in crowd radii beyond the target.
constexpr float kFarRadii = 6.0f;
// A mouse-wheel step moves the camera this share of its distance in.
constexpr float kZoomPerStep = 0.88f;

std::string g_glfw_error;  // GLFW's last error, for messages (GLFW reports through a callback)

void onGlfwError(int code, const char* text) {
  g_glfw_error = fmt::format("{} (GLFW error 0x{:x})", text ? text : "unknown", code);
}

void onDrop(GLFWwindow* window, int count, const char** paths) {
  static_cast<Viewer*>(glfwGetWindowUserPointer(window))->onDrop(count, paths);
}

std::string noWindowMessage() {
  std::string message = fmt::format("cannot open a window: {}", g_glfw_error);
  if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) {
    message +=
        "; no display (neither DISPLAY nor WAYLAND_DISPLAY is set): run it in a desktop "
        "session, or headless under xvfb-run";
  }
  return message;
}

}  // namespace

int fail(const std::string& message) {
  fmt::print(stderr, "throng-viewer: {}\n", message);
  return kExitFailure;
}

Viewer::Viewer(ViewerOptions options, std::vector<ViewerCharacter> characters)
    : options_(std::move(options)) {
  for (ViewerCharacter& c : characters) {
    characters_.push_back(std::make_unique<ViewerCharacter>(std::move(c)));
  }
  agents_ = static_cast<int>(options_.agents);
  path_index_ = static_cast<int>(options_.path);
  lod_tint_ = options_.lod_colors;
  shadows_ = static_cast<int>(options_.shadows);
  impostors_ = options_.impostors.value_or(true);
  vsync_ = options_.vsync;
}

Viewer::~Viewer() {
  // GL objects go while the context is still current, before the window and its context.
  scene_.reset();
  device_.reset();
  if (imgui_gl_ready_) ImGui_ImplOpenGL3_Shutdown();
  if (imgui_ready_) {
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  if (window_) glfwDestroyWindow(window_);
  if (glfw_ready_) glfwTerminate();
}

void Viewer::onDrop(int count, const char** paths) {
  for (int i = 0; i < count; ++i) {
    addMessage(fmt::format("loading {}", paths[i]), false);
    loader_.load(paths[i], options_.impostors.value_or(false));
  }
}

void Viewer::addMessage(std::string text, bool error) {
  // Also on the terminal: errors on standard error, the rest (loads, notes) on standard output.
  fmt::print(error ? stderr : stdout, "throng-viewer: {}\n", text);
  messages_.push_back({std::move(text), error});
  while (messages_.size() > kMaxMessages) messages_.pop_front();
}

Status Viewer::openWindow() {
  // Mesa gives an ES 3.2 context for an ES 2.0 request unless told before the display exists.
  if (options_.es2) cli::useGlesVersion(2);
  glfwSetErrorCallback(onGlfwError);
  if (!glfwInit()) return Status(ErrorCode::kGlError, noWindowMessage());
  glfw_ready_ = true;
  const int major = options_.es2 ? 2 : 3;
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_CREATION_API, GLFW_EGL_CONTEXT_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  glfwWindowHint(GLFW_DEPTH_BITS, 24);
  window_ = glfwCreateWindow(options_.width, options_.height, "throng-viewer", nullptr, nullptr);
  if (!window_) {
    return Status(ErrorCode::kGlError,
                  fmt::format("cannot create a window with an OpenGL ES {}.0 context through EGL: "
                              "{}",
                              major, g_glfw_error));
  }
  glfwSetWindowUserPointer(window_, this);
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(vsync_ ? 1 : 0);
  int width = 0, height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  render::DeviceDesc desc;
  desc.gles_major = major;
  desc.width = std::max(width, 1);
  desc.height = std::max(height, 1);
  Result<std::unique_ptr<render::Device>> device = render::Device::createForCurrentContext(desc);
  if (!device.ok()) return device.status();
  device_ = std::move(device).value();
  if (options_.es2 && device_->caps().gles_major != 2) {
    addMessage(fmt::format("asked for OpenGL ES 2.0, got '{}' (MESA_GLES_VERSION_OVERRIDE is {})",
                           device_->caps().version,
                           std::getenv("MESA_GLES_VERSION_OVERRIDE")
                               ? std::getenv("MESA_GLES_VERSION_OVERRIDE")
                               : "unset"),
               true);
  }

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  imgui_ready_ = true;
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini left in the working folder
  ImGui::StyleColorsDark();
  ImGui::GetStyle().WindowRounding = 4.0f;
  // ImGui's GLFW back-end chains to callbacks set before it: the drop callback goes first.
  glfwSetDropCallback(window_, viewer::onDrop);
  ImGui_ImplGlfw_InitForOther(window_, true);
  // The back-end is built for ES 2.0 (tools/viewer/CMakeLists.txt): GLSL ES 1.00 on any context.
  if (!ImGui_ImplOpenGL3_Init("#version 100")) {
    return Status(ErrorCode::kGlError, "Dear ImGui's OpenGL ES back-end did not start");
  }
  imgui_gl_ready_ = true;
  return Status::okStatus();
}

Status Viewer::createScene() {
  render::CrowdRendererDesc desc;
  desc.path = static_cast<render::RenderPath>(path_index_);
  if (fixed_lod_ >= 0) desc.fixed_lod = fixed_lod_;
  desc.lod_tint = lod_tint_;
  desc.lod_threshold_pixels = lod_threshold_;
  desc.ground.grid = ground_;
  desc.shadows = static_cast<render::ShadowMode>(shadows_);
  desc.shader = options_.shader;
  desc.impostors = impostors_;
  std::vector<const ViewerCharacter*> characters;
  // The LODs every character draws: its meshes, and its impostor when it has one and they are on.
  const auto drawn_lods = [&](const ViewerCharacter& c) {
    const Package& p = c.input.package;
    return p.lods.size() + (impostors_ && !p.impostor.empty() ? 1 : 0);
  };
  size_t lods = drawn_lods(*characters_[0]);
  for (const auto& c : characters_) {
    characters.push_back(c.get());
    lods = std::min(lods, drawn_lods(*c));
  }
  // A character may have fewer LODs than the fixed one asked for before.
  if (desc.fixed_lod && *desc.fixed_lod >= static_cast<int>(lods)) desc.fixed_lod.reset();
  Result<std::unique_ptr<CrowdScene>> scene =
      CrowdScene::create(*device_, characters, desc, static_cast<uint32_t>(agents_));
  if (!scene.ok()) return scene.status();
  const bool first = !scene_;
  scene_ = std::move(scene).value();
  applied_shadows_ = shadows_;
  fixed_lod_ = desc.fixed_lod.value_or(-1);
  if (first) frameCrowd();
  return Status::okStatus();
}

void Viewer::applyRenderSettings() {
  render::MixedCrowdRenderer& r = scene_->renderer();
  r.setLodTint(lod_tint_);
  r.setLodThresholdPixels(lod_threshold_);
  render::GroundDesc ground = r.ground();
  ground.grid = ground_;
  r.setGround(ground);
  if (applied_shadows_ != shadows_) {
    r.setShadows(static_cast<render::ShadowMode>(shadows_));
    applied_shadows_ = shadows_;
    addMessage("shadows: " + r.shadowReason(), false);
  }
}

void Viewer::frameCrowd() {
  if (!scene_) return;
  const float aspect = static_cast<float>(device_->width()) / static_cast<float>(device_->height());
  camera_.frame(glm::vec2(0.0f), scene_->radius(), scene_->characterSize(), aspect);
}

void Viewer::frameSelection() {
  if (!scene_ || scene_->selection().empty()) return;
  scene_->readBack();
  glm::vec2 low(1e30f), high(-1e30f);
  for (uint32_t a : scene_->selection()) {
    const glm::vec3& p = scene_->crowd().placements()[a].position;
    low = glm::min(low, glm::vec2(p.x, p.z));
    high = glm::max(high, glm::vec2(p.x, p.z));
  }
  const float aspect = static_cast<float>(device_->width()) / static_cast<float>(device_->height());
  camera_.frame(0.5f * (low + high), 0.5f * glm::length(high - low) + scene_->characterSize(),
                scene_->characterSize(), aspect);
}

render::FrameView Viewer::currentView() const {
  const float aspect =
      static_cast<float>(device_->width()) / static_cast<float>(std::max(device_->height(), 1));
  render::FrameView fogged;
  fogged.eye = camera_.eye();
  const float radius = scene_ ? scene_->radius() : 1.0f;
  const float size = scene_ ? scene_->characterSize() : 1.0f;
  if (fog_) cli::addFog(fogged, glm::vec2(0.0f), radius, size, fog_scale_);
  const float far_plane = fog_ ? 1.05f * fogged.fog.end
                               : glm::length(fogged.eye) + kFarRadii * (radius + camera_.distance);
  render::FrameView view = camera_.view(aspect, far_plane);
  view.fog = fogged.fog;
  return view;
}

glm::vec2 Viewer::toNdc(const glm::vec2& pixel) const {
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  return glm::vec2(2.0f * pixel.x / std::max(size.x, 1.0f) - 1.0f,
                   1.0f - 2.0f * pixel.y / std::max(size.y, 1.0f));
}

std::optional<glm::vec2> Viewer::groundPoint(const glm::vec2& pixel) const {
  const Ray ray = render::viewRay(currentView(), toNdc(pixel));
  if (!(ray.direction.y < 0.0f)) return std::nullopt;
  const float t = -ray.origin.y / ray.direction.y;
  if (t < 0.0f) return std::nullopt;
  const glm::vec3 hit = ray.origin + t * ray.direction;
  return glm::vec2(hit.x, hit.z);
}

void Viewer::handleMouse() {
  ImGuiIO& io = ImGui::GetIO();
  const glm::vec2 mouse(io.MousePos.x, io.MousePos.y);
  const glm::vec2 delta(io.MouseDelta.x, io.MouseDelta.y);
  if (!io.WantCaptureKeyboard) {
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) scene_->clearSelection();
    if (ImGui::IsKeyPressed('F')) frameCrowd();
    if (ImGui::IsKeyPressed('G')) frameSelection();
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space))) paused_ = !paused_;
  }
  if (io.WantCaptureMouse && !selecting_) return;
  if (io.MouseWheel != 0.0f) camera_.zoom(std::pow(kZoomPerStep, io.MouseWheel));
  const bool pan = ImGui::IsMouseDragging(ImGuiMouseButton_Middle) ||
                   (io.KeyShift && ImGui::IsMouseDragging(ImGuiMouseButton_Right));
  const bool orbit = !pan && (ImGui::IsMouseDragging(ImGuiMouseButton_Right) ||
                              (io.KeyAlt && ImGui::IsMouseDragging(ImGuiMouseButton_Left)));
  if (pan) camera_.pan(delta, io.DisplaySize.y);
  if (orbit) camera_.orbit(delta);
  if (ImGui::IsMouseReleased(ImGuiMouseButton_Right) &&
      io.MouseDragMaxDistanceSqr[ImGuiMouseButton_Right] < kClickPixels * kClickPixels) {
    if (std::optional<glm::vec2> point = groundPoint(mouse)) target_ = point;
  }
  // Left button: a click picks one agent, a drag selects those inside the box (shift adds).
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && !io.KeyAlt) {
    selecting_ = true;
    select_from_ = mouse;
  }
  if (selecting_ && ImGui::IsMouseReleased(ImGuiMouseButton_Left)) {
    selecting_ = false;
    selectWithMouse(mouse);
  }
}

void Viewer::selectWithMouse(const glm::vec2& mouse) {
  const bool add = ImGui::GetIO().KeyShift;
  const render::FrameView view = currentView();
  scene_->readBack();  // the gpu path: pick where the agents stand on the GPU
  if (glm::length(mouse - select_from_) < kClickPixels) {
    const int64_t hit = scene_->pick(render::viewRay(view, toNdc(mouse)));
    if (hit >= 0) {
      scene_->select({static_cast<uint32_t>(hit)}, add);
    } else if (!add) {
      scene_->clearSelection();
    }
  } else {
    scene_->select(scene_->agentsInside(view.view_projection, toNdc(select_from_), toNdc(mouse)),
                   add);
  }
}

void Viewer::drawMarkers() {
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  if (selecting_) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const ImVec2 from(select_from_.x, select_from_.y);
    draw->AddRectFilled(from, mouse, IM_COL32(255, 215, 40, 40));
    draw->AddRect(from, mouse, IM_COL32(255, 215, 40, 200));
  }
  if (target_) {
    // The target as a ring on the ground: project points of a circle around it.
    const render::FrameView view = currentView();
    const float radius = 0.4f * scene_->characterSize();
    const ImVec2 size = ImGui::GetIO().DisplaySize;
    ImVec2 points[32];
    int count = 0;
    for (int i = 0; i < 32; ++i) {
      const float a = 6.2831853f * static_cast<float>(i) / 32.0f;
      const glm::vec4 clip =
          view.view_projection * glm::vec4(target_->x + radius * std::cos(a), 0.0f,
                                           target_->y + radius * std::sin(a), 1.0f);
      if (!(clip.w > 0.0f)) return;
      points[count++] = ImVec2((clip.x / clip.w * 0.5f + 0.5f) * size.x,
                               (0.5f - clip.y / clip.w * 0.5f) * size.y);
    }
    draw->AddPolyline(points, count, IM_COL32(255, 80, 60, 230), ImDrawFlags_Closed, 2.0f);
  }
}

// ImGui's ES 2.0 back-end sets its vertex attributes without a vertex array object: on ES 3 they
// must not land in the one the crowd's renderer left bound. It restores the rest of the state it
// changes but leaves its attribute arrays enabled; they are turned off again for the next frame.
void Viewer::drawImGui() {
  if (device_->caps().gles_major >= 3) glBindVertexArray(0);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  GLint attributes = 0;
  glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &attributes);
  for (GLint i = 0; i < attributes; ++i) glDisableVertexAttribArray(static_cast<GLuint>(i));
  if (const GLenum error = glGetError(); error != GL_NO_ERROR) {
    addMessage(fmt::format("drawing the panels: GL error 0x{:04x}", error), true);
  }
}

// A finished load joins the crowd: a new scene of every character (the old one stays when the
// new character cannot be drawn).
void Viewer::takeLoads() {
  while (std::optional<CharacterLoader::Finished> done = loader_.take()) {
    if (!done->input.ok()) {
      addMessage(fmt::format("could not load {}: {}", done->path, done->input.status().message()),
                 true);
      continue;
    }
    for (const Warning& w : done->input->warnings) addMessage("warning: " + w.message, false);
    characters_.push_back(
        std::make_unique<ViewerCharacter>(makeViewerCharacter(std::move(done->input).value())));
    const ViewerCharacter& added = *characters_.back();
    if (Status s = createScene(); !s.ok()) {
      addMessage(fmt::format("cannot show {}: {}", done->path, s.message()), true);
      characters_.pop_back();
      continue;
    }
    addMessage(fmt::format("showing {} in the crowd ({} clips, {} LODs; {} characters)",
                           added.input.name, added.input.package.clips.size(),
                           added.input.package.lods.size(), characters_.size()),
               false);
    if (!added.clip_note.empty()) addMessage(added.clip_note, false);
  }
}

void Viewer::frame(float seconds) {
  const double start = glfwGetTime();
  takeLoads();
  int width = 0, height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  if (width > 0 && height > 0 && (width != device_->width() || height != device_->height())) {
    if (Status s = device_->resize(width, height); !s.ok()) addMessage(s.message(), true);
  }
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  handleMouse();
  drawPanels();
  drawOverlay();
  drawMarkers();
  applyRenderSettings();

  if (!paused_) {
    scene_->update(seconds, clock_);
    clock_ += seconds;
  }
  const render::FrameView view = currentView();
  device_->beginFrame(cli::kFogColor);
  if (Status s = scene_->draw(view); !s.ok()) {
    addMessage(fmt::format("drawing the crowd: {}", s.message()), true);
  }
  const double crowd_ms = device_->finish();
  ImGui::Render();
  drawImGui();

  const float frame_ms = static_cast<float>(1000.0 * (glfwGetTime() - start));
  frame_ms_[history_at_] = frame_ms;
  crowd_ms_[history_at_] = static_cast<float>(crowd_ms);
  history_at_ = (history_at_ + 1) % kHistory;
  history_count_ = std::min(history_count_ + 1, kHistory);
  all_frame_ms_.push_back(frame_ms);
  all_crowd_ms_.push_back(static_cast<float>(crowd_ms));
}

// What a screenshot run prints: the path, the device, the crowd's counters and the frame times.
void Viewer::printScreenshotSummary(const render::Image& image) {
  std::vector<float> frame_ms = all_frame_ms_, crowd_ms = all_crowd_ms_;
  // The first frames pay for shader compilation: report the second half's medians.
  const size_t skip = frame_ms.size() / 2;
  auto median = [skip](std::vector<float>& v) {
    std::sort(v.begin() + static_cast<std::ptrdiff_t>(skip), v.end());
    return v[skip + (v.size() - skip) / 2];
  };
  const render::MixedCrowdRenderer& renderer = scene_->renderer();
  const render::CrowdFrameStats& stats = renderer.stats();
  fmt::print("path: {} ({})\n", render::renderPathName(renderer.path()),
             renderer.renderer(0).pathReason());
  fmt::print("device: {} | {}\n", device_->caps().renderer, device_->caps().version);
  std::string names;
  for (const auto& c : characters_) names += (names.empty() ? "" : ", ") + c->input.name;
  fmt::print("crowd: {} characters ({})\n", characters_.size(), names);
  fmt::print("agents: {} ({} visible), draw calls: {} (+{} ground), triangles: {}\n", stats.agents,
             stats.visible, stats.draw_calls, stats.ground_draw_calls, stats.triangles);
  fmt::print("impostors: {} drawn ({})\n", scene_->impostorAgents(),
             renderer.renderer(0).impostorReason());
  if (const std::optional<uint32_t> agent = scene_->inspected()) {
    fmt::print("inspected agent {}: draw info read {} times in {} draws\n", *agent,
               scene_->drawInfoReads(), scene_->draws());
  }
  fmt::print(
      "frame time: {:.2f} ms median of the last {} frames (crowd drawn and finished in "
      "{:.2f} ms)\n",
      median(frame_ms), frame_ms.size() - skip, median(crowd_ms));
  fmt::print("wrote {} ({}x{})\n", options_.screenshot, image.width, image.height);
}

int Viewer::run() {
  if (Status s = openWindow(); !s.ok()) return fail(s.message());
  if (Status s = createScene(); !s.ok())
    return fail(fmt::format("cannot draw the crowd on this device: {}", s.message()));
  for (const std::string& path : options_.drops)
    loader_.load(path, options_.impostors.value_or(false));
  if (options_.inspect) scene_->select({*options_.inspect}, false);
  const bool screenshot = !options_.screenshot.empty();
  int frames = 0;
  double last = glfwGetTime();
  while (!glfwWindowShouldClose(window_)) {
    glfwPollEvents();
    const double now = glfwGetTime();
    const float seconds = screenshot
                              ? kScreenshotStepSeconds
                              : std::clamp(static_cast<float>(now - last), 0.0f, kMaxStepSeconds);
    last = now;
    frame(seconds);
    // A screenshot run waits for the characters it was given to drop, so they are in it.
    const bool loading = loader_.progress().busy;
    if (options_.frames > 0 && ++frames >= options_.frames && !loading) {
      if (screenshot) {
        Result<render::Image> image = device_->readPixels();
        if (!image.ok()) return fail(image.status().message());
        if (Status s = render::writePng(*image, options_.screenshot); !s.ok()) {
          return fail(s.message());
        }
        printScreenshotSummary(*image);
      }
      return 0;
    }
    glfwSwapBuffers(window_);
  }
  return 0;
}

}  // namespace throng::viewer
