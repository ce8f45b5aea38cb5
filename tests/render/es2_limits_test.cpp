// GLSL ES 1.00's minimums (its Appendix A and section 7.4: 8 vertex attributes, 8 varying
// vectors, no texture lookups in the vertex stage of an ES 2.0 device) kept by every program the
// merged path builds on a real ES 2.0 context: with and without a user's file (and its vertex
// hook), with the shadow map, blob shadows and the depth pass. Each live GL program is read back
// from the driver (its attached shaders' sources, its active attributes): nothing of the
// library's is asked how it assembled them.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <GLES3/gl3.h>
#include <gtest/gtest.h>

#include "render/glsl_preprocessor.h"
#include "render/merged_batch_renderer.h"
#include "render_test_support.h"
#include "support/material_character.h"
#include "support/test_support.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/tangents.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
namespace {

// GLSL ES 1.00's guaranteed minimums (gl_MaxVertexAttribs, gl_MaxVaryingVectors).
constexpr int kMaxVertexAttributes = 8;
constexpr int kMaxVaryingVectors = 8;
constexpr int kMaxVertexUniformVectors = 128;
// gl_MaxFragmentUniformVectors: GLSL ES 1.00's (and WebGL 1's) minimum.
constexpr int kMaxFragmentUniformVectors = 16;
// Object names scanned for live programs (shaders and programs share one name space; a few
// renderers make well under a few hundred).
constexpr GLuint kMaxObjectName = 4096;

// ---- declarations at global scope ----

int vectorsOf(const std::string& type) {
  if (type == "mat2") return 2;
  if (type == "mat3") return 3;
  if (type == "mat4") return 4;
  return 1;  // float, vec2..4, int, ivec2..4, bool, bvec2..4: one row each (packing ignored)
}

// Rows of every global declaration with `qualifier` (e.g. "varying") in preprocessed `text`,
// counting each vector one row (GLSL ES 1.00's packing could only need fewer), arrays by their
// size. `names` receives what was counted.
int declaredVectors(const std::string& text, const std::string& qualifier,
                    std::vector<std::string>* names) {
  int rows = 0;
  for (const GlslDeclaration& d : globalDeclarations(text, qualifier)) {
    EXPECT_GT(d.count, 0) << "array size of " << d.name << " is not a literal";
    names->push_back(d.type + " " + d.name);
    rows += vectorsOf(d.type) * d.count;
  }
  return rows;
}

std::string shaderSource(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_SHADER_SOURCE_LENGTH, &length);
  std::string source(static_cast<size_t>(std::max(length, 1)), '\0');
  glGetShaderSource(shader, length, nullptr, source.data());
  source.resize(std::strlen(source.c_str()));
  return source;
}

// What identifies a program in a failure: its vertex source's #define lines.
std::string definesOf(const std::string& source) {
  std::string out;
  size_t at = 0;
  while ((at = source.find("#define ", at)) != std::string::npos && out.size() < 400) {
    const size_t end = source.find('\n', at);
    out += source.substr(at + 8, end - at - 8) + "; ";
    at = end;
  }
  return out;
}

struct Checked {
  int programs = 0;
  int most_attributes = 0;
  int most_varyings = 0;
  int impostor_programs = 0;       // gles2/impostor.vert's
  int most_impostor_uniforms = 0;  // vertex uniform vectors of both stages together
  int morph_programs = 0;          // merged programs with morph animation (MORPH_VAT, _DELTAS)
  int most_morph_uniforms = 0;
};

// A linked program of the current context as the driver holds it.
struct LiveProgram {
  GLuint name = 0;
  std::string label;  // the configuration, the GL name and the vertex stage's #defines
  std::string vertex, fragment;
};

std::vector<LiveProgram> livePrograms(const std::string& what) {
  std::vector<LiveProgram> out;
  for (GLuint name = 1; name < kMaxObjectName; ++name) {
    if (!glIsProgram(name)) continue;
    GLint linked = 0;
    glGetProgramiv(name, GL_LINK_STATUS, &linked);
    if (!linked) continue;
    GLuint shaders[2] = {0, 0};
    GLsizei count = 0;
    glGetAttachedShaders(name, 2, &count, shaders);
    LiveProgram p;
    p.name = name;
    for (GLsizei i = 0; i < count; ++i) {
      GLint type = 0;
      glGetShaderiv(shaders[i], GL_SHADER_TYPE, &type);
      (type == GL_VERTEX_SHADER ? p.vertex : p.fragment) = shaderSource(shaders[i]);
    }
    if (p.vertex.empty()) continue;  // compute programs have no vertex stage (none on ES 2.0)
    p.label = what + ", program " + std::to_string(name) + " (" + definesOf(p.vertex) + ")";
    out.push_back(std::move(p));
  }
  return out;
}

// The preprocessor's predefined macros for a stage of a GLSL ES 1.00 program on this context.
std::map<std::string, std::string> predefinedMacros(bool fragment) {
  std::map<std::string, std::string> m = {{"GL_ES", "1"}, {"__VERSION__", "100"}};
  if (fragment) m["GL_FRAGMENT_PRECISION_HIGH"] = "1";
  return m;
}

// Every live program of the current context against the limits.
void checkLivePrograms(const std::string& what, Checked& checked) {
  for (const LiveProgram& program : livePrograms(what)) {
    const GLuint name = program.name;
    const std::string& vertex = program.vertex;
    const std::string& fragment = program.fragment;
    const std::string& label = program.label;
    ++checked.programs;
    EXPECT_EQ(vertex.rfind("#version 100", 0), 0u) << label;
    // Attributes: what the linker kept, in locations (a matN takes N).
    GLint attributes = 0, locations = 0;
    glGetProgramiv(name, GL_ACTIVE_ATTRIBUTES, &attributes);
    for (GLint a = 0; a < attributes; ++a) {
      char attribute[128];
      GLint size = 0;
      GLenum type = 0;
      glGetActiveAttrib(name, static_cast<GLuint>(a), sizeof attribute, nullptr, &size, &type,
                        attribute);
      const int per = type == GL_FLOAT_MAT4   ? 4
                      : type == GL_FLOAT_MAT3 ? 3
                      : type == GL_FLOAT_MAT2 ? 2
                                              : 1;
      locations += per * size;
    }
    EXPECT_LE(locations, kMaxVertexAttributes) << label;
    // Varyings: the vertex stage's declarations after the preprocessor.
    const std::string vertex_text = GlslPreprocessor(predefinedMacros(false)).run(vertex);
    std::vector<std::string> varyings;
    const int rows = declaredVectors(vertex_text, "varying", &varyings);
    std::string list;
    for (const std::string& v : varyings) list += v + ", ";
    EXPECT_LE(rows, kMaxVaryingVectors) << label << ": " << list;
    // The fragment stage reads no varying the vertex stage lacks (a miscount would hide one).
    std::vector<std::string> read;
    declaredVectors(GlslPreprocessor(predefinedMacros(true)).run(fragment), "varying", &read);
    for (const std::string& v : read) {
      EXPECT_NE(std::find(varyings.begin(), varyings.end(), v), varyings.end())
          << label << ": " << v;
    }
    // ES 2.0 guarantees no vertex texture units: no lookups in the vertex stage, but for morph
    // animation's (made only where the device has them: docs/morph.md), whose batches are sized
    // from the uniform budget with every active uniform counted.
    const bool morph = vertex_text.find("u_morph_frames") != std::string::npos;
    for (const std::string& token : glslTokens(vertex_text)) {
      EXPECT_TRUE(morph ||
                  (token != "texture2D" && token != "texture2DLod" && token != "texture2DProj"))
          << label << ": a texture lookup in the vertex stage";
    }
    if (morph) {
      ++checked.morph_programs;
      const int vectors = otherUniformVectors(name, {});
      EXPECT_LE(vectors, kMaxVertexUniformVectors) << label;
      checked.most_morph_uniforms = std::max(checked.most_morph_uniforms, vectors);
    }
    if (vertex_text.find("u_impostor_agents") != std::string::npos) {
      // The impostor's batches are sized from the uniform budget (ES 2.0's minimum below):
      // every active uniform, the fragment stage's too, within it.
      ++checked.impostor_programs;
      const int vectors = otherUniformVectors(name, {});
      EXPECT_LE(vectors, kMaxVertexUniformVectors) << label;
      checked.most_impostor_uniforms = std::max(checked.most_impostor_uniforms, vectors);
    }
    checked.most_attributes = std::max(checked.most_attributes, locations);
    checked.most_varyings = std::max(checked.most_varyings, rows);
  }
}

// A user file with its own sampler and a vertex hook that reads every vertex field.
const char* const kHookedShader = R"(uniform sampler2D my_map;
void throngVertex(inout ThrongVertex v) {
  v.position += 0.01 * v.normal * (v.uv0.x + v.uv1.y + v.color.r + v.tint.g + v.tangent.w + v.agent + v.state + v.lod);
}
#ifdef THRONG_FRAGMENT
vec4 throngShade(ThrongSurface s) {
  vec4 t = throngTexture(my_map, s.uv1);
  return vec4(throngPbr(s) * throngShadow(s) + t.rgb * s.tangent.w + s.view * s.agent * 0.0 +
              s.position * s.state * s.lod * 0.0 + s.color.rgb * s.uv0.x, s.base_color.a);
}
#endif
)";

// The material character (textures, vertex colours, a MASK cut-out, variants) with a normal
// texture on its checker, so that the mesh carries tangents.
const Package& richPackage() {
  static const Package package = [] {
    Character c = test::makeMaterialCharacter();
    SourceImage normals = c.images[0];
    normals.name = "normals";
    c.images.push_back(normals);
    c.materials[1].normal_texture.image = static_cast<int>(c.images.size()) - 1;
    c.materials[1].emissive_texture.image = 0;
    c.materials[1].emissive_texture.uv_set = 1;
    c.mesh.uvs1 = c.mesh.uvs;
    EXPECT_TRUE(generateTangents(c.mesh, c.materials).ok());
    BakeOptions bake;
    bake.threads = 1;
    return bakeCharacter(c, bake).value();
  }();
  return package;
}

// Draws a frame and the depth pass on the merged path of a real ES 2.0 context in every
// configuration (the built-in look and a user file with a vertex hook; no shadows, the shadow
// map, blob shadows), calling `inspect` after each with the configuration's name while its
// renderer's programs are alive.
void drawEveryConfiguration(const std::function<void(const std::string&)>& inspect) {
  DeviceDesc desc;
  desc.gles_major = 2;
  desc.width = desc.height = 48;
  std::unique_ptr<Device> device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  ASSERT_EQ(device->caps().gles_major, 2);
  const Package& package = richPackage();
  ASSERT_FALSE(package.lods[0].mesh.tangents.empty());
  ASSERT_FALSE(package.variants.empty());
  const FrameView view =
      lookAtView(glm::vec3(3.5f, 0.5f, 6.0f), glm::vec3(3.5f, 0.5f, 0.0f), 1.2f, 1.0f, 0.1f, 30.0f);
  const Placement placements[] = {Placement{}, Placement{glm::vec3(0.5f, 0.0f, -1.0f), 0.3f, 1.0f}};
  const AgentPlayback playback[2];
  const glm::vec4 tints[] = {glm::vec4(1.0f), glm::vec4(0.5f, 1.0f, 1.0f, 1.0f)};
  const uint16_t variants[] = {0, 2};
  const CrowdFrame frame{placements, playback, tints, {}, variants};

  struct Config {
    const char* name;
    ShadowMode shadows;
    bool user;
  };
  const Config configs[] = {
      {"built-in look, no shadows", ShadowMode::kOff, false},
      {"built-in look, shadow map", ShadowMode::kMap, false},
      {"built-in look, blob shadows", ShadowMode::kBlob, false},
      {"user file with a vertex hook, shadow map", ShadowMode::kMap, true},
      {"user file with a vertex hook, blob shadows", ShadowMode::kBlob, true}};
  for (const Config& config : configs) {
    CrowdRendererDesc rd;
    rd.path = RenderPath::kMerged;
    rd.shadows = config.shadows;
    rd.shadow_map_size = 256;
    rd.ground.grid = true;
    if (config.user)
      rd.shader = std::make_shared<const ShaderSource>(ShaderSource{"hooked.glsl", kHookedShader});
    CrowdRenderer renderer(*device, package, rd);
    ASSERT_TRUE(renderer.ok()) << config.name << ": " << renderer.status().toString();
    ASSERT_EQ(renderer.path(), RenderPath::kMerged);
    EXPECT_EQ(renderer.shadows(), config.shadows) << renderer.shadowReason();
    device->beginFrame(glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
    ASSERT_TRUE(renderer.draw(view, frame).ok())
        << config.name << ": " << renderer.status().toString();
    // The depth pass for a program's own shadow map, into the frame (its colour is irrelevant).
    ASSERT_TRUE(renderer.drawDepth(view, frame).ok()) << config.name;
    device->finish();
    inspect(config.name);
  }
  // The impostor's programs (the merged path's quads, K per draw) at ES 2.0's minimum uniform
  // budget, colour and depth, with the built-in look and with the user's file.
  const Package impostor_package = test::sampleWithSyntheticImpostor();
  const Config impostor_configs[] = {
      {"impostors, built-in look, shadow map", ShadowMode::kMap, false},
      {"impostors, user file with a vertex hook, blob shadows", ShadowMode::kBlob, true}};
  for (const Config& config : impostor_configs) {
    CrowdRendererDesc rd;
    rd.path = RenderPath::kMerged;
    rd.shadows = config.shadows;
    rd.shadow_map_size = 256;
    rd.max_vertex_uniform_vectors = kMaxVertexUniformVectors;
    rd.fixed_lod = static_cast<int>(impostor_package.lods.size());
    if (config.user)
      rd.shader = std::make_shared<const ShaderSource>(ShaderSource{"hooked.glsl", kHookedShader});
    CrowdRenderer renderer(*device, impostor_package, rd);
    ASSERT_TRUE(renderer.ok()) << config.name << ": " << renderer.status().toString();
    ASSERT_EQ(renderer.impostorLod(), *rd.fixed_lod) << renderer.impostorReason();
    device->beginFrame(glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
    ASSERT_TRUE(renderer.draw(view, frame).ok()) << config.name;
    ASSERT_TRUE(renderer.drawDepth(view, frame).ok()) << config.name;
    device->finish();
    inspect(config.name);
  }
  // Morph animation (docs/morph.md): the eighth attribute (a_vertex) and the morph texture's
  // uniforms, at ES 2.0's minimum uniform budget, colour and depth, with the user's file.
  for (const char* asset : {"feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb",
                            "feature-tests/MorphStressTest/MorphStressTest.glb"}) {
    THRONG_REQUIRE_ASSET(asset);
    const std::string path = test::assetPath(asset).string();
    Result<Character> character = importGltf(path);
    ASSERT_TRUE(character.ok()) << character.status().toString();
    BakeOptions bake;
    bake.threads = 1;
    Result<Package> morph_package = bakeCharacter(*character, bake);
    ASSERT_TRUE(morph_package.ok()) << morph_package.status().toString();
    ASSERT_NE(morph_package->morph.kind, MorphBakeKind::kNone);
    CrowdRendererDesc rd;
    rd.path = RenderPath::kMerged;
    rd.shadows = ShadowMode::kMap;
    rd.shadow_map_size = 256;
    rd.max_vertex_uniform_vectors = kMaxVertexUniformVectors;
    rd.shader = std::make_shared<const ShaderSource>(ShaderSource{"hooked.glsl", kHookedShader});
    const std::string name = std::string("morph (") + morphBakeKindName(morph_package->morph.kind) +
                             "), " + asset + ", user file with a vertex hook, shadow map";
    CrowdRenderer renderer(*device, *morph_package, rd);
    ASSERT_TRUE(renderer.ok()) << name << ": " << renderer.status().toString();
    device->beginFrame(glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
    ASSERT_TRUE(renderer.draw(view, CrowdFrame{placements, playback}).ok()) << name;
    ASSERT_TRUE(renderer.drawDepth(view, CrowdFrame{placements, playback}).ok()) << name;
    device->finish();
    inspect(name);
  }
}

TEST(Es2Limits, EveryMergedProgramStaysWithinGlslEs100Minimums) {
  Checked checked;
  drawEveryConfiguration([&](const std::string& config) { checkLivePrograms(config, checked); });
  std::printf(
      "  %d programs checked: at most %d attribute locations, %d varying vectors; %d "
      "impostor programs, at most %d uniform vectors; %d morph programs, at most %d uniform "
      "vectors\n",
      checked.programs, checked.most_attributes, checked.most_varyings, checked.impostor_programs,
      checked.most_impostor_uniforms, checked.morph_programs, checked.most_morph_uniforms);
  // Each morph asset's colour and depth programs (VAT and MorphStressTest's).
  EXPECT_GE(checked.morph_programs, 4);
  // The impostor's colour and depth programs, each with and without the user's file.
  EXPECT_GE(checked.impostor_programs, 4);
  // Crowd (colour and depth, each with and without the file), ground and blob programs at least.
  EXPECT_GE(checked.programs, 12);
}

// Components of a uniform of GL type `type` (matNs by their N x N floats); 0 for samplers.
int componentsOf(GLenum type) {
  switch (type) {
    case GL_FLOAT:
    case GL_INT:
    case GL_BOOL:
      return 1;
    case GL_FLOAT_VEC2:
    case GL_INT_VEC2:
    case GL_BOOL_VEC2:
      return 2;
    case GL_FLOAT_VEC3:
    case GL_INT_VEC3:
    case GL_BOOL_VEC3:
      return 3;
    case GL_FLOAT_VEC4:
    case GL_INT_VEC4:
    case GL_BOOL_VEC4:
    case GL_FLOAT_MAT2:
      return 4;
    case GL_FLOAT_MAT3:
      return 9;
    case GL_FLOAT_MAT4:
      return 16;
    default:
      return 0;  // samplers take texture units, not uniform vectors
  }
}

// The fragment stage's uniforms fit GLSL ES 1.00's 16 vectors: every active uniform the
// fragment source declares and uses (after the preprocessor), counted at its best possible
// packing, ceil(components / 4) rows (Appendix A.7's packing can only need more).
TEST(Es2Limits, EveryMergedFragmentStageFitsSixteenUniformVectors) {
  int checked = 0, most = 0;
  drawEveryConfiguration([&](const std::string& config) {
    for (const LiveProgram& program : livePrograms(config)) {
      const std::vector<std::string> words =
          glslTokens(GlslPreprocessor(predefinedMacros(true)).run(program.fragment));
      GLint count = 0;
      glGetProgramiv(program.name, GL_ACTIVE_UNIFORMS, &count);
      int components = 0;
      std::string used;
      for (GLint u = 0; u < count; ++u) {
        char buffer[256];
        GLint size = 0;
        GLenum type = 0;
        glGetActiveUniform(program.name, static_cast<GLuint>(u), sizeof buffer, nullptr, &size,
                           &type, buffer);
        std::string name = buffer;
        name = name.substr(0, name.find('['));
        // Declared and used: the name appears at least twice in the fragment stage's text (tokens
        // keep a swizzle: "u_fog_eye.xyz" is a use of u_fog_eye).
        const auto mentions = std::count_if(words.begin(), words.end(), [&](const std::string& w) {
          return w == name || w.rfind(name + ".", 0) == 0;
        });
        if (mentions < 2 || componentsOf(type) == 0) continue;
        components += componentsOf(type) * size;
        used += name + (size > 1 ? "[" + std::to_string(size) + "]" : "") + " ";
      }
      const int vectors = (components + 3) / 4;
      ++checked;
      most = std::max(most, vectors);
      EXPECT_LE(vectors, kMaxFragmentUniformVectors)
          << program.label << ": at least " << vectors << " vectors: " << used;
    }
  });
  std::printf("  %d programs checked: the fragment stage needs at most %d uniform vectors\n",
              checked, most);
  EXPECT_GE(checked, 12);
}

// The preprocessor and the counter themselves: a miscount would let an overflow through.
TEST(Es2Limits, TheVaryingCounterCountsWhatTheTextDeclares) {
  const std::string source = R"(#version 100
#define V varying
#define WIDE 1
V vec4 a; // one
#if defined(WIDE) && WIDE > 0
varying mediump vec3 b, c[2];
#else
varying vec4 never;
#endif
#ifndef WIDE
varying vec4 never2;
#elif WIDE == 1
varying mat3 m;
#endif
/* varying vec4 commented; */
uniform vec4 u;
void main() { vec4 varying_like = vec4(0.0); }
)";
  std::vector<std::string> names;
  const int rows = declaredVectors(GlslPreprocessor({}).run(source), "varying", &names);
  EXPECT_EQ(rows, 1 + 1 + 2 + 3);
  EXPECT_EQ(names, (std::vector<std::string>{"vec4 a", "vec3 b", "vec3 c", "mat3 m"}));
}

}  // namespace
}  // namespace throng::render
