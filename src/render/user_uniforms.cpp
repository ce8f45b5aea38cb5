// User uniforms: the file's active uniforms read from GL, values checked against their types.
#include "render/user_uniforms.h"

#include <algorithm>
#include <map>

#include <fmt/core.h>

#include "render/glsl_preprocessor.h"

namespace throng::render {
namespace {

bool throngsName(std::string_view name) {
  return name.substr(0, 2) == "u_" || name.substr(0, 7) == "throng_" || name.substr(0, 3) == "gl_";
}

// Components per element and whether they are integers, for GL uniform type `type`; 0 for
// samplers.
struct TypeShape {
  int components = 0;
  bool ints = false;
  bool sampler = false;
};

TypeShape shapeOf(GLenum type) {
  switch (type) {
    case GL_FLOAT:
      return {1, false};
    case GL_FLOAT_VEC2:
      return {2, false};
    case GL_FLOAT_VEC3:
      return {3, false};
    case GL_FLOAT_VEC4:
      return {4, false};
    case GL_FLOAT_MAT4:
      return {16, false};
    case GL_INT:
    case GL_BOOL:
      return {1, true};
    case GL_INT_VEC2:
    case GL_BOOL_VEC2:
      return {2, true};
    case GL_INT_VEC3:
    case GL_BOOL_VEC3:
      return {3, true};
    case GL_INT_VEC4:
    case GL_BOOL_VEC4:
      return {4, true};
    case GL_SAMPLER_2D:
      return {1, true, true};
    default:
      return {};  // mat2, mat3, unsigned and other samplers: not settable here
  }
}

std::string typeText(const ActiveUniform& u) {
  const TypeShape shape = shapeOf(u.type);
  const std::string element =
      shape.sampler ? "a sampler2D"
      : shape.components == 0
          ? "a type setShaderUniform cannot set (mat2, mat3, unsigned, ...)"
          : fmt::format("{} {}{}", shape.components, shape.ints ? "int" : "float",
                        shape.components > 1 ? "s" : "");
  return u.size > 1 ? fmt::format("{} per element, {} elements", element, u.size) : element;
}

}  // namespace

std::vector<ActiveUniform> activeUniformsOf(GLuint program) {
  GLint count = 0, max_length = 0;
  glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &count);
  glGetProgramiv(program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &max_length);
  std::string name(static_cast<size_t>(std::max(max_length, 1)), '\0');
  std::vector<ActiveUniform> out;
  for (GLint i = 0; i < count; ++i) {
    GLsizei length = 0;
    GLint size = 0;
    GLenum type = 0;
    glGetActiveUniform(program, static_cast<GLuint>(i), static_cast<GLsizei>(name.size()), &length,
                       &size, &type, name.data());
    const std::string_view active(name.data(), static_cast<size_t>(length));
    out.push_back({std::string(active.substr(0, active.find('['))), type, size});
  }
  return out;
}

std::vector<ActiveUniform> userUniformsOf(GLuint program) {
  std::vector<ActiveUniform> out = activeUniformsOf(program);
  std::erase_if(out, [](const ActiveUniform& u) { return throngsName(u.name); });
  return out;
}

Status UserUniforms::declare(std::vector<ActiveUniform> uniforms, std::vector<int> texture_units,
                             std::string file) {
  uniforms_ = std::move(uniforms);
  units_ = std::move(texture_units);
  file_ = std::move(file);
  values_.clear();
  next_unit_ = 0;
  // A sampler that can never be bound reads whatever unit 0 holds (throng's animation texture on
  // some paths): refuse the file now rather than draw with a wrong texture.
  std::vector<std::string> samplers;
  for (const ActiveUniform& u : uniforms_) {
    if (shapeOf(u.type).sampler)
      samplers.insert(samplers.end(), size_t(std::max(u.size, 1)), u.name);
  }
  return checkUserSamplers(samplers, units_.size(), file_);
}

std::vector<int> unitsOnDevice(std::vector<int> units, const Caps& caps) {
  std::erase_if(units, [&](int unit) { return unit >= caps.max_texture_image_units; });
  return units;
}

void addUserSamplers(std::string_view source, bool fragment, std::vector<std::string>& samplers) {
  std::map<std::string, std::string> predefined = {{"GL_ES", "1"}};
  predefined["__VERSION__"] =
      source.find("#version 300 es") != std::string_view::npos ? "300" : "100";
  if (fragment) predefined["GL_FRAGMENT_PRECISION_HIGH"] = "1";
  const std::string text = GlslPreprocessor(std::move(predefined)).run(source);
  for (const GlslDeclaration& d : globalDeclarations(text, "uniform")) {
    const bool sampler = d.type.find("sampler") != std::string::npos;
    if (!sampler || throngsName(d.name)) continue;
    if (std::find(samplers.begin(), samplers.end(), d.name) != samplers.end()) continue;
    samplers.insert(samplers.end(), size_t(std::max(d.count, 1)), d.name);
  }
}

Status checkUserSamplers(const std::vector<std::string>& samplers, size_t units,
                         const std::string& file) {
  if (samplers.size() <= units) return Status::okStatus();
  std::string names;
  for (const std::string& name : samplers)
    names += fmt::format("{}'{}'", names.empty() ? "" : ", ", name);
  return Status(ErrorCode::kLimitExceeded,
                fmt::format("shader '{}' reads {} samplers ({}); this path leaves {} texture "
                            "units free for them (the rest hold throng's textures)",
                            file, samplers.size(), names, units));
}

const ActiveUniform* UserUniforms::find(std::string_view name) const {
  for (const ActiveUniform& u : uniforms_) {
    if (u.name == name) return &u;
  }
  return nullptr;
}

UserUniforms::Value& UserUniforms::slot(const ActiveUniform& uniform) {
  for (Value& v : values_) {
    if (v.name == uniform.name) return v;
  }
  values_.push_back({});
  values_.back().name = uniform.name;
  values_.back().type = uniform.type;
  return values_.back();
}

Status UserUniforms::setFloats(std::string_view name, std::span<const float> values) {
  const ActiveUniform* u = find(name);
  const TypeShape shape = u ? shapeOf(u->type) : TypeShape{};
  if (!u || shape.ints || shape.components == 0 || values.empty() ||
      values.size() % static_cast<size_t>(shape.components) != 0 ||
      values.size() / static_cast<size_t>(shape.components) > static_cast<size_t>(u->size)) {
    return Status(ErrorCode::kInvalidArgument,
                  u ? fmt::format("shader '{}': uniform '{}' takes {}; {} floats given", file_,
                                  name, typeText(*u), values.size())
                    : fmt::format("shader '{}' has no active uniform '{}' (unused uniforms are "
                                  "removed by the compiler)",
                                  file_.empty() ? "(none)" : file_, name));
  }
  Value& v = slot(*u);
  v.ints = false;
  v.floats.assign(values.begin(), values.end());
  v.count = static_cast<int>(values.size()) / shape.components;
  return Status::okStatus();
}

Status UserUniforms::setInts(std::string_view name, std::span<const int> values) {
  const ActiveUniform* u = find(name);
  const TypeShape shape = u ? shapeOf(u->type) : TypeShape{};
  if (!u || !shape.ints || shape.sampler || values.empty() ||
      values.size() % static_cast<size_t>(shape.components) != 0 ||
      values.size() / static_cast<size_t>(shape.components) > static_cast<size_t>(u->size)) {
    return Status(ErrorCode::kInvalidArgument,
                  u ? fmt::format("shader '{}': uniform '{}' takes {}; {} ints given", file_, name,
                                  typeText(*u), values.size())
                    : fmt::format("shader '{}' has no active uniform '{}' (unused uniforms are "
                                  "removed by the compiler)",
                                  file_.empty() ? "(none)" : file_, name));
  }
  Value& v = slot(*u);
  v.ints = true;
  v.int_values.assign(values.begin(), values.end());
  v.count = static_cast<int>(values.size()) / shape.components;
  return Status::okStatus();
}

Status UserUniforms::setTexture(std::string_view name, GLuint texture) {
  const ActiveUniform* u = find(name);
  if (!u || !shapeOf(u->type).sampler) {
    return Status(ErrorCode::kInvalidArgument,
                  u ? fmt::format("shader '{}': uniform '{}' is {}, not a sampler2D", file_, name,
                                  typeText(*u))
                    : fmt::format("shader '{}' has no active sampler '{}'",
                                  file_.empty() ? "(none)" : file_, name));
  }
  Value& v = slot(*u);
  // declare() refused a file with more samplers than units: each sampler finds one.
  if (v.unit < 0) v.unit = units_[next_unit_++];
  v.texture = texture;
  return Status::okStatus();
}

void UserUniforms::apply(GLuint program) const {
  for (const Value& v : values_) {
    const GLint location = glGetUniformLocation(program, v.name.c_str());
    if (location < 0) continue;  // not used by this program (e.g. the depth pass's)
    if (v.unit >= 0) {
      glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(v.unit));
      glBindTexture(GL_TEXTURE_2D, v.texture);
      glActiveTexture(GL_TEXTURE0);
      glUniform1i(location, v.unit);
      continue;
    }
    const GLsizei n = v.count;
    switch (v.type) {
      case GL_FLOAT:
        glUniform1fv(location, n, v.floats.data());
        break;
      case GL_FLOAT_VEC2:
        glUniform2fv(location, n, v.floats.data());
        break;
      case GL_FLOAT_VEC3:
        glUniform3fv(location, n, v.floats.data());
        break;
      case GL_FLOAT_VEC4:
        glUniform4fv(location, n, v.floats.data());
        break;
      case GL_FLOAT_MAT4:
        glUniformMatrix4fv(location, n, GL_FALSE, v.floats.data());
        break;
      case GL_INT:
      case GL_BOOL:
        glUniform1iv(location, n, v.int_values.data());
        break;
      case GL_INT_VEC2:
      case GL_BOOL_VEC2:
        glUniform2iv(location, n, v.int_values.data());
        break;
      case GL_INT_VEC3:
      case GL_BOOL_VEC3:
        glUniform3iv(location, n, v.int_values.data());
        break;
      case GL_INT_VEC4:
      case GL_BOOL_VEC4:
        glUniform4iv(location, n, v.int_values.data());
        break;
      default:
        break;
    }
  }
}

}  // namespace throng::render
