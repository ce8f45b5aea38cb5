// Shader programs: compile + link from source with attribute bindings; errors carry the GL log.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <GLES3/gl3.h>

#include "render/test_hooks.h"
#include "throng/core/status.h"

namespace throng::render {

struct AttributeBinding {
  std::string name;
  GLuint location = 0;
};

struct ProgramDesc {
  std::string name;  // shown in error messages, e.g. "gles3/instanced"
  std::string vertex_source;
  std::string fragment_source;
  std::vector<AttributeBinding> attributes;  // bound before linking
  // Vertex outputs captured by transform feedback (ES3 only), interleaved in this order.
  std::vector<std::string> feedback_varyings;
  // A compute program (ES 3.1) instead: when set, the other sources and bindings are ignored.
  std::string compute_source;
  // A crowd program holding a user's shading file (shader_assembly.h): its name, for errors that
  // point into it; empty for throng's own programs. version_300: GLSL ES 3.00 (else 1.00).
  std::string user_name;
  bool version_300 = false;
};

// An owned, linked GL program object (move-only; deleted with the object). Needs the context it
// was made in to be current when destroyed.
class Program {
 public:
  Program() = default;
  explicit Program(GLuint id) : id_(id) {}
  ~Program();
  Program(Program&& other) noexcept : id_(other.id_) { other.id_ = 0; }
  Program& operator=(Program&& other) noexcept;
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  GLuint id() const { return id_; }
  bool valid() const { return id_ != 0; }
  // Location of an active uniform, or -1 when the linker removed it or it does not exist.
  GLint uniform(const char* name) const;

 private:
  GLuint id_ = 0;
};

// Compiles and links. A shader that fails to compile or a program that fails to link returns
// kGlError with the program name, the stage and the GL info log; with a user's file
// (desc.user_name), kInvalidArgument with one line naming the file and its line
// (userShaderError). Needs a current context.
// `faults` (a device's, see test_hooks.h) can break the vertex shader so that GL refuses it.
Result<Program> buildProgram(const ProgramDesc& desc, const GlFaults& faults = {});

// `source` with "#define NAME\n" (or "#define NAME VALUE" when given as "NAME VALUE") inserted
// right after its #version line (or at the top when it has none).
std::string injectDefines(std::string_view source, std::span<const std::string> defines);

// Text of a shader embedded at build time from shaders/, by its path there, e.g.
// "gles3/instanced.vert"; kInvalidArgument when no such shader was embedded.
Result<std::string> embeddedShader(std::string_view path);

}  // namespace throng::render
