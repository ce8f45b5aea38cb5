// GpuCrowd: the crowd mirrored into storage buffers, one compute pass per frame, indirect draws.
#include "render/gpu_crowd.h"

#ifndef __EMSCRIPTEN__
#include <GLES3/gl31.h>
#endif

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstring>

#include <fmt/core.h>
#include <glm/gtc/type_ptr.hpp>

#include "render/gl_check.h"
#include "render/impostor_renderer.h"
#include "throng/crowd/culling.h"

namespace throng::render {

// Uniform locations of the compute program, looked up once.
struct GpuCrowd::Uniforms {
  GLint agent_count, simulate, draw, seconds, fade_step, turn_rate, walk_speed, run_speed,
      state_clip, command_first, command_count, clip_first, lod_first, lod_count, fixed_lod, planes,
      eye, last_frame, list_capacity, instances_per_row, has_tints, has_state_tints, state_tints,
      tints, lod_tint, lod_colors, lod_screen, has_ids, fade, event_times_first, gather_events,
      event_capacity;
};

#ifdef __EMSCRIPTEN__

// WebGL has no compute shaders: the path does not exist in the web build.
Result<std::unique_ptr<GpuCrowd>> GpuCrowd::create(Device&, const Package&, InstancedRenderer&) {
  return Status(ErrorCode::kUnsupported, "GPU-driven crowd: WebGL has no compute shaders");
}
GpuCrowd::~GpuCrowd() = default;
Status GpuCrowd::update(Crowd&, float, std::span<const EventHit>) {
  return Status(ErrorCode::kUnsupported, "GPU-driven crowd: WebGL has no compute shaders");
}
Status GpuCrowd::takeEvents(std::vector<UpdateEvents>&, bool) {
  return Status(ErrorCode::kUnsupported, "GPU-driven crowd: WebGL has no compute shaders");
}
Status GpuCrowd::draw(const FrameView&, const Crowd&, std::span<const glm::vec4>,
                      const GpuDrawOptions&) {
  return Status(ErrorCode::kUnsupported, "GPU-driven crowd: WebGL has no compute shaders");
}
Status GpuCrowd::draw(const FrameView&, std::span<const Placement>, std::span<const AgentPlayback>,
                      std::span<const glm::vec4>, const GpuDrawOptions&,
                      std::span<const AgentState>, std::span<const uint32_t>) {
  return Status(ErrorCode::kUnsupported, "GPU-driven crowd: WebGL has no compute shaders");
}
Result<bool> GpuCrowd::readBack(Crowd&, bool) {
  return Status(ErrorCode::kUnsupported, "GPU-driven crowd: WebGL has no compute shaders");
}
const GpuFrameCounts& GpuCrowd::counts(bool) {
  return counts_;
}
Status GpuCrowd::captureLastFrame(GpuFrameCapture&) {
  return Status(ErrorCode::kUnsupported, "GPU-driven crowd: WebGL has no compute shaders");
}
Status GpuCrowd::addImpostorLod(float, ImpostorRenderer&) {
  return Status(ErrorCode::kUnsupported, "GPU-driven crowd: WebGL has no compute shaders");
}

#else

namespace {

// The texture unit of the crowd's own textures (instance records, tints) while it creates,
// uploads and runs its pass: unit 0 keeps the animation texture (which a mixed crowd's renderers
// share, binding it once), 1 the materials, 2 drawIndirect's records. ES 3.1 guarantees 16.
constexpr int kCrowdTextureUnit = 3;

// One agent on the GPU (crowd.comp's Agent, std430).
struct GpuAgent {
  float position_heading[4];
  float target_scale_speed[4];
  float times[4];
  uint32_t codes[4];
};
static_assert(sizeof(GpuAgent) == 64, "crowd.comp's Agent is 64 bytes");

// crowd.comp's word layouts.
constexpr uint32_t kDrawWords = kDrawCommandWords;  // DrawElementsIndirectCommand
constexpr uint32_t kImpostorQuadVertices = 4;       // the impostor's: a triangle strip
// The impostor's command is a DrawArraysIndirectCommand (4 words): its fifth word, which no
// draw reads, counts the cross-fade's agents listed there too (crowd.comp's kFadeCountWord).
constexpr uint32_t kFadeCountWord = 4;
// first, count, fps, duration, axis sphere (y, radius), first event, event count, loop, period,
// 2 unused
constexpr uint32_t kClipWords = 12;
constexpr uint32_t kEventWords = 3;    // agent, clip | event << 16, weight (after a count word)
constexpr uint32_t kCommandWords = 4;  // agent, type | loop << 8 | clip << 16, target x, z
// Starting sizes; both grow by doubling.
constexpr uint32_t kMinCapacity = 1024;
constexpr uint32_t kMinCommandCapacity = 256;
// readBack(wait) and counts(wait) give the GPU this long before failing (nanoseconds).
constexpr GLuint64 kWaitNanoseconds = 60ull * 1000 * 1000 * 1000;

uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

GpuAgent packAgent(const AgentRecord& r) {
  GpuAgent g{};
  g.position_heading[0] = r.placement.position.x;
  g.position_heading[1] = r.placement.position.y;
  g.position_heading[2] = r.placement.position.z;
  g.position_heading[3] = r.placement.heading;
  g.target_scale_speed[0] = r.target.x;
  g.target_scale_speed[1] = r.target.y;
  g.target_scale_speed[2] = r.placement.scale;
  g.target_scale_speed[3] = r.playback.speed;
  g.times[0] = r.playback.time;
  g.times[1] = r.playback.previous_time;
  g.times[2] = r.playback.fade;
  g.codes[0] = uint32_t{r.playback.clip} | (uint32_t{r.playback.previous_clip} << 16);
  g.codes[1] = static_cast<uint32_t>(r.state) | (static_cast<uint32_t>(r.resume_state) << 8) |
               (uint32_t{r.play_loop ? 1u : 0u} << 16);
  return g;
}

AgentRecord unpackAgent(const GpuAgent& g) {
  AgentRecord r;
  r.placement.position =
      glm::vec3(g.position_heading[0], g.position_heading[1], g.position_heading[2]);
  r.placement.heading = g.position_heading[3];
  r.target = glm::vec2(g.target_scale_speed[0], g.target_scale_speed[1]);
  r.placement.scale = g.target_scale_speed[2];
  r.playback.speed = g.target_scale_speed[3];
  r.playback.time = g.times[0];
  r.playback.previous_time = g.times[1];
  r.playback.fade = g.times[2];
  r.playback.clip = static_cast<uint16_t>(g.codes[0] & 0xffffu);
  r.playback.previous_clip = static_cast<uint16_t>(g.codes[0] >> 16);
  r.state = static_cast<AgentState>(g.codes[1] & 0xffu);
  r.resume_state = static_cast<AgentState>((g.codes[1] >> 8) & 0xffu);
  r.play_loop = ((g.codes[1] >> 16) & 0xffu) != 0;
  return r;
}

uint8_t quantize(float v) {
  return static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
}

}  // namespace

Result<std::unique_ptr<GpuCrowd>> GpuCrowd::create(Device& device, const Package& package,
                                                   InstancedRenderer& renderer) {
  const Caps& caps = device.caps();
  if (!caps.compute || caps.max_compute_shader_storage_blocks < kGpuCrowdStorageBlocks ||
      caps.max_compute_image_uniforms < 1 ||
      caps.max_compute_work_group_invocations < static_cast<int>(kGpuAgentsPerWorkGroup) ||
      caps.max_compute_work_group_size_x < static_cast<int>(kGpuAgentsPerWorkGroup)) {
    return Status(
        ErrorCode::kUnsupported,
        fmt::format("GPU-driven crowd: needs OpenGL ES 3.1 compute with {} storage "
                    "buffers, an image and {} invocations per work group; the device "
                    "is '{}' (compute {}, {} storage buffers, {} images, {} "
                    "invocations)",
                    kGpuCrowdStorageBlocks, kGpuAgentsPerWorkGroup, caps.version,
                    caps.compute ? "on" : "off", caps.max_compute_shader_storage_blocks,
                    caps.max_compute_image_uniforms, caps.max_compute_work_group_invocations));
  }
  if (package.clips.empty() || package.clips.size() > 0xffffu || package.lods.empty() ||
      static_cast<int>(package.lods.size()) != renderer.lodCount()) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("GPU-driven crowd: {} clips and {} LODs (the renderer has {})",
                              package.clips.size(), package.lods.size(), renderer.lodCount()));
  }
  if (Status s = device.makeCurrent(); !s.ok()) return s;
  checkGl("before creating the GPU-driven crowd").ok();  // start from a clean error state
  std::unique_ptr<GpuCrowd> gpu(new GpuCrowd());
  gpu->device_ = &device;
  gpu->renderer_ = &renderer;
  gpu->lod_count_ = renderer.lodCount();
  gpu->clip_count_ = static_cast<uint32_t>(package.clips.size());
  gpu->last_frame_ = package.animation.frame_count == 0 ? 0 : package.animation.frame_count - 1;
  gpu->max_texture_size_ = caps.max_texture_size;
  gpu->max_block_bytes_ = caps.max_shader_storage_block_size;
  for (const MeshLod& lod : package.lods) {
    gpu->lod_limits_.push_back(lod.max_distance);
    gpu->lod_errors_.push_back(lod.max_error);
  }
  for (const BakedClip& clip : package.clips) {
    if (clip.events.size() > 0xffffu) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("GPU-driven crowd: clip '{}' has {} events (at most 65535: an "
                                "event's index is 16 bits, EventHit::event)",
                                clip.name, clip.events.size()));
    }
    const uint32_t first_event = static_cast<uint32_t>(gpu->event_times_.size());
    for (const ClipEvent& event : clip.events) gpu->event_times_.push_back(floatBits(event.time));
    const AxisSphere sphere = clipAxisSphere(clip.bounds);
    // sampleFrames' cycle length, in double as there, rounded once.
    const float period = static_cast<float>(static_cast<double>(clip.duration) * clip.fps);
    const uint32_t words[kClipWords] = {clip.first_frame,
                                        clip.frame_count,
                                        floatBits(clip.fps),
                                        floatBits(clip.duration),
                                        floatBits(sphere.y),
                                        floatBits(sphere.radius),
                                        first_event,
                                        static_cast<uint32_t>(clip.events.size()),
                                        clip.loop ? 1u : 0u,
                                        floatBits(period),
                                        0u,
                                        0u};
    gpu->clip_words_.insert(gpu->clip_words_.end(), words, words + kClipWords);
  }

  Result<std::string> source = embeddedShader("gles31/crowd.comp");
  if (!source.ok()) return source.status();
  ProgramDesc desc;
  desc.name = "gles31/crowd";
  desc.compute_source = std::move(source).value();
  Result<Program> program = buildProgram(desc);
  if (!program.ok()) return program.status();
  gpu->program_ = std::move(program).value();
  const GLuint id = gpu->program_.id();
  auto at = [id](const char* name) { return glGetUniformLocation(id, name); };
  gpu->uniforms_ =
      std::make_unique<Uniforms>(Uniforms{at("u_agent_count"),   at("u_simulate"),
                                          at("u_draw"),          at("u_seconds"),
                                          at("u_fade_step"),     at("u_turn_rate"),
                                          at("u_walk_speed"),    at("u_run_speed"),
                                          at("u_state_clip"),    at("u_command_first"),
                                          at("u_command_count"), at("u_clip_first"),
                                          at("u_lod_first"),     at("u_lod_count"),
                                          at("u_fixed_lod"),     at("u_planes"),
                                          at("u_eye"),           at("u_last_frame"),
                                          at("u_list_capacity"), at("u_instances_per_row"),
                                          at("u_has_tints"),     at("u_has_state_tints"),
                                          at("u_state_tints"),   at("u_tints"),
                                          at("u_lod_tint"),      at("u_lod_colors"),
                                          at("u_lod_screen"),    at("u_has_ids"),
                                          at("u_fade"),          at("u_event_times_first"),
                                          at("u_gather_events"), at("u_event_capacity")});

  glGenBuffers(1, &gpu->agents_);
  glGenBuffers(1, &gpu->frame_);
  glGenBuffers(1, &gpu->lists_);
  if (Status s = gpu->reserve(kMinCapacity); !s.ok()) return s;
  if (Status s = gpu->uploadCommands({}); !s.ok()) return s;
  if (Status s = checkGl("GPU-driven crowd: creation"); !s.ok()) return s;
  return gpu;
}

GpuCrowd::~GpuCrowd() {
  for (Readback& r : agent_copies_) {
    if (r.fence) glDeleteSync(r.fence);
    if (r.buffer) glDeleteBuffers(1, &r.buffer);
  }
  for (Readback& r : count_copies_) {
    if (r.fence) glDeleteSync(r.fence);
    if (r.buffer) glDeleteBuffers(1, &r.buffer);
  }
  for (EventBuffer& e : event_buffers_) {
    if (e.fence) glDeleteSync(e.fence);
    if (e.buffer) glDeleteBuffers(1, &e.buffer);
  }
  for (GLuint* buffer : {&agents_, &frame_, &lists_, &depth_lists_}) {
    if (*buffer) glDeleteBuffers(1, buffer);
  }
  for (GLuint* texture : {&instances_, &tints_, &extras_}) {
    if (*texture) glDeleteTextures(1, texture);
  }
}

Status GpuCrowd::reserve(uint32_t agents) {
  if (agents <= capacity_) return Status::okStatus();
  const uint64_t wanted = std::max<uint64_t>({agents, 2ull * capacity_, kMinCapacity});
  const uint32_t capacity = static_cast<uint32_t>(std::min<uint64_t>(wanted, 0xffffffffu));
  // Every limit the buffers meet, checked before anything is replaced.
  const int64_t agent_bytes = int64_t{capacity} * static_cast<int64_t>(sizeof(GpuAgent));
  const int64_t list_bytes = int64_t{capacity} * lod_count_ * static_cast<int64_t>(sizeof(GLuint));
  const int per_row = static_cast<int>(std::min<int64_t>(capacity, max_texture_size_ / 4));
  const int64_t rows = per_row > 0 ? (int64_t{capacity} + per_row - 1) / per_row : 0;
  const int tints_per_row = static_cast<int>(std::min<int64_t>(capacity, max_texture_size_));
  const int64_t tint_rows =
      tints_per_row > 0 ? (int64_t{capacity} + tints_per_row - 1) / tints_per_row : 0;
  if (agents > capacity || std::max(agent_bytes, list_bytes) > max_block_bytes_ || per_row <= 0 ||
      rows > max_texture_size_ || tint_rows > max_texture_size_) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("GPU-driven crowd: {} agents need {} bytes of agents and {} of "
                              "draw lists ({} LODs) in storage buffers of at most {} bytes "
                              "(GL_MAX_SHADER_STORAGE_BLOCK_SIZE), and {} rows of instance "
                              "records at {} per row (GL_MAX_TEXTURE_SIZE {})",
                              agents, agent_bytes, list_bytes, lod_count_, max_block_bytes_, rows,
                              per_row, max_texture_size_));
  }

  // Agents keep their state: copy them into the larger buffer.
  GLuint agents_buffer = 0;
  glGenBuffers(1, &agents_buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, agents_buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, agent_bytes, nullptr, GL_DYNAMIC_COPY);
  if (agent_count_ > 0) {
    glBindBuffer(GL_COPY_READ_BUFFER, agents_);
    glBindBuffer(GL_COPY_WRITE_BUFFER, agents_buffer);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0,
                        static_cast<GLsizeiptr>(agent_count_ * sizeof(GpuAgent)));
  }
  glDeleteBuffers(1, &agents_);
  agents_ = agents_buffer;
  // The lists and records are rewritten by every frame's pass.
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, lists_);
  glBufferData(GL_SHADER_STORAGE_BUFFER, list_bytes, nullptr, GL_DYNAMIC_COPY);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  glActiveTexture(GL_TEXTURE0 + kCrowdTextureUnit);
  if (instances_) glDeleteTextures(1, &instances_);
  glGenTextures(1, &instances_);
  glBindTexture(GL_TEXTURE_2D, instances_);
  // Images need immutable storage (ES 3.1, 8.22); integer textures are fetched, never filtered.
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32UI, 4 * per_row, static_cast<GLsizei>(rows));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  if (tints_) glDeleteTextures(1, &tints_);
  glGenTextures(1, &tints_);
  glBindTexture(GL_TEXTURE_2D, tints_);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8UI, tints_per_row, static_cast<GLsizei>(tint_rows));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  // The extras share the tints' layout, one RGBA32UI texel per agent; uploaded again after this.
  if (extras_) glDeleteTextures(1, &extras_);
  glGenTextures(1, &extras_);
  glBindTexture(GL_TEXTURE_2D, extras_);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32UI, tints_per_row, static_cast<GLsizei>(tint_rows));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  extras_words_.clear();
  extras_active_ = false;
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE0);
  capacity_ = capacity;
  instances_per_row_ = per_row;
  tints_per_row_ = tints_per_row;
  cpu_slot_flags_.resize(capacity, 0);
  return checkGl(fmt::format("GPU-driven crowd: buffers for {} agents", capacity));
}

void GpuCrowd::uploadRecords(uint32_t first, std::span<const uint8_t> bytes) {
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, agents_);
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(first * sizeof(GpuAgent)),
                  static_cast<GLsizeiptr>(bytes.size()), bytes.data());
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

Status GpuCrowd::addImpostorLod(float error, ImpostorRenderer& impostors) {
  assert(agent_count_ == 0 && frames_drawn_ == 0);
  impostors_ = &impostors;
  ++lod_count_;
  lod_limits_.push_back(0.0f);  // pickLod: no limit (as the CPU's rule reads 0)
  lod_errors_.push_back(error);
  // The buffers again, with a list for the new LOD (nothing is in them yet), and the frame
  // buffer's tables at their new places (the clips' move past the new LOD's words).
  frame_command_capacity_ = 0;
  const uint32_t capacity = capacity_;
  capacity_ = 0;
  return reserve(capacity);
}

// The frame buffer: [draw commands | LOD limits | clips | event times | commands], in words.
Status GpuCrowd::uploadCommands(std::span<const Command> commands) {
  const uint32_t lods = static_cast<uint32_t>(lod_count_);
  clip_first_ = lods * kDrawWords + lods;
  event_times_first_ = clip_first_ + static_cast<uint32_t>(clip_words_.size());
  command_first_ = event_times_first_ + static_cast<uint32_t>(event_times_.size());
  if (commands.size() > frame_command_capacity_ || frame_command_capacity_ == 0) {
    frame_command_capacity_ = std::max<uint32_t>(
        {kMinCommandCapacity, 2 * frame_command_capacity_, static_cast<uint32_t>(commands.size())});
    const size_t words = command_first_ + size_t{kCommandWords} * frame_command_capacity_;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, frame_);
    glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(words * sizeof(uint32_t)),
                 nullptr, GL_DYNAMIC_DRAW);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(clip_first_ * sizeof(uint32_t)),
                    static_cast<GLsizeiptr>(clip_words_.size() * sizeof(uint32_t)),
                    clip_words_.data());
    if (!event_times_.empty()) {
      glBufferSubData(
          GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(event_times_first_ * sizeof(uint32_t)),
          static_cast<GLsizeiptr>(event_times_.size() * sizeof(uint32_t)), event_times_.data());
    }
  }
  if (commands.empty()) return checkGl("GPU-driven crowd: frame tables");
  // Sorted by agent, keeping each agent's commands in submission order (the shader finds an
  // agent's run by binary search and applies it in order, as Crowd::update does).
  command_keys_.resize(commands.size());
  for (size_t i = 0; i < commands.size(); ++i) {
    command_keys_[i] = (uint64_t{commands[i].agent} << 32) | i;
  }
  std::sort(command_keys_.begin(), command_keys_.end());
  command_words_.resize(commands.size() * kCommandWords);
  for (size_t i = 0; i < commands.size(); ++i) {
    const Command& c = commands[command_keys_[i] & 0xffffffffu];
    uint32_t* w = command_words_.data() + i * kCommandWords;
    w[0] = c.agent;
    w[1] = static_cast<uint32_t>(c.type) | (uint32_t{c.loop ? 1u : 0u} << 8) |
           (uint32_t{c.clip} << 16);
    w[2] = floatBits(c.target.x);
    w[3] = floatBits(c.target.y);
  }
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, frame_);
  glBufferSubData(
      GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(command_first_ * sizeof(uint32_t)),
      static_cast<GLsizeiptr>(command_words_.size() * sizeof(uint32_t)), command_words_.data());
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return checkGl("GPU-driven crowd: commands upload");
}

Status GpuCrowd::uploadWhole(const Crowd& crowd) {
  if (pending_.active) {
    if (Status s = flushPending(); !s.ok()) return s;
  }
  const uint32_t n = crowd.agentCount();
  if (Status s = reserve(n); !s.ok()) return s;
  record_bytes_.resize(size_t{n} * sizeof(GpuAgent));
  for (uint32_t a = 0; a < n; ++a) {
    const GpuAgent g = packAgent(crowd.agent(a));
    std::memcpy(record_bytes_.data() + size_t{a} * sizeof(GpuAgent), &g, sizeof(g));
  }
  if (n > 0) uploadRecords(0, record_bytes_);
  for (uint32_t slot : cpu_slots_) cpu_slot_flags_[slot] = 0;
  cpu_slots_.clear();
  agent_count_ = n;
  mirrored_ = &crowd;
  changes_seen_ = crowd.changes().size();
  ++structure_version_;
  return checkGl("GPU-driven crowd: crowd upload");
}

Status GpuCrowd::mirror(const Crowd& crowd) {
  if (crowd.characterCount() > 1) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("GPU-driven crowd: a mixed crowd ({} characters); one character's "
                              "crowd only",
                              crowd.characterCount()));
  }
  if (crowd.clips().size() != clip_count_) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("GPU-driven crowd: the crowd has {} clips, the package {}",
                              crowd.clips().size(), clip_count_));
  }
  clip_set_ = crowd.clipSet();
  crowd_desc_ = crowd.desc();
  const std::span<const AgentChange> changes = crowd.changes();
  if (&crowd != mirrored_ || changes.size() < changes_seen_) return uploadWhole(crowd);
  if (changes.size() == changes_seen_) return Status::okStatus();
  // Agents came or went after the pending update: on the CPU it ran before them.
  if (pending_.active) {
    if (Status s = flushPending(); !s.ok()) return s;
  }
  auto mark = [this](uint32_t slot) {
    if (!cpu_slot_flags_[slot]) {
      cpu_slot_flags_[slot] = 1;
      cpu_slots_.push_back(slot);
    }
  };
  for (size_t i = changes_seen_; i < changes.size(); ++i) {
    const AgentChange& change = changes[i];
    if (change.kind == AgentChange::Kind::kSpeed) {
      // A new agent's record comes whole from the CPU; others get the one float.
      if (change.agent < agent_count_ && !cpu_slot_flags_[change.agent]) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, agents_);
        glBufferSubData(
            GL_SHADER_STORAGE_BUFFER,
            static_cast<GLintptr>(change.agent * sizeof(GpuAgent) +
                                  offsetof(GpuAgent, target_scale_speed) + 3 * sizeof(float)),
            sizeof(float), &change.speed);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
      }
      continue;
    }
    if (change.kind == AgentChange::Kind::kAdded) {
      if (Status s = reserve(agent_count_ + 1); !s.ok()) return s;
      mark(agent_count_++);  // a new agent's record is the CPU's (the CPU never advanced it)
      continue;
    }
    assert(change.agent < agent_count_);
    const uint32_t last = agent_count_ - 1;
    if (change.agent != last) {
      if (cpu_slot_flags_[last]) {
        mark(change.agent);  // the CPU made the same move
      } else {
        cpu_slot_flags_[change.agent] = 0;  // the GPU holds the moved agent's state
        glBindBuffer(GL_COPY_READ_BUFFER, agents_);
        glBindBuffer(GL_COPY_WRITE_BUFFER, agents_);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER,
                            static_cast<GLintptr>(last * sizeof(GpuAgent)),
                            static_cast<GLintptr>(change.agent * sizeof(GpuAgent)),
                            sizeof(GpuAgent));
      }
    }
    cpu_slot_flags_[last] = 0;
    --agent_count_;
  }
  changes_seen_ = changes.size();
  ++structure_version_;
  if (agent_count_ != crowd.agentCount()) return uploadWhole(crowd);  // a log that lost entries

  // New agents' records, in runs of consecutive indices (a crowd added at once is one upload).
  std::sort(cpu_slots_.begin(), cpu_slots_.end());
  size_t i = 0;
  while (i < cpu_slots_.size()) {
    const uint32_t first = cpu_slots_[i];
    if (!cpu_slot_flags_[first] || first >= agent_count_) {
      cpu_slot_flags_[first] = 0;
      ++i;
      continue;
    }
    uint32_t end = first;
    record_bytes_.clear();
    while (i < cpu_slots_.size() && cpu_slots_[i] == end && cpu_slot_flags_[end] &&
           end < agent_count_) {
      const GpuAgent g = packAgent(crowd.agent(end));
      const uint8_t* bytes = reinterpret_cast<const uint8_t*>(&g);
      record_bytes_.insert(record_bytes_.end(), bytes, bytes + sizeof(g));
      cpu_slot_flags_[end] = 0;
      ++end;
      ++i;
    }
    uploadRecords(first, record_bytes_);
  }
  cpu_slots_.clear();
  return checkGl("GPU-driven crowd: mirroring added and removed agents");
}

Status GpuCrowd::flushPending() {
  Status s = runPass(nullptr, nullptr, false);
  pending_.active = false;
  commands_.clear();
  return s;
}

Status GpuCrowd::update(Crowd& crowd, float seconds, std::span<const EventHit> layer_events) {
  if (Status s = mirror(crowd); !s.ok()) return s;
  if (pending_.active) {
    if (Status s = flushPending(); !s.ok()) return s;
  }
  const std::span<const Command> queued = crowd.queuedCommands();
  commands_.assign(queued.begin(), queued.end());
  crowd.clearCommands();
  crowd.clearChanges();
  changes_seen_ = 0;
  pending_ = {true, seconds, ++updates_};
  pending_layer_events_.assign(layer_events.begin(), layer_events.end());
  return Status::okStatus();
}

Result<GpuCrowd::EventBuffer*> GpuCrowd::beginEvents() {
  if (!gather_events_) return nullptr;
  EventBuffer& events = event_buffers_[next_event_buffer_];
  next_event_buffer_ = (next_event_buffer_ + 1) % kGpuEventBuffers;
  if (events.fence) {
    // Every buffer in flight: this, the oldest, is read back first (waiting only when the GPU is
    // kGpuEventBuffers passes behind).
    if (!ready(events, true)) {
      return Status(ErrorCode::kGlError, "GPU-driven crowd: an events read-back never finished");
    }
    if (Status s = readEvents(events); !s.ok()) return s;
  }
  if (!events.buffer) {
    glGenBuffers(1, &events.buffer);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, events.buffer);
    glBufferData(
        GL_SHADER_STORAGE_BUFFER,
        static_cast<GLsizeiptr>((1 + size_t{kEventWords} * kGpuEventCapacity) * sizeof(uint32_t)),
        nullptr, GL_DYNAMIC_READ);
  }
  const uint32_t zero = 0;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, events.buffer);
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof(zero), &zero);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  events.update = pending_.update;
  events.layer_events.swap(pending_layer_events_);
  pending_layer_events_.clear();
  if (Status s = checkGl("GPU-driven crowd: events buffer"); !s.ok()) return s;
  return &events;
}

Status GpuCrowd::readEvents(EventBuffer& events) {
  glDeleteSync(events.fence);
  events.fence = nullptr;
  glBindBuffer(GL_COPY_READ_BUFFER, events.buffer);
  const void* head = glMapBufferRange(GL_COPY_READ_BUFFER, 0, sizeof(uint32_t), GL_MAP_READ_BIT);
  if (!head) return checkGl("GPU-driven crowd: mapping the events' count");
  uint32_t asked = 0;
  std::memcpy(&asked, head, sizeof(asked));
  glUnmapBuffer(GL_COPY_READ_BUFFER);
  const uint32_t stored = std::min(asked, kGpuEventCapacity);
  scratch_hits_.resize(stored);
  if (stored > 0) {
    const size_t bytes = (1 + size_t{kEventWords} * stored) * sizeof(uint32_t);
    const void* data =
        glMapBufferRange(GL_COPY_READ_BUFFER, 0, static_cast<GLsizeiptr>(bytes), GL_MAP_READ_BIT);
    if (!data) return checkGl("GPU-driven crowd: mapping the events");
    const uint32_t* words = static_cast<const uint32_t*>(data) + 1;
    for (uint32_t i = 0; i < stored; ++i) {
      const uint32_t* w = words + size_t{kEventWords} * i;
      EventHit& hit = scratch_hits_[i];
      hit.agent = w[0];
      hit.clip = static_cast<uint16_t>(w[1] & 0xffffu);
      hit.event = static_cast<uint16_t>(w[1] >> 16);
      std::memcpy(&hit.weight, &w[2], sizeof(float));
      hit.layer = false;
    }
    glUnmapBuffer(GL_COPY_READ_BUFFER);
  }
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  // Each agent's events are one run in Crowd's order: a stable sort by agent puts the runs in
  // agent order, and the layers' (after the base clips' in Crowd::advance) merge in behind.
  const auto by_agent = [](const EventHit& a, const EventHit& b) { return a.agent < b.agent; };
  std::stable_sort(scratch_hits_.begin(), scratch_hits_.end(), by_agent);
  UpdateEvents out;
  out.update = events.update;
  out.overflow = asked - stored;
  out.events.reserve(scratch_hits_.size() + events.layer_events.size());
  std::merge(scratch_hits_.begin(), scratch_hits_.end(), events.layer_events.begin(),
             events.layer_events.end(), std::back_inserter(out.events), by_agent);
  events.layer_events.clear();
  arrived_events_.push_back(std::move(out));
  return checkGl("GPU-driven crowd: events read-back");
}

Status GpuCrowd::takeEvents(std::vector<UpdateEvents>& out, bool wait) {
  if (wait && pending_.active) {
    if (Status s = flushPending(); !s.ok()) return s;
  }
  // In flight buffers, oldest first, from the next one to write on.
  for (int i = 0; i < kGpuEventBuffers; ++i) {
    EventBuffer& events = event_buffers_[(next_event_buffer_ + i) % kGpuEventBuffers];
    if (!events.fence) continue;
    if (!ready(events, wait)) {
      if (wait) {
        return Status(ErrorCode::kGlError, "GPU-driven crowd: an events read-back never finished");
      }
      break;
    }
    if (Status s = readEvents(events); !s.ok()) return s;
  }
  for (UpdateEvents& u : arrived_events_) out.push_back(std::move(u));
  arrived_events_.clear();
  return Status::okStatus();
}

namespace {

// One RGBA integer texel per agent, `per_row` agents a row, rows filled in agent order (the last
// one partly): the tint and extras textures' layout. `bytes_per_agent` is one texel's size.
void uploadAgentTexels(GLuint texture, int per_row, size_t agents, GLenum type, const void* data,
                       size_t bytes_per_agent) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  glActiveTexture(GL_TEXTURE0 + kCrowdTextureUnit);
  glBindTexture(GL_TEXTURE_2D, texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, type == GL_UNSIGNED_BYTE ? 1 : 4);
  const size_t row = static_cast<size_t>(per_row);
  const size_t full_rows = agents / row;
  if (full_rows > 0) {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, per_row, static_cast<GLsizei>(full_rows),
                    GL_RGBA_INTEGER, type, bytes);
  }
  if (const size_t rest = agents - full_rows * row; rest > 0) {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, static_cast<GLint>(full_rows), static_cast<GLsizei>(rest),
                    1, GL_RGBA_INTEGER, type, bytes + full_rows * row * bytes_per_agent);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE0);
}

}  // namespace

Status GpuCrowd::uploadTints(std::span<const glm::vec4> tints) {
  const size_t n = tints.size();
  tint_bytes_.resize(n * 4);
  for (size_t a = 0; a < n; ++a) {
    for (int c = 0; c < 4; ++c) tint_bytes_[a * 4 + c] = quantize(tints[a][c]);
  }
  uploadAgentTexels(tints_, tints_per_row_, n, GL_UNSIGNED_BYTE, tint_bytes_.data(), 4);
  return checkGl("GPU-driven crowd: tints upload");
}

Status GpuCrowd::uploadExtras(const GpuDrawOptions& options) {
  const size_t n = agent_count_;
  if (!options.attachments.empty() && options.attachments.size() != n) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("GPU-driven crowd: {} prop masks for {} agents (one per agent, or "
                              "none)",
                              options.attachments.size(), n));
  }
  if (!options.layers.empty() && options.layers.size() != n) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("GPU-driven crowd: {} layers for {} agents (one per agent, or none)",
                              options.layers.size(), n));
  }
  if (!options.variants.empty() && options.variants.size() != n) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("GPU-driven crowd: {} appearances for {} agents (one per agent, or "
                              "none)",
                              options.variants.size(), n));
  }
  // A mirrored Crowd's props are read again only when its attachments version moved (and
  // appearances only when agents came or went: Crowd has no call that changes one), so a frame
  // whose agents, props and layers did not change costs nothing per agent here. Span-given
  // agents (every draw uploads them) and agents with layers are read every frame.
  const bool props_seen = options.attachments_version &&
                          props_version_ == options.attachments_version &&
                          props_structure_ == structure_version_;
  if (!props_seen) {
    all_props_shown_ = true;
    for (const uint32_t mask : options.attachments)
      all_props_shown_ &= (mask & kAllAttachments) == kAllAttachments;
    props_version_ = options.attachments_version;
    props_structure_ = structure_version_;
  }
  bool defaults = all_props_shown_;  // every prop shown, no layer: the draws need no texture
  for (const LayerSample& layer : options.layers) defaults &= !(layer.weight > 0.0f);
  const bool variants_seen = variants_version_ == structure_version_;
  if (!variants_seen) {
    any_variant_ = false;
    for (const uint16_t v : options.variants) any_variant_ |= v != 0;
    variants_version_ = structure_version_;
  }
  const bool variants = any_variant_ && !options.variants.empty();
  if (defaults && !variants) {
    extras_active_ = false;
    return Status::okStatus();
  }
  const bool unchanged = props_seen && variants_seen && options.layers.empty();
  if (unchanged && extras_active_ && extras_unchanged_since_upload_) {
    return Status::okStatus();  // the props and appearances uploaded before, no layer
  }
  extras_unchanged_since_upload_ = options.layers.empty();
  scratch_extras_.assign(n * kAgentExtraWords, 0u);
  for (size_t a = 0; a < n; ++a) {
    uint32_t* words = &scratch_extras_[a * kAgentExtraWords];
    const uint32_t mask = options.attachments.empty() ? kAllAttachments : options.attachments[a];
    const uint32_t appearance =
        variants ? std::min<uint32_t>(options.variants[a], kMaxRecordAppearances - 1) : 0u;
    words[0] = appearance | (mask & kAllAttachments) << 8;
    if (!options.layers.empty()) encodeLayerWords(options.layers[a], last_frame_, words + 1);
  }
  extras_active_ = true;
  if (scratch_extras_ == extras_words_) return Status::okStatus();  // as uploaded last frame
  extras_words_.swap(scratch_extras_);
  uploadAgentTexels(extras_, tints_per_row_, n, GL_UNSIGNED_INT, extras_words_.data(),
                    kAgentExtraWords * sizeof(uint32_t));
  return checkGl("GPU-driven crowd: agent extras upload");
}

namespace {

// agentLod's choice of rule: the screen-space one for a perspective view.
bool screenLod(const GpuDrawOptions& options) {
  const LodView& v = options.lod_view;
  return v.fov_y > 0.0f && v.viewport_height > 0.0f && v.threshold_pixels > 0.0f;
}

}  // namespace

// Each LOD's draw command with no instances yet, then the LOD limits (the frame buffer's head).
void GpuCrowd::writeDrawCommands(const GpuDrawOptions& options) {
  const uint32_t lods = static_cast<uint32_t>(lod_count_);
  frame_head_.assign(size_t{lods} * kDrawWords + lods, 0u);
  for (uint32_t l = 0; l < lods; ++l) {
    // The impostor's command is a DrawArraysIndirectCommand: a quad's 4 vertices, then 0s.
    frame_head_[l * kDrawWords] = static_cast<int>(l) < renderer_->lodCount()
                                      ? renderer_->indexCount(static_cast<int>(l))
                                      : kImpostorQuadVertices;
    frame_head_[lods * kDrawWords + l] =
        floatBits(screenLod(options) ? lod_errors_[l] : lod_limits_[l]);
  }
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, frame_);
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0,
                  static_cast<GLsizeiptr>(frame_head_.size() * sizeof(uint32_t)),
                  frame_head_.data());
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

GLuint GpuCrowd::passLists(const GpuDrawOptions* options) {
  if (!options || options->pass != DrawPass::kDepth) return lists_;
  if (!depth_lists_ || depth_lists_capacity_ != capacity_) {
    if (!depth_lists_) glGenBuffers(1, &depth_lists_);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, depth_lists_);
    glBufferData(GL_SHADER_STORAGE_BUFFER,
                 static_cast<GLsizeiptr>(size_t{capacity_} * lod_count_ * sizeof(GLuint)), nullptr,
                 GL_DYNAMIC_COPY);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    depth_lists_capacity_ = capacity_;
  }
  return depth_lists_;
}

Status GpuCrowd::runPass(const FrameView* view, const GpuDrawOptions* options, bool has_tints,
                         bool has_ids) {
  const bool simulate = pending_.active;
  const bool draw = view != nullptr;
  if (draw && options->fixed_lod >= lod_count_) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("GPU-driven crowd: LOD {} asked for; the package has {} LODs",
                              options->fixed_lod, lod_count_));
  }
  if (Status s = uploadCommands(simulate ? std::span<const Command>(commands_)
                                         : std::span<const Command>());
      !s.ok()) {
    return s;
  }
  if (draw) writeDrawCommands(*options);
  EventBuffer* events = nullptr;
  if (simulate) {
    Result<EventBuffer*> begun = beginEvents();
    if (!begun.ok()) return begun.status();
    events = *begun;
  }
  // The events buffer is read back once the GPU has passed this pass (fenced at its end).
  struct FenceEvents {
    EventBuffer* events;
    ~FenceEvents() {
      if (events) events->fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    }
  } fence_events{events};
  if (agent_count_ == 0) return checkGl("GPU-driven crowd: frame tables");

  const Uniforms& u = *uniforms_;
  glUseProgram(program_.id());
  glUniform1ui(u.agent_count, agent_count_);
  glUniform1i(u.simulate, simulate ? 1 : 0);
  glUniform1i(u.draw, draw ? 1 : 0);
  const float seconds = simulate ? pending_.seconds : 0.0f;
  glUniform1f(u.seconds, seconds);
  // Crowd::update's fade step, computed the same way.
  const float fade_step =
      crowd_desc_.cross_fade_seconds > 0.0f ? seconds / crowd_desc_.cross_fade_seconds : 1.0f;
  glUniform1f(u.fade_step, fade_step);
  glUniform1f(u.turn_rate, crowd_desc_.turn_rate);
  glUniform1f(u.walk_speed, clip_set_.walk_speed);
  glUniform1f(u.run_speed, clip_set_.run_speed);
  GLuint state_clip[kClipSetStates];
  for (int s = 0; s < kClipSetStates; ++s) state_clip[s] = clip_set_.state_clip[s];
  glUniform1uiv(u.state_clip, kClipSetStates, state_clip);
  glUniform1ui(u.command_first, command_first_);
  glUniform1ui(u.command_count, simulate ? static_cast<GLuint>(commands_.size()) : 0u);
  glUniform1ui(u.clip_first, clip_first_);
  glUniform1ui(u.event_times_first, event_times_first_);
  glUniform1i(u.gather_events, events ? 1 : 0);
  glUniform1ui(u.event_capacity, kGpuEventCapacity);
  glUniform1ui(u.lod_first, static_cast<GLuint>(lod_count_) * kDrawWords);
  glUniform1i(u.lod_count, lod_count_);
  glUniform1ui(u.last_frame, last_frame_);
  glUniform1ui(u.list_capacity, capacity_);
  glUniform1i(u.instances_per_row, instances_per_row_);
  if (draw) {
    glUniform1i(u.fixed_lod, options->fixed_lod);
    const Frustum frustum = frustumFromViewProjection(view->view_projection);
    glUniform4fv(u.planes, 6, glm::value_ptr(frustum.planes[0]));
    glUniform3f(u.eye, view->eye.x, view->eye.y, view->eye.z);
    const bool fades = impostors_ && options->fade_lod >= 0 && options->fade_band.y > 0.0f;
    glUniform2f(u.fade, fades ? static_cast<float>(options->fade_lod) : -1.0f,
                options->fade_band.x);
    const LodView& lv = options->lod_view;
    if (screenLod(*options)) {
      glUniform4f(u.lod_screen, lv.threshold_pixels, lv.viewport_height, std::tan(0.5f * lv.fov_y),
                  lv.reach);
    } else {
      glUniform4f(u.lod_screen, 0.0f, 0.0f, 0.0f, 0.0f);
    }
    glUniform1i(u.has_tints, has_tints ? 1 : 0);
    glUniform1i(u.has_ids, has_ids ? 1 : 0);
    glUniform1i(u.has_state_tints, options->state_tints ? 1 : 0);
    if (options->state_tints) {
      glUniform4fv(u.state_tints, kAgentStateCount, glm::value_ptr((*options->state_tints)[0]));
    }
    glUniform1i(u.lod_tint, options->lod_colors ? 1 : 0);
    if (options->lod_colors) {
      glUniform4fv(u.lod_colors, kGpuLodColors, glm::value_ptr((*options->lod_colors)[0]));
    }
  }
  glActiveTexture(GL_TEXTURE0 + kCrowdTextureUnit);
  glBindTexture(GL_TEXTURE_2D, tints_);
  glUniform1i(u.tints, kCrowdTextureUnit);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, agents_);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, frame_);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, passLists(draw ? options : nullptr));
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, events ? events->buffer : 0);
  glBindImageTexture(0, instances_, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA32UI);
  const uint32_t groups = (agent_count_ + kGpuAgentsPerWorkGroup - 1) / kGpuAgentsPerWorkGroup;
  // ES 3.1 guarantees 65535 groups per dimension: larger crowds fold into y (the shader
  // flattens y * groups_x + x).
  constexpr uint32_t kMaxGroupsX = 65535;
  const uint32_t groups_x = std::min(groups, kMaxGroupsX);
  const uint32_t groups_y = (groups + groups_x - 1) / groups_x;
  glDispatchCompute(groups_x, groups_y, 1);
  // The draws read the lists as attributes, the counts as indirect commands and the records
  // as a texture; the next pass reads the agents; copies and uploads follow.
  glMemoryBarrier(GL_COMMAND_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT |
                  GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT |
                  GL_BUFFER_UPDATE_BARRIER_BIT);
  for (GLuint binding = 0; binding < kGpuCrowdStorageBlocks; ++binding) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, 0);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE0);
  return checkGl("GPU-driven crowd: compute pass");
}

Status GpuCrowd::draw(const FrameView& view, const Crowd& crowd, std::span<const glm::vec4> tints,
                      const GpuDrawOptions& options) {
  if (Status s = mirror(crowd); !s.ok()) return s;
  if (!tints.empty() && tints.size() != agent_count_) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("GPU-driven crowd: {} tints for {} agents (one per agent, or none)",
                              tints.size(), agent_count_));
  }
  if (!tints.empty()) {
    if (Status s = uploadTints(tints); !s.ok()) return s;
  }
  if (Status s = uploadExtras(options); !s.ok()) return s;
  Status s = runPass(&view, &options, !tints.empty());
  pending_.active = false;
  commands_.clear();
  if (!s.ok()) return s;
  return finishFrame(view, options);
}

Status GpuCrowd::draw(const FrameView& view, std::span<const Placement> placements,
                      std::span<const AgentPlayback> playback, std::span<const glm::vec4> tints,
                      const GpuDrawOptions& options, std::span<const AgentState> states,
                      std::span<const uint32_t> ids) {
  const size_t n = placements.size();
  if (playback.size() != n || (!tints.empty() && tints.size() != n) ||
      (!states.empty() && states.size() != n) || (!ids.empty() && ids.size() != n)) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("GPU-driven crowd: {} placements, {} playback states and {} tints", n,
                              playback.size(), tints.size()));
  }
  for (const AgentPlayback& p : playback) {
    if (p.clip >= clip_count_ || p.previous_clip >= clip_count_) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("GPU-driven crowd: an agent plays a clip the package lacks (it "
                                "has {} clips)",
                                clip_count_));
    }
  }
  if (Status s = reserve(static_cast<uint32_t>(n)); !s.ok()) return s;
  // No crowd owns these agents: forget the mirror (and an update meant for it).
  mirrored_ = nullptr;
  pending_.active = false;
  commands_.clear();
  record_bytes_.resize(n * sizeof(GpuAgent));
  for (size_t a = 0; a < n; ++a) {
    AgentRecord r;
    r.placement = placements[a];
    r.playback = playback[a];
    r.target = glm::vec2(r.placement.position.x, r.placement.position.z);
    if (!states.empty()) r.state = states[a];
    GpuAgent g = packAgent(r);
    g.codes[2] = ids.empty() ? static_cast<uint32_t>(a) : ids[a];
    std::memcpy(record_bytes_.data() + a * sizeof(GpuAgent), &g, sizeof(g));
  }
  if (n > 0) uploadRecords(0, record_bytes_);
  agent_count_ = static_cast<uint32_t>(n);
  ++structure_version_;
  if (!tints.empty()) {
    if (Status s = uploadTints(tints); !s.ok()) return s;
  }
  if (Status s = uploadExtras(options); !s.ok()) return s;
  if (Status s = runPass(&view, &options, !tints.empty(), !ids.empty()); !s.ok()) return s;
  return finishFrame(view, options);
}

Status GpuCrowd::finishFrame(const FrameView& view, const GpuDrawOptions& options) {
  IndirectInstances in;
  in.draw_commands = frame_;
  in.agent_lists = passLists(&options);
  in.list_capacity = capacity_;
  in.instances = instances_;
  in.instances_per_row = instances_per_row_;
  in.only_lod = options.fixed_lod;
  if (extras_active_) {
    in.agent_extras = extras_;
    in.agent_extras_per_row = tints_per_row_;
  }
  if (options.blobs && options.pass == DrawPass::kColor) {
    const ListedBlobShadows& blobs = *options.blobs;
    if (Status s =
            blobs.renderer->drawListedShadows(view, blobs.desc, blobs.radius, in, lod_count_);
        !s.ok()) {
      return s;
    }
  }
  const bool fades = impostors_ && options.fade_lod >= 0 && options.fade_band.y > 0.0f &&
                     options.pass == DrawPass::kColor;
  ImpostorFade fade;
  if (fades) {
    fade.eye = view.eye;
    fade.band = options.fade_band;
  }
  renderer_->setFade(fades ? options.fade_lod : -1, fade.eye, fade.band);
  if (Status s = renderer_->drawIndirect(view, in, options.shading, options.pass); !s.ok())
    return s;
  if (impostors_) {
    if (Status s = impostors_->drawIndirect(view, in, renderer_->lodCount(), options.shading,
                                            options.pass, fade);
        !s.ok()) {
      return s;
    }
  }
  if (options.pass == DrawPass::kDepth) return Status::okStatus();
  ++frames_drawn_;

  // The frame's counters, copied for a later look (the draw commands' instance counts).
  Readback& counts = count_copies_[next_count_copy_];
  next_count_copy_ = (next_count_copy_ + 1) % static_cast<int>(count_copies_.size());
  const size_t count_bytes = size_t{kDrawWords} * sizeof(uint32_t) * lod_count_;
  if (Status s = startCopy(frame_, count_bytes, counts); !s.ok()) return s;
  counts.agents = agent_count_;
  if (readback_requested_) {
    Readback& agents = agent_copies_[next_agent_copy_];
    next_agent_copy_ = (next_agent_copy_ + 1) % static_cast<int>(agent_copies_.size());
    if (Status s = startCopy(agents_, size_t{agent_count_} * sizeof(GpuAgent), agents); !s.ok())
      return s;
    agents.agents = agent_count_;
  }
  return Status::okStatus();
}

Status GpuCrowd::startCopy(GLuint source, size_t bytes, Readback& copy) {
  if (copy.fence) {
    glDeleteSync(copy.fence);
    copy.fence = nullptr;
  }
  if (!copy.buffer) glGenBuffers(1, &copy.buffer);
  glBindBuffer(GL_COPY_WRITE_BUFFER, copy.buffer);
  if (copy.bytes < bytes || copy.bytes == 0) {
    copy.bytes = std::max<size_t>(bytes, 64);
    glBufferData(GL_COPY_WRITE_BUFFER, static_cast<GLsizeiptr>(copy.bytes), nullptr,
                 GL_STREAM_READ);
  }
  if (bytes > 0) {
    glBindBuffer(GL_COPY_READ_BUFFER, source);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0,
                        static_cast<GLsizeiptr>(bytes));
  }
  copy.fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  copy.frame = frames_drawn_;
  copy.version = structure_version_;
  copy.consumed = false;
  return checkGl("GPU-driven crowd: read-back copy");
}

namespace {

// Whether the GPU work before `fence` has finished; with `wait`, waits for it (flushing first).
bool fenceReady(GLsync fence, bool wait) {
  if (!fence) return false;
  const GLenum result =
      glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, wait ? kWaitNanoseconds : 0);
  return result == GL_ALREADY_SIGNALED || result == GL_CONDITION_SATISFIED;
}

}  // namespace

bool GpuCrowd::ready(Readback& copy, bool wait) {
  return fenceReady(copy.fence, wait);
}

bool GpuCrowd::ready(EventBuffer& events, bool wait) {
  return fenceReady(events.fence, wait);
}

const GpuFrameCounts& GpuCrowd::counts(bool wait) {
  // Without `wait`: the newest copy the GPU has finished; with it: the last one, waited for.
  Readback* best = nullptr;
  for (Readback& copy : count_copies_) {
    if (!copy.fence || copy.frame <= counts_.frame || (best && copy.frame < best->frame)) continue;
    if (wait || ready(copy, false)) best = &copy;
  }
  if (!best || (wait && !ready(*best, true))) return counts_;
  const size_t bytes = size_t{kDrawWords} * sizeof(uint32_t) * lod_count_;
  glBindBuffer(GL_COPY_READ_BUFFER, best->buffer);
  const void* data =
      glMapBufferRange(GL_COPY_READ_BUFFER, 0, static_cast<GLsizeiptr>(bytes), GL_MAP_READ_BIT);
  if (!data) return counts_;
  const uint32_t* words = static_cast<const uint32_t*>(data);
  counts_.frame = best->frame;
  counts_.agents_per_lod.assign(lod_count_, 0);
  counts_.visible = 0;
  for (int l = 0; l < lod_count_; ++l) {
    counts_.agents_per_lod[l] = words[l * kDrawWords + 1];
    counts_.visible += counts_.agents_per_lod[l];
  }
  // The cross-fade's agents count in their mesh LOD only.
  counts_.fade_listed = impostors_ ? words[(lod_count_ - 1) * kDrawWords + kFadeCountWord] : 0u;
  if (impostors_) {
    counts_.agents_per_lod[lod_count_ - 1] -= counts_.fade_listed;
    counts_.visible -= counts_.fade_listed;
  }
  glUnmapBuffer(GL_COPY_READ_BUFFER);
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  return counts_;
}

Status GpuCrowd::unpackInto(Crowd& crowd, const Readback& copy) {
  const size_t bytes = size_t{copy.agents} * sizeof(GpuAgent);
  if (bytes == 0) return Status::okStatus();
  glBindBuffer(GL_COPY_READ_BUFFER, copy.buffer);
  const void* data =
      glMapBufferRange(GL_COPY_READ_BUFFER, 0, static_cast<GLsizeiptr>(bytes), GL_MAP_READ_BIT);
  if (!data) return checkGl("GPU-driven crowd: mapping the agents' copy");
  Status status = Status::okStatus();
  for (uint32_t a = 0; a < copy.agents; ++a) {
    GpuAgent g;
    std::memcpy(&g, static_cast<const uint8_t*>(data) + size_t{a} * sizeof(GpuAgent), sizeof(g));
    const AgentRecord r = unpackAgent(g);
    if (r.playback.clip >= clip_count_ || r.playback.previous_clip >= clip_count_ ||
        static_cast<int>(r.state) >= kAgentStateCount ||
        static_cast<int>(r.resume_state) >= kAgentStateCount) {
      status = Status(ErrorCode::kGlError,
                      fmt::format("GPU-driven crowd: agent {} read back with clip {} and state {} "
                                  "(the GPU wrote garbage)",
                                  a, r.playback.clip, static_cast<int>(r.state)));
      break;
    }
    crowd.setAgent(a, r);
  }
  glUnmapBuffer(GL_COPY_READ_BUFFER);
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  return status;
}

Result<bool> GpuCrowd::readBack(Crowd& crowd, bool wait) {
  readback_requested_ = true;
  // Only into the crowd the copies are of, and only while it has the agents they hold.
  if (&crowd != mirrored_ || crowd.changes().size() != changes_seen_ ||
      crowd.agentCount() != agent_count_) {
    return false;
  }
  if (wait) {
    if (pending_.active) {
      if (Status s = flushPending(); !s.ok()) return s;
    }
    Readback& copy = agent_copies_[next_agent_copy_];
    next_agent_copy_ = (next_agent_copy_ + 1) % static_cast<int>(agent_copies_.size());
    if (Status s = startCopy(agents_, size_t{agent_count_} * sizeof(GpuAgent), copy); !s.ok())
      return s;
    copy.agents = agent_count_;
    if (!ready(copy, true)) {
      return Status(ErrorCode::kGlError, "GPU-driven crowd: the agents' copy never finished");
    }
    copy.consumed = true;
    if (Status s = unpackInto(crowd, copy); !s.ok()) return s;
    return true;
  }
  Readback* best = nullptr;
  for (Readback& copy : agent_copies_) {
    if (!copy.fence || copy.consumed || copy.version != structure_version_ ||
        copy.agents != agent_count_ || (best && copy.frame < best->frame)) {
      continue;
    }
    if (ready(copy, false)) best = &copy;
  }
  if (!best) return false;
  // Older copies are superseded by this one.
  for (Readback& copy : agent_copies_) {
    if (copy.frame <= best->frame) copy.consumed = true;
  }
  if (Status s = unpackInto(crowd, *best); !s.ok()) return s;
  return true;
}

Status GpuCrowd::captureLastFrame(GpuFrameCapture& out) {
  out = {};
  const GpuFrameCounts& counts = this->counts(true);
  if (counts.frame != frames_drawn_) {
    return Status(ErrorCode::kGlError, "GPU-driven crowd: the last frame's counts never arrived");
  }
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT);
  glBindBuffer(GL_COPY_READ_BUFFER, lists_);
  out.fade_listed = counts.fade_listed;
  for (int l = 0; l < lod_count_; ++l) {
    // The impostor's list holds the cross-fade's agents too.
    const uint32_t n = counts.agents_per_lod[l] + (l == lod_count_ - 1 ? counts.fade_listed : 0u);
    if (n == 0) continue;
    const void* data = glMapBufferRange(
        GL_COPY_READ_BUFFER, static_cast<GLintptr>(size_t{capacity_} * l * sizeof(uint32_t)),
        static_cast<GLsizeiptr>(n * sizeof(uint32_t)), GL_MAP_READ_BIT);
    if (!data) return checkGl("GPU-driven crowd: mapping the draw lists");
    const uint32_t* agents = static_cast<const uint32_t*>(data);
    out.agents.insert(out.agents.end(), agents, agents + n);
    out.lods.insert(out.lods.end(), n, static_cast<uint8_t>(l));
    glUnmapBuffer(GL_COPY_READ_BUFFER);
  }
  glBindBuffer(GL_COPY_READ_BUFFER, 0);

  // The records, through a framebuffer (ES has no glGetTexImage).
  GLint previous_framebuffer = 0;
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous_framebuffer);
  GLuint framebuffer = 0;
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, instances_, 0);
  const int width = 4 * instances_per_row_;
  const int rows = static_cast<int>((capacity_ + instances_per_row_ - 1) / instances_per_row_);
  std::vector<uint32_t> texels(size_t{4} * width * rows);
  glReadPixels(0, 0, width, rows, GL_RGBA_INTEGER, GL_UNSIGNED_INT, texels.data());
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous_framebuffer));
  glDeleteFramebuffers(1, &framebuffer);
  if (Status s = checkGl("GPU-driven crowd: reading the instance records"); !s.ok()) return s;
  auto as_float = [](uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof(f));
    return f;
  };
  for (uint32_t agent : out.agents) {
    if (agent >= agent_count_) {
      return Status(
          ErrorCode::kGlError,
          fmt::format("GPU-driven crowd: the lists name agent {} of {}", agent, agent_count_));
    }
    const size_t row = agent / instances_per_row_;
    const size_t column = 4 * (agent % instances_per_row_);
    const uint32_t* t = texels.data() + (row * width + column) * 4;
    Instance in;
    in.placement.position = glm::vec3(as_float(t[0]), as_float(t[1]), as_float(t[2]));
    in.placement.scale = as_float(t[3]);
    in.placement.heading = std::atan2(as_float(t[5]), as_float(t[4]));
    in.frames.primary = {t[8], t[9], as_float(t[6])};
    in.frames.secondary = {t[10], t[11], as_float(t[7])};
    in.frames.fade = as_float(t[12]);
    for (int c = 0; c < 4; ++c) {
      in.tint[c] = static_cast<float>((t[13] >> (8 * c)) & 0xffu) / 255.0f;
    }
    out.instances.push_back(in);
  }
  return Status::okStatus();
}

#endif  // __EMSCRIPTEN__

}  // namespace throng::render
