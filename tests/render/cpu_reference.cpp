// CPU reference images: SkinJob (the oracle skinner) then the documented shading in test-owned
// shaders; a small test-only baker.
#include "render/cpu_reference.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include <string>

#include <GLES3/gl3.h>

#include "throng/core/pose.h"
#include "throng/core/skinning.h"

namespace throng::test {
namespace {

// The reference's shaders, written from docs/formats.md ("Shading") and owned by the tests: none
// of the library's shaders, programs or material code draws the picture every path is compared
// with. GLSL ES 1.00, so that ES 2.0 and ES 3 contexts both compile them.
constexpr const char* kVertexShader = R"(#version 100
uniform mat4 u_view_projection;
attribute vec3 a_position;  // world space, skinned and placed on the CPU
attribute vec3 a_normal;    // world space
attribute vec4 a_color;     // linear RGBA: base colour factor x vertex colour
varying vec3 v_normal;
varying vec4 v_color;
void main() {
  v_normal = a_normal;
  v_color = a_color;
  gl_Position = u_view_projection * vec4(a_position, 1.0);
}
)";
constexpr const char* kFragmentShader = R"(#version 100
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif
uniform vec3 u_light_direction;  // the direction the light travels, normalised
uniform float u_ambient;
varying vec3 v_normal;
varying vec4 v_color;
// sRGB's encoding of a linear value in 0..1 (IEC 61966-2-1).
float encodeSrgb(float c) {
  return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1.0 / 2.4) - 0.055;
}
void main() {
  // A back face (drawn only for double-sided materials) is lit from its own side.
  vec3 n = normalize(gl_FrontFacing ? v_normal : -v_normal);
  float lambert = max(dot(n, -u_light_direction), 0.0);
  vec3 lit = clamp(v_color.rgb * (u_ambient + (1.0 - u_ambient) * lambert), 0.0, 1.0);
  gl_FragColor = vec4(encodeSrgb(lit.r), encodeSrgb(lit.g), encodeSrgb(lit.b), 1.0);
}
)";

// Compiles and links the two shaders above with plain GL; 0 and `*error` on failure.
GLuint referenceProgram(std::string* error) {
  GLuint shaders[2] = {glCreateShader(GL_VERTEX_SHADER), glCreateShader(GL_FRAGMENT_SHADER)};
  const char* sources[2] = {kVertexShader, kFragmentShader};
  const GLuint program = glCreateProgram();
  char log[2048] = {};
  GLint ok = 0;
  for (int i = 0; i < 2; ++i) {
    glShaderSource(shaders[i], 1, &sources[i], nullptr);
    glCompileShader(shaders[i]);
    glGetShaderiv(shaders[i], GL_COMPILE_STATUS, &ok);
    if (!ok) {
      glGetShaderInfoLog(shaders[i], sizeof log, nullptr, log);
      *error = std::string("cpu reference: shader ") + std::to_string(i) + ": " + log;
    }
    glAttachShader(program, shaders[i]);
    glDeleteShader(shaders[i]);
  }
  glBindAttribLocation(program, 0, "a_position");
  glBindAttribLocation(program, 1, "a_normal");
  glBindAttribLocation(program, 2, "a_color");
  glLinkProgram(program);
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok && error->empty()) {
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    *error = std::string("cpu reference: link: ") + log;
  }
  if (!error->empty()) {
    glDeleteProgram(program);
    return 0;
  }
  return program;
}

}  // namespace

Result<render::Image> drawCpuReference(render::Device& device,
                                       std::span<const ReferenceCharacter> characters,
                                       const glm::mat4& view_projection,
                                       const glm::vec4& clear_color) {
  // Unindexed triangle soups, position, normal and colour per corner: one of single-sided
  // triangles (back faces culled) and one of double-sided ones.
  struct Corner {
    glm::vec3 position;
    glm::vec3 normal;
    glm::vec4 color;
  };
  std::vector<Corner> soups[2];
  std::vector<glm::vec3> positions, normals;
  for (const ReferenceCharacter& c : characters) {
    const SkinnedMesh& m = *c.mesh;
    positions.resize(m.vertexCount());
    normals.resize(m.vertexCount());
    if (!SkinJob{m.positions, m.normals, m.joints, m.weights, c.palette, positions, normals}
             .run()) {
      return Status(ErrorCode::kInvalidArgument, "cpu reference: SkinJob rejected its input");
    }
    auto add = [&](uint32_t first, uint32_t count, uint32_t material) {
      const bool known = material < c.materials.size();
      const glm::vec4 factor = known ? c.materials[material].base_color : glm::vec4(1.0f);
      std::vector<Corner>& soup = soups[known && c.materials[material].double_sided ? 1 : 0];
      for (uint32_t i = first; i < first + count; ++i) {
        const uint32_t v = m.indices[i];
        soup.push_back({positions[v], normals[v],
                        factor * (m.colors.empty() ? glm::vec4(1.0f) : m.colors[v])});
      }
    };
    if (m.submeshes.empty()) add(0, static_cast<uint32_t>(m.indices.size()), 0);
    for (const SubMesh& sub : m.submeshes) add(sub.first_index, sub.index_count, sub.material);
  }
  std::string error;
  const GLuint program = referenceProgram(&error);
  if (program == 0) return Status(ErrorCode::kGlError, error);
  device.beginFrame(clear_color);  // depth test on (LEQUAL), cleared
  glDisable(GL_BLEND);
  glUseProgram(program);
  glUniformMatrix4fv(glGetUniformLocation(program, "u_view_projection"), 1, GL_FALSE,
                     &view_projection[0][0]);
  // FrameView's default light: every path draws with it (docs/formats.md, "Shading").
  const glm::vec3 direction = glm::normalize(glm::vec3(-0.4f, -1.0f, -0.6f));
  glUniform3f(glGetUniformLocation(program, "u_light_direction"), direction.x, direction.y,
              direction.z);
  glUniform1f(glGetUniformLocation(program, "u_ambient"), 0.35f);
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  const GLsizei stride = sizeof(Corner);
  for (int sided = 0; sided < 2; ++sided) {
    const std::vector<Corner>& soup = soups[sided];
    if (soup.empty()) continue;
    if (sided == 0) {
      glEnable(GL_CULL_FACE);  // counter-clockwise fronts
      glCullFace(GL_BACK);
      glFrontFace(GL_CCW);
    } else {
      glDisable(GL_CULL_FACE);
    }
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(soup.size() * sizeof(Corner)),
                 soup.data(), GL_STREAM_DRAW);
    for (GLuint a = 0; a < 3; ++a) glEnableVertexAttribArray(a);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(offsetof(Corner, position)));
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(offsetof(Corner, normal)));
    glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(offsetof(Corner, color)));
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(soup.size()));
  }
  glDisable(GL_CULL_FACE);
  for (GLuint a = 0; a < 3; ++a) glDisableVertexAttribArray(a);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glDeleteBuffers(1, &buffer);
  glUseProgram(0);
  glDeleteProgram(program);
  if (GLenum e = glGetError(); e != GL_NO_ERROR) {
    return Status(ErrorCode::kGlError, "cpu reference draw: GL error " + std::to_string(e));
  }
  device.finish();
  return device.readPixels();
}

std::vector<JointRows> referencePalette(const Skeleton& skeleton, const Clip* clip, float clip_time,
                                        const glm::vec3& position, float heading, float scale,
                                        std::span<const uint16_t> palette_joints) {
  PoseScratch scratch;
  std::vector<JointRows> model_space(static_cast<size_t>(skeleton.jointCount()));
  evaluatePalette(skeleton, clip, clip_time, scratch, model_space);
  const float c = std::cos(heading), s = std::sin(heading);
  // Rows of the placement: scale, then the turn about +Y (0 faces +Z), then the position.
  const glm::vec4 place[3] = {glm::vec4(c * scale, 0.0f, s * scale, position.x),
                              glm::vec4(0.0f, scale, 0.0f, position.y),
                              glm::vec4(-s * scale, 0.0f, c * scale, position.z)};
  const size_t slots = palette_joints.empty() ? model_space.size() : palette_joints.size();
  std::vector<JointRows> out(slots);
  for (size_t slot = 0; slot < slots; ++slot) {
    const JointRows& m = model_space[palette_joints.empty() ? slot : palette_joints[slot]];
    for (int r = 0; r < 3; ++r) {
      for (int col = 0; col < 4; ++col) {
        out[slot].rows[r][col] = place[r][0] * m.rows[0][col] + place[r][1] * m.rows[1][col] +
                                 place[r][2] * m.rows[2][col] + (col == 3 ? place[r][3] : 0.0f);
      }
    }
  }
  return out;
}

AnimationTexture bakeForTest(const Character& character, float fps, std::vector<BakedClip>& clips) {
  const uint32_t joints = static_cast<uint32_t>(character.skeleton.jointCount());
  std::vector<std::vector<JointRows>> frames;
  PoseScratch scratch;
  clips.clear();
  for (const Clip& clip : character.clips) {
    BakedClip baked;
    baked.name = clip.name;
    baked.first_frame = static_cast<uint32_t>(frames.size());
    baked.fps = fps;
    baked.duration = clip.duration();
    baked.loop = true;
    baked.frame_count = std::max(1u, static_cast<uint32_t>(std::lround(clip.duration() * fps)));
    for (uint32_t f = 0; f < baked.frame_count; ++f) {
      frames.emplace_back(joints);
      evaluatePalette(character.skeleton, &clip, clip.start_time + static_cast<float>(f) / fps,
                      scratch, frames.back());
    }
    clips.push_back(baked);
  }
  AnimationTexture t;
  t.format = TexelFormat::kRgba32F;
  t.joint_count = joints;
  t.frame_count = static_cast<uint32_t>(frames.size());
  t.frames_per_row = std::max(1u, std::min(t.frame_count, 4096u / t.texelsPerFrame()));
  t.width = t.frames_per_row * t.texelsPerFrame();
  t.height = (t.frame_count + t.frames_per_row - 1) / t.frames_per_row;
  t.texels32.assign(static_cast<size_t>(t.width) * t.height * 4, 0.0f);
  for (uint32_t f = 0; f < t.frame_count; ++f) {
    for (uint32_t j = 0; j < joints; ++j) {
      for (uint32_t r = 0; r < 3; ++r) {
        const size_t texel = t.channelIndex(f, j, r);
        for (int ch = 0; ch < 4; ++ch) t.texels32[texel + ch] = frames[f][j].rows[r][ch];
      }
    }
  }
  return t;
}

}  // namespace throng::test
