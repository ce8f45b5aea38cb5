// The viewer's panels: character and crowd controls, rendering settings, commands, the selection,
// messages, and the live overlay (counters, CPU phases, frame time graph, LOD histogram).
#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <fmt/core.h>
#include <imgui.h>

#include "viewer.h"

namespace throng::viewer {
namespace {

constexpr float kPanelWidth = 340.0f;
constexpr float kOverlayWidth = 330.0f;
constexpr float kMargin = 8.0f;
// The LOD threshold slider's range, pixels of screen error.
constexpr float kMinLodThreshold = 0.25f;
constexpr float kMaxLodThreshold = 32.0f;

ImVec4 toImVec4(const glm::vec4& c) {
  return ImVec4(c.r, c.g, c.b, c.a);
}

void textWrapped(const std::string& text) {
  ImGui::TextWrapped("%s", text.c_str());
}

}  // namespace

void Viewer::drawPanels() {
  ImGui::SetNextWindowPos(ImVec2(kMargin, kMargin), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth, 0.0f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("throng-viewer", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  drawCharacterPanel();
  drawCrowdPanel();
  drawRenderingPanel();
  drawAgentsPanel();
  drawSelectionPanel();
  drawHelpAndMessages();
  ImGui::End();
}

// The crowd's characters, and the loads under way.
void Viewer::drawCharacterPanel() {
  if (!ImGui::CollapsingHeader("Characters", ImGuiTreeNodeFlags_DefaultOpen)) return;
  for (size_t c = 0; c < scene_->characterCount(); ++c) {
    const ViewerCharacter& character = scene_->character(c);
    const Package& package = character.input.package;
    ImGui::Text("%s: %zu clips, %zu LODs (%s)", character.input.name.c_str(), package.clips.size(),
                package.lods.size(), character.input.how.c_str());
    if (!character.clip_note.empty()) textWrapped(character.clip_note);
  }
  const CharacterLoader::Progress progress = loader_.progress();
  if (progress.busy) {
    ImGui::Text("loading %s: %s", progress.path.c_str(), progress.step.c_str());
    ImGui::ProgressBar(progress.done);
    if (progress.queued > 0) ImGui::Text("%zu more queued", progress.queued);
  } else {
    ImGui::TextDisabled("drop a .glb, .gltf or .throng here to add it to the crowd");
  }
}

void Viewer::drawCrowdPanel() {
  if (!ImGui::CollapsingHeader("Crowd", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (ImGui::SliderInt("agents", &agents_, 1, static_cast<int>(kMaxAgents), "%d",
                       ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    scene_->setAgentCount(static_cast<uint32_t>(agents_));
  }
  ImGui::Checkbox("pause", &paused_);
  ImGui::SameLine();
  if (ImGui::Button("frame crowd (F)")) frameCrowd();
}

// The path, the LOD rule and the scenery.
void Viewer::drawRenderingPanel() {
  if (!ImGui::CollapsingHeader("Rendering", ImGuiTreeNodeFlags_DefaultOpen)) return;
  // Not held across the combos: choosing a path or impostors makes a new renderer.
  const auto renderer = [this]() -> const render::CrowdRenderer& {
    return scene_->renderer().renderer(0);
  };
  if (ImGui::BeginCombo("path",
                        render::renderPathName(static_cast<render::RenderPath>(path_index_)))) {
    for (int i = 0; i < render::kRenderPathCount; ++i) {
      if (!ImGui::Selectable(render::renderPathName(static_cast<render::RenderPath>(i)),
                             i == path_index_)) {
        continue;
      }
      render::CrowdRendererDesc desc = scene_->rendererDesc();
      desc.path = static_cast<render::RenderPath>(i);
      if (Status s = scene_->setRendererDesc(desc); s.ok()) {
        path_index_ = i;
      } else {
        addMessage(fmt::format("path {}: {}", render::renderPathName(desc.path), s.message()),
                   true);
      }
    }
    ImGui::EndCombo();
  }
  ImGui::Text("drawing: %s", render::renderPathName(renderer().path()));
  ImGui::PushTextWrapPos(ImGui::GetCursorPos().x + kPanelWidth - 20.0f);
  ImGui::TextDisabled("%s", renderer().pathReason().c_str());
  ImGui::PopTextWrapPos();
  const std::string lod_label = fixed_lod_ < 0 ? "auto" : fmt::format("{}", fixed_lod_);
  if (ImGui::BeginCombo("LOD", lod_label.c_str())) {
    for (int l = -1; l < scene_->lodCount(); ++l) {
      const std::string label = l < 0 ? "auto (the LOD rule)" : fmt::format("{}", l);
      if (!ImGui::Selectable(label.c_str(), l == fixed_lod_)) continue;
      render::CrowdRendererDesc desc = scene_->rendererDesc();
      desc.fixed_lod = l < 0 ? std::nullopt : std::optional<int>(l);
      if (Status s = scene_->setRendererDesc(desc); s.ok()) {
        fixed_lod_ = l;
      } else {
        addMessage(s.message(), true);
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SliderFloat("LOD threshold", &lod_threshold_, kMinLodThreshold, kMaxLodThreshold,
                     "%.2f px", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  ImGui::Checkbox("LOD colours", &lod_tint_);
  ImGui::SameLine();
  ImGui::Checkbox("ground", &ground_);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(80.0f);
  ImGui::Combo("shadows", &shadows_, "off\0blob\0map\0");
  if (ImGui::Checkbox("impostors", &impostors_)) {
    // The renderer draws them or not from when it is made: a new one (fixed LOD kept if drawn).
    render::CrowdRendererDesc desc = scene_->rendererDesc();
    desc.impostors = impostors_;
    // A fixed LOD that was the impostor goes back to the LOD rule when they go off.
    if (!impostors_ && desc.fixed_lod && *desc.fixed_lod == renderer().impostorLod())
      desc.fixed_lod.reset();
    if (Status s = scene_->setRendererDesc(desc); s.ok()) {
      fixed_lod_ = desc.fixed_lod.value_or(-1);
      addMessage("impostors: " + renderer().impostorReason(), false);
    } else {
      impostors_ = !impostors_;
      addMessage(fmt::format("impostors: {}", s.message()), true);
    }
  }
  ImGui::SameLine();
  ImGui::TextDisabled("%u drawn", scene_->impostorAgents());
  ImGui::Checkbox("fog", &fog_);
  if (fog_) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(120.0f);
    ImGui::SliderFloat("distance", &fog_scale_, 0.25f, 4.0f, "x%.2f", ImGuiSliderFlags_Logarithmic);
  }
  if (ImGui::Checkbox("vsync", &vsync_)) glfwSwapInterval(vsync_ ? 1 : 0);
}

// Commands, clip and speed for the selection or everybody.
void Viewer::drawAgentsPanel() {
  if (!ImGui::CollapsingHeader("Agents", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::RadioButton("selection", &group_, static_cast<int>(Group::kSelection));
  ImGui::SameLine();
  ImGui::RadioButton("everybody", &group_, static_cast<int>(Group::kEverybody));
  const Group group = static_cast<Group>(group_);
  const bool none = group == Group::kSelection && scene_->selection().empty();
  // The clips of the inspected agent's character (the first character's without one), played
  // by name by every agent whose character has it.
  const std::optional<uint32_t> inspected = scene_->inspected();
  const auto& clips =
      (inspected ? scene_->characterOf(*inspected) : scene_->character(0)).input.package.clips;
  clip_ = std::clamp(clip_, 0, static_cast<int>(clips.size()) - 1);
  ImGui::SetNextItemWidth(150.0f);
  if (ImGui::BeginCombo("##clip", clips[clip_].name.c_str())) {
    for (size_t c = 0; c < clips.size(); ++c) {
      if (ImGui::Selectable(fmt::format("{} {}", c, clips[c].name).c_str(),
                            static_cast<int>(c) == clip_)) {
        clip_ = static_cast<int>(c);
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(none);
  if (ImGui::Button("play clip")) scene_->playClip(group, clips[clip_].name);
  ImGui::SetNextItemWidth(150.0f);
  ImGui::SliderFloat("##speed", &speed_, 0.0f, kMaxSpeed, "speed %.2f");
  ImGui::SameLine();
  if (ImGui::Button("set speed")) scene_->setSpeed(group, speed_);
  ImGui::BeginDisabled(!target_.has_value());
  if (ImGui::Button("walk to")) scene_->command(group, CommandType::kWalkTo, *target_);
  ImGui::SameLine();
  if (ImGui::Button("run to")) scene_->command(group, CommandType::kRunTo, *target_);
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("attack")) scene_->command(group, CommandType::kAttack, glm::vec2(0.0f));
  ImGui::SameLine();
  if (ImGui::Button("die")) scene_->command(group, CommandType::kDie, glm::vec2(0.0f));
  ImGui::SameLine();
  if (ImGui::Button("idle")) scene_->command(group, CommandType::kIdle, glm::vec2(0.0f));
  ImGui::EndDisabled();
  if (!target_) {
    ImGui::TextDisabled("right-click the ground to set where to walk or run");
  } else {
    ImGui::TextDisabled("target %.1f, %.1f (right-click the ground to move it)", target_->x,
                        target_->y);
  }
}

void Viewer::drawHelpAndMessages() {
  if (ImGui::CollapsingHeader("Help")) {
    ImGui::TextDisabled(
        "left click: select; left drag: box select (shift adds)\n"
        "right drag or alt+left drag: orbit; wheel: zoom\n"
        "middle drag or shift+right drag: pan\n"
        "right click: walk/run target; F: frame crowd; G: frame\n"
        "selection; Esc: clear selection; space: pause");
  }
  for (const Message& m : messages_) {
    if (m.error) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    } else {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    }
    ImGui::PushTextWrapPos(ImGui::GetCursorPos().x + kPanelWidth - 20.0f);
    ImGui::TextUnformatted(m.text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
}

void Viewer::drawSelectionPanel() {
  if (!ImGui::CollapsingHeader("Selection", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const std::vector<uint32_t>& selection = scene_->selection();
  if (selection.empty()) {
    ImGui::TextDisabled("click a character, or drag a box around several");
    return;
  }
  ImGui::Text("%zu selected", selection.size());
  ImGui::SameLine();
  if (ImGui::SmallButton("frame (G)")) frameSelection();
  ImGui::SameLine();
  if (ImGui::SmallButton("clear")) scene_->clearSelection();
  const std::optional<uint32_t> agent = scene_->inspected();
  if (!agent) return;
  const Crowd& crowd = scene_->crowd();
  const std::span<const BakedClip> clips = crowd.clips(crowd.agentCharacters()[*agent]);
  const AgentPlayback& p = crowd.playback()[*agent];
  const Placement& where = crowd.placements()[*agent];
  const render::AgentDrawInfo& info = scene_->inspectedDrawInfo();
  ImGui::Text("agent %u (%s): %s", *agent, scene_->characterOf(*agent).input.name.c_str(),
              agentStateName(crowd.states()[*agent]));
  if (p.clip < clips.size()) {
    const BakedClip& clip = clips[p.clip];
    const float shown = clip.loop && clip.duration > 0.0f ? std::fmod(p.time, clip.duration)
                                                          : std::min(p.time, clip.duration);
    ImGui::Text("clip %u '%s': %.2f / %.2f s%s, speed %.2f", p.clip, clip.name.c_str(), shown,
                clip.duration, clip.loop ? " (loops)" : "", p.speed);
  }
  if (p.fade > 0.0f && p.previous_clip < clips.size()) {
    ImGui::Text("fading from '%s' (%.0f%%)", clips[p.previous_clip].name.c_str(), 100.0f * p.fade);
  }
  ImGui::Text("at %.2f, %.2f heading %.0f deg", where.position.x, where.position.z,
              glm::degrees(where.heading));
  if (info.visible) {
    ImGui::Text("LOD %d (mesh of LOD %d), draw call %d, slot %d", info.lod, info.drawn_lod,
                info.draw_call, info.slot);
  } else {
    ImGui::TextDisabled("culled: outside the view");
  }
  ImGui::TextDisabled("events (state and clip changes; clips carry no events yet):");
  for (const AgentEvent& e : scene_->inspectedEvents()) {
    ImGui::Text("  %7.2f s  %s", e.time, e.what.c_str());
  }
}

void Viewer::drawOverlay() {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x - kOverlayWidth - kMargin, kMargin), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(kOverlayWidth, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.6f);
  ImGui::Begin("overlay", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                   ImGuiWindowFlags_NoMove);
  const render::MixedCrowdRenderer& renderer = scene_->renderer();
  const render::CrowdFrameStats& stats = renderer.stats();
  const int last = (history_at_ + kHistory - 1) % kHistory;
  const float frame_ms = history_count_ > 0 ? frame_ms_[last] : 0.0f;
  float mean = 0.0f;
  for (int i = 0; i < history_count_; ++i) mean += frame_ms_[i];
  mean = history_count_ > 0 ? mean / static_cast<float>(history_count_) : 0.0f;
  ImGui::Text("%s | %s", device_->caps().version.c_str(), render::renderPathName(renderer.path()));
  ImGui::Text("frame %.2f ms (mean %.2f, %.0f fps), crowd %.2f ms", frame_ms, mean,
              mean > 0.0f ? 1000.0f / mean : 0.0f, history_count_ > 0 ? crowd_ms_[last] : 0.0f);
  ImGui::PlotLines("##frame", frame_ms_.data(), kHistory, history_at_, "frame ms", 0.0f,
                   std::max(40.0f, 1.25f * mean), ImVec2(kOverlayWidth - 16.0f, 50.0f));
  ImGui::Text("agents %u, visible %u", stats.agents, stats.visible);
  ImGui::Text("draw calls %u (+%u ground), triangles %llu", stats.draw_calls,
              stats.ground_draw_calls, static_cast<unsigned long long>(stats.triangles));
  const render::CpuPhaseTimes& cpu = stats.cpu_ms;
  if (ImGui::BeginTable("cpu", 4, ImGuiTableFlags_SizingStretchProp)) {
    const std::pair<const char*, double> phases[] = {
        {"update", cpu.update},
        {"playback", cpu.playback},
        {"cull", cpu.cull},
        {"lod", cpu.lod},
        {"pack", cpu.pack_upload},
        {"submit", cpu.submit},
        {"ground", cpu.ground},
        {"total", cpu.update + cpu.playback + cpu.cull + cpu.lod + cpu.pack_upload + cpu.submit +
                      cpu.ground}};
    for (const auto& [name, ms] : phases) {
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", name);
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", ms);
    }
    ImGui::EndTable();
  }
  // LOD histogram: one bar per LOD in its debug colour, as tall as its share of the visible.
  ImGui::TextDisabled("agents per LOD (CPU ms above are per frame)");
  const int lods = static_cast<int>(stats.agents_per_lod.size());
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = kOverlayWidth - 16.0f, height = 48.0f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  uint32_t most = 1;
  for (uint32_t c : stats.agents_per_lod) most = std::max(most, c);
  const float bar = lods > 0 ? width / static_cast<float>(lods) : width;
  for (int l = 0; l < lods; ++l) {
    const float h = height * static_cast<float>(stats.agents_per_lod[l]) / static_cast<float>(most);
    const ImVec2 low(origin.x + bar * static_cast<float>(l) + 2.0f, origin.y + height - h);
    const ImVec2 high(origin.x + bar * static_cast<float>(l + 1) - 2.0f, origin.y + height);
    draw->AddRectFilled(low, high, ImGui::GetColorU32(toImVec4(render::lodDebugColor(l))));
    const std::string count = fmt::format("{}", stats.agents_per_lod[l]);
    draw->AddText(ImVec2(low.x + 2.0f, origin.y + height + 2.0f), IM_COL32(220, 220, 220, 255),
                  count.c_str());
  }
  ImGui::Dummy(ImVec2(width, height + ImGui::GetTextLineHeight() + 4.0f));
  ImGui::End();
}

}  // namespace throng::viewer
