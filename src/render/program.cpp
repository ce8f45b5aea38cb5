// Shader compile/link with attribute bindings and transform-feedback varyings; logs in errors.
#include "render/program.h"

#ifndef __EMSCRIPTEN__
#include <GLES3/gl31.h>
#endif

#include <fmt/core.h>

#include "render/embedded_shaders.h"
#include "render/gl_check.h"
#include "render/shader_assembly.h"

namespace throng::render {
namespace {

// `source` with `lines` inserted right after its #version line (or at the top without one).
std::string afterVersionLine(std::string_view source, std::string_view lines) {
  size_t insert_at = 0;
  const size_t version = source.find("#version");
  if (version != std::string_view::npos) {
    const size_t end_of_line = source.find('\n', version);
    insert_at = end_of_line == std::string_view::npos ? source.size() : end_of_line + 1;
  }
  std::string result(source.substr(0, insert_at));
  if (insert_at > 0 && result.back() != '\n') result += '\n';
  result += lines;
  result += source.substr(insert_at);
  return result;
}

std::string shaderLog(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<size_t>(std::max(length, 1)), '\0');
  glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
  log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
  return log;
}

std::string programLog(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<size_t>(std::max(length, 1)), '\0');
  glGetProgramInfoLog(program, static_cast<GLsizei>(log.size()), nullptr, log.data());
  log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
  return log;
}

Result<GLuint> compile(GLenum stage, const std::string& source, const ProgramDesc& desc) {
  const std::string& name = desc.name;
  const char* stage_name = stage == GL_VERTEX_SHADER     ? "vertex"
                           : stage == GL_FRAGMENT_SHADER ? "fragment"
                                                         : "compute";
  const GLuint shader = glCreateShader(stage);
  if (shader == 0)
    return Status(ErrorCode::kGlError,
                  fmt::format("shader '{}': glCreateShader({}) failed", name, stage_name));
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint compiled = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
  if (compiled != GL_TRUE) {
    const std::string log = shaderLog(shader);
    glDeleteShader(shader);
    if (!desc.user_name.empty()) {
      return userShaderError(
          log, desc.user_name, stage_name,
          lineShift(desc.version_300 ? GlslVersion::kEs300 : GlslVersion::kEs100));
    }
    return Status(ErrorCode::kGlError, fmt::format("shader '{}': {} shader failed to compile:\n{}",
                                                   name, stage_name, log));
  }
  return shader;
}

}  // namespace

Program::~Program() {
  if (id_ != 0) glDeleteProgram(id_);
}

Program& Program::operator=(Program&& other) noexcept {
  if (this != &other) {
    if (id_ != 0) glDeleteProgram(id_);
    id_ = other.id_;
    other.id_ = 0;
  }
  return *this;
}

GLint Program::uniform(const char* name) const {
  return glGetUniformLocation(id_, name);
}

namespace {

// The link's result (with the program's log) and any GL error while building `desc`'s program;
// with a user's file, one line naming it.
Status linkStatus(const Program& program, const ProgramDesc& desc) {
  const std::string& name = desc.name;
  GLint linked = GL_FALSE;
  glGetProgramiv(program.id(), GL_LINK_STATUS, &linked);
  if (linked != GL_TRUE && !desc.user_name.empty()) {
    std::string log = programLog(program.id());
    log = log.substr(0, log.find('\n'));
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: the program does not link with it: {}", desc.user_name, log));
  }
  if (linked != GL_TRUE)
    return Status(ErrorCode::kGlError, fmt::format("shader '{}': program failed to link:\n{}", name,
                                                   programLog(program.id())));
  return checkGl(fmt::format("building shader '{}'", name));
}

Result<Program> buildComputeProgram(const ProgramDesc& desc, const GlFaults& faults) {
#ifdef __EMSCRIPTEN__
  (void)faults;
  return Status(ErrorCode::kUnsupported,
                fmt::format("shader '{}': WebGL has no compute shaders", desc.name));
#else
  std::string compute_source = desc.compute_source;
  if (faults.shader_compile) {
    compute_source = afterVersionLine(compute_source, "#error injected fault: shader compile\n");
  }
  Result<GLuint> compute = compile(GL_COMPUTE_SHADER, compute_source, desc);
  if (!compute.ok()) return compute.status();
  Program program(glCreateProgram());
  glAttachShader(program.id(), *compute);
  glLinkProgram(program.id());
  glDeleteShader(*compute);
  if (Status status = linkStatus(program, desc); !status.ok()) return status;
  return program;
#endif
}

}  // namespace

Result<Program> buildProgram(const ProgramDesc& given, const GlFaults& faults) {
  if (!given.compute_source.empty()) return buildComputeProgram(given, faults);
  // An injected fault is the driver's (kGlError), whoever's file the program holds.
  ProgramDesc faulted;
  if (faults.shader_compile || faults.program_link) {
    faulted = given;
    faulted.user_name.clear();
  }
  const ProgramDesc& desc = faults.shader_compile || faults.program_link ? faulted : given;
  std::string vertex_source = desc.vertex_source;
  if (faults.shader_compile) {
    vertex_source = afterVersionLine(vertex_source, "#error injected fault: shader compile\n");
  }
  if (faults.program_link) {
    // The shader compiles, but without a main() no program can link it.
    vertex_source = afterVersionLine(vertex_source, "#define main injected_fault_no_main\n");
  }
  Result<GLuint> vertex = compile(GL_VERTEX_SHADER, vertex_source, desc);
  if (!vertex.ok()) return vertex.status();
  Result<GLuint> fragment = compile(GL_FRAGMENT_SHADER, desc.fragment_source, desc);
  if (!fragment.ok()) {
    glDeleteShader(*vertex);
    return fragment.status();
  }
  Program program(glCreateProgram());
  glAttachShader(program.id(), *vertex);
  glAttachShader(program.id(), *fragment);
  for (const AttributeBinding& binding : desc.attributes)
    glBindAttribLocation(program.id(), binding.location, binding.name.c_str());
  if (!desc.feedback_varyings.empty()) {
    std::vector<const char*> names;
    for (const std::string& varying : desc.feedback_varyings) names.push_back(varying.c_str());
    glTransformFeedbackVaryings(program.id(), static_cast<GLsizei>(names.size()), names.data(),
                                GL_INTERLEAVED_ATTRIBS);
  }
  glLinkProgram(program.id());
  // Shaders are flagged for deletion now and freed with the program.
  glDeleteShader(*vertex);
  glDeleteShader(*fragment);
  if (Status status = linkStatus(program, desc); !status.ok()) return status;
  return program;
}

std::string injectDefines(std::string_view source, std::span<const std::string> defines) {
  std::string lines;
  for (const std::string& define : defines) lines += "#define " + define + "\n";
  return afterVersionLine(source, lines);
}

Result<std::string> embeddedShader(std::string_view path) {
  const char* source = detail::findEmbeddedShader(path);
  if (!source)
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("no embedded shader '{}' (shaders/ holds the sources)", path));
  // `#include "other"` lines (GLSL ES has none) are replaced by that embedded file, which holds
  // no includes of its own (one level: shared declarations, not a module system).
  constexpr std::string_view kInclude = "#include \"";
  std::string out;
  std::string_view rest = source;
  while (!rest.empty()) {
    const size_t end = rest.find('\n');
    const std::string_view line =
        rest.substr(0, end == std::string_view::npos ? rest.size() : end + 1);
    rest.remove_prefix(line.size());
    if (line.substr(0, kInclude.size()) != kInclude) {
      out += line;
      continue;
    }
    const size_t close = line.find('"', kInclude.size());
    const std::string_view name = line.substr(kInclude.size(), close - kInclude.size());
    const char* included =
        close == std::string_view::npos ? nullptr : detail::findEmbeddedShader(name);
    if (!included || std::string_view(included).find(kInclude) != std::string_view::npos)
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("shader '{}': cannot include '{}' (an embedded file without "
                                "includes of its own)",
                                path, name));
    out += included;
  }
  return out;
}

}  // namespace throng::render
