// Tangent generation (MikkTSpace rules) against tangents worked out independently: per triangle
// from the uv gradient, on a quad, a cube, a mirrored strip, a fan whose tangents meet at an
// angle, and a smooth cylinder whose chart is mirrored (against the surface's own tangents).
#include "throng/offline/tangents.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/offline/gltf_import.h"

namespace throng {
namespace {

// A rigid mesh (every vertex on joint 0) of triangles given by corner positions and glTF uvs;
// one vertex per distinct (position, uv) pair given, flat normals `normal`.
struct MeshBuilder {
  SkinnedMesh mesh;
  uint32_t vertex(glm::vec3 p, glm::vec2 uv, glm::vec3 n) {
    for (uint32_t v = 0; v < mesh.vertexCount(); ++v) {
      if (mesh.positions[v] == p && mesh.uvs[v] == uv && mesh.normals[v] == n) return v;
    }
    mesh.positions.push_back(p);
    mesh.normals.push_back(n);
    mesh.uvs.push_back(uv);
    mesh.joints.emplace_back(0);
    mesh.weights.emplace_back(1.0f, 0.0f, 0.0f, 0.0f);
    return static_cast<uint32_t>(mesh.vertexCount() - 1);
  }
  // A quad p0 p1 p2 p3 (counter-clockwise seen from its normal) with uvs t0..t3.
  void quad(const glm::vec3 (&p)[4], const glm::vec2 (&t)[4]) {
    const glm::vec3 n = glm::normalize(glm::cross(p[1] - p[0], p[3] - p[0]));
    uint32_t v[4];
    for (int i = 0; i < 4; ++i) v[i] = vertex(p[i], t[i], n);
    mesh.indices.insert(mesh.indices.end(), {v[0], v[1], v[2], v[0], v[2], v[3]});
  }
};

// The independent reference: triangle (a, b, c)'s tangent is dP/du (normalised) and its glTF
// bitangent -dP/dv (v grows down the image; the bitangent points up it), found by inverting the
// 2x2 uv Jacobian in double precision; w says whether cross(n, tangent) points along it.
glm::vec4 expectedTangent(glm::dvec3 a, glm::dvec3 b, glm::dvec3 c, glm::dvec2 ta, glm::dvec2 tb,
                          glm::dvec2 tc, glm::dvec3 n) {
  const glm::dvec3 e1 = b - a, e2 = c - a;
  const glm::dvec2 d1 = tb - ta, d2 = tc - ta;
  // [e1 e2] = [dP/du dP/dv] * [d1 d2]  =>  [dP/du dP/dv] = [e1 e2] * inverse([d1 d2]).
  const double det = d1.x * d2.y - d2.x * d1.y;
  const glm::dvec3 dpdu = (e1 * d2.y - e2 * d1.y) / det;
  const glm::dvec3 dpdv = (e2 * d1.x - e1 * d2.x) / det;
  const glm::dvec3 t = glm::normalize(dpdu);
  const double w = glm::dot(glm::cross(n, t), -dpdv) > 0.0 ? 1.0 : -1.0;
  return glm::vec4(glm::vec3(t), static_cast<float>(w));
}

// Every corner of every triangle has the reference tangent of its (flat) triangle.
void expectFlatTangents(const SkinnedMesh& m) {
  ASSERT_EQ(m.tangents.size(), m.vertexCount());
  for (size_t i = 0; i < m.indices.size(); i += 3) {
    const uint32_t a = m.indices[i], b = m.indices[i + 1], c = m.indices[i + 2];
    const glm::vec4 want = expectedTangent(m.positions[a], m.positions[b], m.positions[c], m.uvs[a],
                                           m.uvs[b], m.uvs[c], m.normals[a]);
    for (uint32_t v : {a, b, c}) {
      EXPECT_NEAR(glm::length(glm::vec3(m.tangents[v]) - glm::vec3(want)), 0.0f, 1e-5f)
          << "triangle " << i / 3 << " vertex " << v;
      EXPECT_EQ(m.tangents[v].w, want.w) << "triangle " << i / 3 << " vertex " << v;
    }
  }
}

TEST(Tangents, AUvMappedQuadGetsItsUDirection) {
  MeshBuilder b;
  // uv (0, 0) at the top-left corner, v growing downwards as in the image.
  b.quad({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0, 1}, {1, 1}, {1, 0}, {0, 0}});
  Result<TangentReport> r = generateTangents(b.mesh, {});
  ASSERT_TRUE(r.ok()) << r.status().toString();
  EXPECT_EQ(r->generated, 4u);
  EXPECT_EQ(r->split, 0u);
  EXPECT_EQ(r->fallback, 0u);
  EXPECT_EQ(b.mesh.tangent_source, TangentSource::kGenerated);
  for (const glm::vec4& t : b.mesh.tangents) {
    EXPECT_NEAR(glm::length(glm::vec3(t) - glm::vec3(1, 0, 0)), 0.0f, 1e-6f);
    EXPECT_EQ(t.w, 1.0f);  // bitangent cross(+z, +x) = +y: up the image
  }
  expectFlatTangents(b.mesh);
  EXPECT_TRUE(validateMesh(b.mesh, 1, "quad").ok());
}

TEST(Tangents, EveryFaceOfACubeGetsItsOwnFrame) {
  // 24 vertices; each face's uvs turned a different way (and two mirrored), so the six frames
  // differ in direction and handedness.
  MeshBuilder b;
  const glm::vec2 turns[4][4] = {{{0, 1}, {1, 1}, {1, 0}, {0, 0}},
                                 {{1, 1}, {1, 0}, {0, 0}, {0, 1}},
                                 {{0, 0}, {1, 0}, {1, 1}, {0, 1}},   // mirrored
                                 {{0, 1}, {0, 0}, {1, 0}, {1, 1}}};  // mirrored
  const glm::vec3 faces[6][4] = {
      {{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}}, {{1, 0, 0}, {0, 0, 0}, {0, 1, 0}, {1, 1, 0}},
      {{1, 0, 1}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}}, {{0, 0, 0}, {0, 0, 1}, {0, 1, 1}, {0, 1, 0}},
      {{0, 1, 1}, {1, 1, 1}, {1, 1, 0}, {0, 1, 0}}, {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}}};
  for (int f = 0; f < 6; ++f) b.quad(faces[f], turns[f % 4]);
  ASSERT_EQ(b.mesh.vertexCount(), 24u);
  Result<TangentReport> r = generateTangents(b.mesh, {});
  ASSERT_TRUE(r.ok()) << r.status().toString();
  EXPECT_EQ(r->split, 0u);
  expectFlatTangents(b.mesh);
  int mirrored = 0;
  for (const glm::vec4& t : b.mesh.tangents) mirrored += t.w < 0.0f;
  EXPECT_EQ(mirrored, 8);  // faces 2 and 3
}

TEST(Tangents, AMirroredStripFlipsHandednessAndSplitsTheSeam) {
  // Two quads side by side whose u runs 0 -> 1 -> 0: the right one is the left one's mirror
  // image in the texture. The seam's two vertices are shared (same position, normal and uv).
  MeshBuilder b;
  b.quad({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0, 1}, {1, 1}, {1, 0}, {0, 0}});
  b.quad({{1, 0, 0}, {2, 0, 0}, {2, 1, 0}, {1, 1, 0}}, {{1, 1}, {0, 1}, {0, 0}, {1, 0}});
  ASSERT_EQ(b.mesh.vertexCount(), 6u);
  const SkinnedMesh before = b.mesh;
  Result<TangentReport> r = generateTangents(b.mesh, {});
  ASSERT_TRUE(r.ok()) << r.status().toString();
  EXPECT_EQ(r->split, 2u);  // each seam vertex is copied for the mirrored side
  ASSERT_EQ(b.mesh.vertexCount(), 8u);
  expectFlatTangents(b.mesh);
  for (size_t i = 0; i < 6; ++i)
    EXPECT_EQ(b.mesh.tangents[b.mesh.indices[i]], glm::vec4(1, 0, 0, 1));
  for (size_t i = 6; i < 12; ++i) {
    EXPECT_EQ(b.mesh.tangents[b.mesh.indices[i]], glm::vec4(-1, 0, 0, -1));
  }
  // The copies carry every stream of their source vertex.
  for (uint32_t copy : {6u, 7u}) {
    uint32_t source = 0;
    while (before.positions[source] != b.mesh.positions[copy]) ++source;
    EXPECT_EQ(b.mesh.normals[copy], before.normals[source]);
    EXPECT_EQ(b.mesh.uvs[copy], before.uvs[source]);
    EXPECT_EQ(b.mesh.joints[copy], before.joints[source]);
    EXPECT_EQ(b.mesh.weights[copy], before.weights[source]);
  }
  EXPECT_TRUE(validateMesh(b.mesh, 1, "strip").ok());
}

// Two triangles around a centre vertex c, sharing edge c-b, whose uv maps tilt the tangent by
// 45 degrees between them (same handedness, same uv at c and b): A = (c, a, b) with uv = (x, -y),
// B = (c, b, d) with uv = (x, x - y).
SkinnedMesh tiltedFan(glm::vec3 d) {
  SkinnedMesh m;
  const glm::vec3 n(0, 0, 1);
  const glm::vec3 p[] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, d};
  const glm::vec2 uv[] = {{0, 0}, {1, 0}, {0, -1}, {d.x, d.x - d.y}};
  for (int i = 0; i < 4; ++i) {
    m.positions.push_back(p[i]);
    m.normals.push_back(n);
    m.uvs.push_back(uv[i]);
    m.joints.emplace_back(0);
    m.weights.emplace_back(1.0f, 0.0f, 0.0f, 0.0f);
  }
  m.indices = {0, 1, 2, 0, 2, 3};
  return m;
}

TEST(Tangents, CornersAverageByTheirAngleAndSplitPastTheThreshold) {
  const glm::vec3 ta(1, 0, 0);
  const glm::vec3 tb = glm::normalize(glm::vec3(1, 1, 0));
  // d = (-1, -1): triangle B's angle at c is 135 degrees, A's 90.
  SkinnedMesh fan = tiltedFan({-1, -1, 0});
  Result<TangentReport> r = generateTangents(fan, {});
  ASSERT_TRUE(r.ok()) << r.status().toString();
  EXPECT_EQ(r->split, 0u);
  const float pi = std::numbers::pi_v<float>;
  const glm::vec3 centre = glm::normalize(0.5f * pi * ta + 0.75f * pi * tb);
  EXPECT_NEAR(glm::length(glm::vec3(fan.tangents[0]) - centre), 0.0f, 1e-5f);
  EXPECT_EQ(fan.tangents[0].w, 1.0f);
  // The corners' own frames at a and d (one triangle each) are their triangles'.
  EXPECT_NEAR(glm::length(glm::vec3(fan.tangents[1]) - ta), 0.0f, 1e-5f);
  EXPECT_NEAR(glm::length(glm::vec3(fan.tangents[3]) - tb), 0.0f, 1e-5f);

  // 45 degrees apart: a 30-degree threshold splits c and b, each side keeping its own frame.
  fan = tiltedFan({-1, -1, 0});
  TangentOptions options;
  options.split_angle_degrees = 30.0f;
  r = generateTangents(fan, {}, options);
  ASSERT_TRUE(r.ok()) << r.status().toString();
  EXPECT_EQ(r->split, 2u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(glm::length(glm::vec3(fan.tangents[fan.indices[i]]) - ta), 0.0f, 1e-5f) << i;
  }
  for (size_t i = 3; i < 6; ++i) {
    EXPECT_NEAR(glm::length(glm::vec3(fan.tangents[fan.indices[i]]) - tb), 0.0f, 1e-5f) << i;
  }
  // A 60-degree threshold keeps them together.
  fan = tiltedFan({-1, -1, 0});
  options.split_angle_degrees = 60.0f;
  r = generateTangents(fan, {}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->split, 0u);
}

TEST(Tangents, TangentsLieInTheVertexNormalsPlane) {
  // A roof: two slopes meeting at a ridge whose vertices have the averaged normal (0, 0, 1); u
  // runs over the ridge. The slopes' tangents (0, 1, +-1) project to (0, 1, 0) on the ridge.
  MeshBuilder b;
  const glm::vec3 left(0, -1, 1), right(0, 1, 1);
  const glm::vec3 up(0, 0, 1);
  auto add = [&](glm::vec3 p, glm::vec2 uv, glm::vec3 n) {
    return b.vertex(p, uv, glm::normalize(n));
  };
  const uint32_t l0 = add({0, -1, 0}, {0, 1}, left), l1 = add({1, -1, 0}, {0, 0}, left);
  const uint32_t r0 = add({0, 0, 1}, {1, 1}, up), r1 = add({1, 0, 1}, {1, 0}, up);
  const uint32_t s0 = add({0, 1, 0}, {2, 1}, right), s1 = add({1, 1, 0}, {2, 0}, right);
  b.mesh.indices = {l0, l1, r1, l0, r1, r0, r0, r1, s1, r0, s1, s0};
  ASSERT_TRUE(generateTangents(b.mesh, {}).ok());
  for (uint32_t v : {r0, r1}) {
    EXPECT_NEAR(glm::length(glm::vec3(b.mesh.tangents[v]) - glm::vec3(0, 1, 0)), 0.0f, 1e-5f);
  }
  for (uint32_t v = 0; v < b.mesh.vertexCount(); ++v) {
    EXPECT_NEAR(glm::dot(glm::vec3(b.mesh.tangents[v]), b.mesh.normals[v]), 0.0f, 1e-6f) << v;
  }
}

TEST(Tangents, DegenerateTrianglesAndMissingUvsFallBack) {
  MeshBuilder b;
  b.quad({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0, 1}, {1, 1}, {1, 0}, {0, 0}});
  // A sliver with no area on vertex 1 and a new vertex: it takes vertex 1's tangent from the
  // quad; its own new vertex has nothing to take and gets a direction orthogonal to its normal.
  const uint32_t lone = b.vertex({2, 0, 0}, {5, 5}, {0, 1, 0});
  b.mesh.indices.insert(b.mesh.indices.end(), {1, 1, lone});
  // An unused vertex.
  const uint32_t unused = b.vertex({3, 3, 3}, {0, 0}, {0, 0, -1});
  Result<TangentReport> r = generateTangents(b.mesh, {});
  ASSERT_TRUE(r.ok()) << r.status().toString();
  EXPECT_EQ(r->split, 0u);
  EXPECT_EQ(r->fallback, 2u);
  EXPECT_EQ(b.mesh.tangents[1], glm::vec4(1, 0, 0, 1));
  for (uint32_t v : {lone, unused}) {
    EXPECT_NEAR(glm::dot(glm::vec3(b.mesh.tangents[v]), b.mesh.normals[v]), 0.0f, 1e-6f);
    EXPECT_EQ(b.mesh.tangents[v].w, 1.0f);
  }
  EXPECT_TRUE(validateMesh(b.mesh, 1, "fallback").ok());

  // No uvs at all: every vertex falls back.
  MeshBuilder bare;
  bare.quad({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0, 0}, {0, 0}, {0, 0}, {0, 0}});
  bare.mesh.uvs.clear();
  r = generateTangents(bare.mesh, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->fallback, 4u);
  EXPECT_TRUE(validateMesh(bare.mesh, 1, "bare").ok());
}

TEST(Tangents, KeptTangentsStayAndTheNormalTexturesUvSetIsUsed) {
  MeshBuilder b;
  b.quad({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0, 1}, {1, 1}, {1, 0}, {0, 0}});
  // uv set 1 runs along y: the normal texture reads it.
  b.mesh.uvs1 = {{0, 0}, {0, -1}, {1, -1}, {1, 0}};  // u = y, v = -x
  b.mesh.submeshes = {{"all", 0, 6, 0, {}}};
  Material material;
  material.normal_texture.image = 0;
  material.normal_texture.uv_set = 1;
  const std::vector<Material> materials = {material};
  b.mesh.tangents.assign(4, glm::vec4(0.0f));
  b.mesh.tangents[2] = glm::vec4(0, 0, -1, -1);  // kept as given
  const std::vector<uint8_t> keep = {0, 0, 1, 0};
  TangentOptions options;
  options.keep = keep;
  Result<TangentReport> r = generateTangents(b.mesh, materials, options);
  ASSERT_TRUE(r.ok()) << r.status().toString();
  EXPECT_EQ(r->generated, 3u);
  EXPECT_EQ(b.mesh.tangent_source, TangentSource::kMixed);
  EXPECT_EQ(b.mesh.tangents[2], glm::vec4(0, 0, -1, -1));
  const SkinnedMesh& m = b.mesh;
  const glm::vec4 want = expectedTangent(m.positions[0], m.positions[1], m.positions[2], m.uvs1[0],
                                         m.uvs1[1], m.uvs1[2], m.normals[0]);
  EXPECT_EQ(want, glm::vec4(0, 1, 0, -1));  // u along +y; v grows along -x: mirrored
  for (uint32_t v : {0u, 1u, 3u}) {
    EXPECT_NEAR(glm::length(glm::vec3(m.tangents[v]) - glm::vec3(want)), 0.0f, 1e-6f) << v;
    EXPECT_EQ(m.tangents[v].w, want.w) << v;
  }
}

TEST(Tangents, BadArgumentsAreRefused) {
  MeshBuilder b;
  b.quad({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0, 1}, {1, 1}, {1, 0}, {0, 0}});
  TangentOptions options;
  options.split_angle_degrees = 0.0f;
  Result<TangentReport> r = generateTangents(b.mesh, {}, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("split angle 0 is outside (0, 180] degrees"),
            std::string::npos);
  const std::vector<uint8_t> keep = {1};
  options = {};
  options.keep = keep;
  r = generateTangents(b.mesh, {}, options);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("1 keep flags and 0 tangents for 4 vertices"),
            std::string::npos)
      << r.status().message();
  b.mesh.submeshes = {{"all", 0, 6, 3, {}}};
  r = generateTangents(b.mesh, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidData);
  EXPECT_NE(r.status().message().find("sub-mesh 0 ('all') names a material outside the 0 "
                                      "materials"),
            std::string::npos)
      << r.status().message();
  b.mesh.submeshes.clear();
  b.mesh.indices.push_back(9);
  b.mesh.indices.push_back(0);
  b.mesh.indices.push_back(1);
  r = generateTangents(b.mesh, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidData);
}

// A smooth surface against calculus: a cylinder (radius 1, y in [-1, 1], outward vertex normals)
// whose texture chart is mirrored at x = -1 and x = 1 (u = theta / pi on the front half, u = 2 -
// theta / pi on the back), so u runs 0 -> 1 -> 0 around it. The surface's tangent is dP/du
// (normalised): the circle's direction, reversed on the mirrored half, whose handedness flips.
// Each facet's dP/du is a chord of the circle, which the vertex normal's plane turns into the
// circle's direction at that vertex, so every vertex (seam copies, which see one side's facets
// only, included) must get the surface's tangent up to rounding.
constexpr int kCylinderSegments = 32;  // around; an even number puts a column on each seam
constexpr int kCylinderRows = 3;
constexpr double kSmoothAngleDegrees = 0.01;  // float rounding only

TEST(Tangents, ASmoothMirroredCylinderGetsItsSurfacesTangents) {
  MeshBuilder b;
  const double pi = std::numbers::pi;
  auto vertex = [&](int i, int j) {  // column i (around), row j (up)
    const double theta = 2.0 * pi * (i % kCylinderSegments) / kCylinderSegments;
    const double u = theta > pi ? 2.0 - theta / pi : theta / pi;  // P = (cos, y, sin theta)
    const double y = -1.0 + 2.0 * j / kCylinderRows;
    const glm::vec3 n(static_cast<float>(std::cos(theta)), 0.0f,
                      static_cast<float>(std::sin(theta)));
    // v grows down the image: v = (1 - y) / 2.
    return b.vertex(glm::vec3(n.x, static_cast<float>(y), n.z),
                    glm::vec2(static_cast<float>(u), static_cast<float>((1.0 - y) / 2.0)), n);
  };
  for (int i = 0; i < kCylinderSegments; ++i) {
    for (int j = 0; j < kCylinderRows; ++j) {
      // Counter-clockwise seen from outside: cross(dP/dy, dP/dtheta) points outwards.
      const uint32_t a = vertex(i, j), c = vertex(i + 1, j), d = vertex(i, j + 1),
                     e = vertex(i + 1, j + 1);
      b.mesh.indices.insert(b.mesh.indices.end(), {a, d, c, c, d, e});
    }
  }
  const size_t shared = b.mesh.vertexCount();
  ASSERT_EQ(shared, static_cast<size_t>(kCylinderSegments * (kCylinderRows + 1)));
  Result<TangentReport> r = generateTangents(b.mesh, {});
  ASSERT_TRUE(r.ok()) << r.status().toString();
  // Each seam column's vertices get a copy: the two halves need opposite frames there.
  EXPECT_EQ(r->split, static_cast<size_t>(2 * (kCylinderRows + 1)));
  EXPECT_EQ(r->fallback, 0u);
  int mirrored = 0;
  for (size_t t = 0; t < b.mesh.indices.size(); t += 3) {
    // The triangle's half: its centroid's angle.
    glm::vec3 centre(0.0f);
    for (int k = 0; k < 3; ++k) centre += b.mesh.positions[b.mesh.indices[t + k]] / 3.0f;
    double centre_theta = std::atan2(centre.z, centre.x);
    if (centre_theta < 0.0) centre_theta += 2.0 * pi;
    const bool back = centre_theta > pi;
    for (int k = 0; k < 3; ++k) {
      const uint32_t v = b.mesh.indices[t + k];
      const glm::dvec3 p = b.mesh.positions[v];
      const double theta = std::atan2(p.z, p.x);
      const glm::dvec3 dpdtheta(-std::sin(theta), 0.0, std::cos(theta));
      const glm::dvec3 want = back ? -dpdtheta : dpdtheta;  // normalised dP/du on this half
      // Handedness: cross(n, t) * w is the bitangent, -dP/dv = +y (v = (1 - y) / 2).
      const glm::dvec3 n = b.mesh.normals[v];
      const float want_w = glm::dot(glm::cross(n, want), glm::dvec3(0, 1, 0)) > 0.0 ? 1.0f : -1.0f;
      const glm::dvec3 got = glm::vec3(b.mesh.tangents[v]);
      const double degrees =
          std::acos(std::clamp(glm::dot(glm::normalize(got), want), -1.0, 1.0)) * 180.0 / pi;
      EXPECT_LE(degrees, kSmoothAngleDegrees) << "vertex " << v << " at theta " << theta;
      EXPECT_EQ(b.mesh.tangents[v].w, want_w) << "vertex " << v;
      mirrored += back;
    }
  }
  EXPECT_GT(mirrored, 0);
  EXPECT_TRUE(validateMesh(b.mesh, 1, "cylinder").ok());
}

}  // namespace
}  // namespace throng
