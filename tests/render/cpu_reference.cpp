// CPU reference images: SkinJob then a trivial static-mesh draw; a small test-only baker.
#include "render/cpu_reference.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "render/gl_check.h"
#include "render/material_draws.h"
#include "render/program.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"
#include "throng/render/frame_view.h"

namespace throng::test {

Result<render::Image> drawCpuReference(render::Device& device,
                                       std::span<const ReferenceCharacter> characters,
                                       const glm::mat4& view_projection,
                                       const glm::vec4& clear_color) {
  Result<std::string> vs = render::embeddedShader("gles2/static.vert");
  Result<std::string> fs = render::embeddedShader("gles2/lambert.frag");
  if (!vs.ok()) return vs.status();
  if (!fs.ok()) return fs.status();
  render::ProgramDesc desc;
  desc.name = "gles2/static";
  desc.vertex_source = *vs;
  desc.fragment_source = *fs;
  desc.attributes = {
      {"a_position", 0}, {"a_normal", 1}, {"a_uv0", 2}, {"a_uv1", 3}, {"a_color", 4}};
  Result<render::Program> program = render::buildProgram(desc);
  if (!program.ok()) return program.status();

  // Unindexed triangle soup: position, normal, colour (material factor x vertex colour) per
  // corner.
  struct Corner {
    glm::vec3 position;
    glm::vec3 normal;
    glm::vec4 color;
  };
  std::vector<Corner> soup;
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
      const glm::vec4 factor =
          material < c.materials.size() ? c.materials[material].base_color : glm::vec4(1.0f);
      for (uint32_t i = first; i < first + count; ++i) {
        const uint32_t v = m.indices[i];
        soup.push_back({positions[v], normals[v],
                        factor * (m.colors.empty() ? glm::vec4(1.0f) : m.colors[v])});
      }
    };
    if (m.submeshes.empty()) add(0, static_cast<uint32_t>(m.indices.size()), 0);
    for (const SubMesh& sub : m.submeshes) add(sub.first_index, sub.index_count, sub.material);
  }
  device.beginFrame(clear_color);
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(soup.size() * sizeof(Corner)), soup.data(),
               GL_STATIC_DRAW);
  glUseProgram(program->id());
  glUniformMatrix4fv(program->uniform("u_view_projection"), 1, GL_FALSE, &view_projection[0][0]);
  const render::FrameView light;  // the default light every path draws with
  const glm::vec3 direction = glm::normalize(light.light_direction);
  glUniform3f(program->uniform("u_light_direction"), direction.x, direction.y, direction.z);
  glUniform1f(program->uniform("u_ambient"), light.ambient);
  // The default material (white, untextured); the colours come per corner, no uvs.
  Result<render::GpuMaterials> material = render::GpuMaterials::create(device, render::Looks{});
  if (!material.ok()) return material.status();
  material->apply(render::MaterialUniforms::of(*program), 0, true);
  glVertexAttrib2f(2, 0.0f, 0.0f);
  glVertexAttrib2f(3, 0.0f, 0.0f);
  const GLsizei stride = sizeof(Corner);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glEnableVertexAttribArray(4);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offsetof(Corner, position)));
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offsetof(Corner, normal)));
  glVertexAttribPointer(4, 4, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offsetof(Corner, color)));
  // apply() culls back faces as the merged and instanced paths (counter-clockwise fronts).
  glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(soup.size()));
  glDisable(GL_CULL_FACE);
  glDisableVertexAttribArray(0);
  glDisableVertexAttribArray(1);
  glDisableVertexAttribArray(4);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glDeleteBuffers(1, &buffer);
  if (Status s = render::checkGl("cpu reference draw"); !s.ok()) return s;
  device.finish();
  return device.readPixels();
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
