"""Packages: save and load, the LOD table against `throng inspect --json`, read errors."""
import math
import struct

import pytest

import throng


def test_the_lod_table_is_inspect_jsons(cli, sample_with_lods):
    package, path = sample_with_lods
    report = cli.inspect_json(path)
    assert report["format_version"] == throng.PACKAGE_FORMAT_VERSION
    assert report["joints"] == len(package.joints)
    assert report["height"] == pytest.approx(package.height, rel=1e-6)
    assert len(report["lods"]) == len(package.lods) > 1
    for row, lod in zip(report["lods"], package.lods):
        for key, value in row.items():
            ours = getattr(lod, key)
            if isinstance(value, str):  # "kind": a package built here has mesh LODs only
                assert ours == value == "mesh", key
            elif value is None:  # JSON has no infinity: a LOD never picked
                assert math.isinf(ours), key
            else:
                assert ours == pytest.approx(value, rel=1e-6, abs=1e-9), key
    clips = [dict(name=c.name, frames=c.frames, fps=c.fps, duration=c.duration, loop=c.loop)
             for c in package.clips]
    assert [c["name"] for c in clips] == [c["name"] for c in report["clips"]]
    for ours, theirs in zip(clips, report["clips"]):
        assert ours == pytest.approx(theirs, rel=1e-6)
    for key, value in report["texture"].items():
        assert package.texture[key] == value, key


def test_save_and_load_keep_everything(sample_with_lods, tmp_path):
    package, path = sample_with_lods
    loaded = throng.load_package(path)
    assert loaded.bake_report is None and loaded.lod_report is None and loaded.warnings == []
    assert loaded.source == package.source == "sample"
    assert [(j.name, j.parent) for j in loaded.joints] == [(j.name, j.parent) for j in package.joints]
    assert [(l.triangles, l.joints, l.max_error) for l in loaded.lods] == \
        [(l.triangles, l.joints, l.max_error) for l in package.lods]
    assert [c.name for c in loaded.clips] == [c.name for c in package.clips]
    assert [m.name for m in loaded.materials] == ["clothes", "skin", "shoes"]
    assert loaded.texture == package.texture
    loaded.save(tmp_path / "again.throng")
    assert (tmp_path / "again.throng").read_bytes() == path.read_bytes()


def test_read_errors(sample_with_lods, tmp_path):
    _, path = sample_with_lods
    with pytest.raises(OSError, match="missing.throng") as error:
        throng.load_package(tmp_path / "missing.throng")
    assert error.value.code == "io error"
    truncated = tmp_path / "truncated.throng"
    truncated.write_bytes(path.read_bytes()[:1000])
    with pytest.raises(RuntimeError, match="truncated.throng") as error:
        throng.load_package(truncated)
    assert error.value.code == "parse error"
    with pytest.raises(OSError, match="no-such-folder"):
        throng.load_package(path).save(tmp_path / "no-such-folder" / "x.throng")


@pytest.mark.parametrize("version, words", [
    (1, "no longer read"),
    (2, "no longer read"),
    (throng.PACKAGE_FORMAT_VERSION + 1, "newer throng"),
])
def test_a_format_version_this_library_does_not_read(sample_with_lods, tmp_path, version, words):
    _, path = sample_with_lods
    data = bytearray(path.read_bytes())
    struct.pack_into("<I", data, 8, version)  # the header's version field (docs/formats.md)
    other = tmp_path / f"v{version}.throng"
    other.write_bytes(bytes(data))
    with pytest.raises(RuntimeError, match=words) as error:
        throng.load_package(other)
    assert error.value.code == "version mismatch"
    assert f"version {version}" in str(error.value)
