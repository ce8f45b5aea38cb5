// Tests of the OBJ writer: counts, 1-based faces, groups and round-trip float precision.
#include "throng/offline/obj_export.h"

#include <sstream>

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace throng {
namespace {

TEST(ObjExport, WritesEveryVertexAndFaceWithFullPrecision) {
  Character c = test::makeChainCharacter();
  c.mesh.positions[0].x = 0.1f + 1e-7f;  // needs 9 significant digits
  const std::string obj = formatObj(c.mesh, c.mesh.positions, c.mesh.normals);
  std::istringstream in(obj);
  std::string line;
  size_t v = 0, vn = 0, vt = 0, f = 0, g = 0;
  float first_x = 0.0f;
  while (std::getline(in, line)) {
    if (line.rfind("v ", 0) == 0 && v++ == 0) first_x = std::stof(line.substr(2));
    vn += line.rfind("vn ", 0) == 0;
    vt += line.rfind("vt ", 0) == 0;
    f += line.rfind("f ", 0) == 0;
    g += line.rfind("g ", 0) == 0;
  }
  EXPECT_EQ(v, c.mesh.vertexCount());
  EXPECT_EQ(vn, c.mesh.vertexCount());
  EXPECT_EQ(vt, c.mesh.vertexCount());
  EXPECT_EQ(f, c.mesh.triangleCount());
  EXPECT_EQ(g, 1u);
  EXPECT_EQ(first_x, c.mesh.positions[0].x);
  EXPECT_NE(obj.find("f 1/1/1 5/5/5 2/2/2"), std::string::npos);
}

TEST(ObjExport, WriteIsAtomicAndReportsUnwritablePaths) {
  const Character c = test::makeChainCharacter();
  const auto dir = test::makeTempDir("obj");
  const std::string path = (dir / "posed.obj").string();
  ASSERT_TRUE(writeObj(c.mesh, c.mesh.positions, {}, path).ok());
  EXPECT_EQ(test::readFile(path), formatObj(c.mesh, c.mesh.positions, {}));
  const Status bad = writeObj(c.mesh, c.mesh.positions, {}, (dir / "missing" / "x.obj").string());
  EXPECT_EQ(bad.code(), ErrorCode::kIoError);
  EXPECT_NE(bad.message().find("missing"), std::string::npos);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);  // no temp left
}

}  // namespace
}  // namespace throng
