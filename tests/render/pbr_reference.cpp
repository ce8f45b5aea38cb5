// The built-in look's formula (docs/shaders.md, "The built-in look"), term by term.
#include "render/pbr_reference.h"

#include <algorithm>
#include <cmath>

namespace throng::test {

double srgbToLinear(double c) {
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

glm::ivec3 encodedColour(const glm::dvec3& c) {
  glm::ivec3 out;
  for (int i = 0; i < 3; ++i) {
    const double v = std::clamp(c[i], 0.0, 1.0);
    const double e = v < 0.0031308 ? v * 12.92 : 1.055 * std::pow(v, 1.0 / 2.4) - 0.055;
    out[i] = static_cast<int>(std::lround(e * 255.0));
  }
  return out;
}

glm::dvec3 shadePbr(const PbrPoint& p, const render::FrameView& light) {
  constexpr double kPi = 3.14159265358979323846;
  const glm::dvec3 n = glm::normalize(p.normal);
  const glm::dvec3 v = glm::normalize(p.view);
  const glm::dvec3 l = -glm::normalize(glm::dvec3(light.light_direction));
  const glm::dvec3 h = glm::normalize(l + v);
  const double nl = std::clamp(glm::dot(n, l), 0.0, 1.0);
  const double nv = std::clamp(std::abs(glm::dot(n, v)), 1e-4, 1.0);
  const double nh = std::clamp(glm::dot(n, h), 0.0, 1.0);
  const double vh = std::clamp(glm::dot(v, h), 0.0, 1.0);
  // alpha = roughness^2, the roughness at least 0.089.
  const double roughness = std::max(p.roughness, 0.089);
  const double a = roughness * roughness;
  const double a2 = a * a;
  const glm::dvec3 f0 = glm::mix(glm::dvec3(0.04), p.base_color, p.metallic);
  const glm::dvec3 c_diff = p.base_color * (1.0 - p.metallic);
  // Schlick's Fresnel, GGX's D, Smith's separable V = G / (4 n.l n.v).
  const glm::dvec3 fresnel = f0 + (glm::dvec3(1.0) - f0) * std::pow(1.0 - vh, 5.0);
  const double d_denominator = nh * nh * (a2 - 1.0) + 1.0;
  const double d = a2 / (kPi * d_denominator * d_denominator);
  const double vis = 1.0 / ((nl + std::sqrt(a2 + (1.0 - a2) * nl * nl)) *
                            (nv + std::sqrt(a2 + (1.0 - a2) * nv * nv)));
  // f = (1 - F) c_diff / pi + F D V; direct light = pi f (n.l) E, E = colour x intensity.
  const glm::dvec3 f = (glm::dvec3(1.0) - fresnel) * c_diff / kPi + fresnel * d * vis;
  const glm::dvec3 e = glm::dvec3(light.light_color) * static_cast<double>(light.light_intensity);
  const glm::dvec3 direct = kPi * f * nl * e;
  // Hemisphere ambient: ground colour below, sky above, blended by the normal's y.
  const double up = 0.5 + 0.5 * n.y;
  const glm::dvec3 hemisphere =
      glm::dvec3(light.ground_color) * (1.0 - up) + glm::dvec3(light.sky_color) * up;
  const glm::dvec3 ambient = hemisphere * p.occlusion * (c_diff * (glm::dvec3(1.0) - f0) + f0);
  return ambient + direct * p.shadow + p.emissive;
}

}  // namespace throng::test
