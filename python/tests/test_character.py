"""throng.import_gltf and throng.sample: joints, clips, materials, errors."""
import shutil

import numpy as np
import pytest

import throng
from conftest import asset, gltf_json


def test_cesium_man_matches_its_gltf_document():
    path = asset("CesiumMan/CesiumMan.glb")
    doc = gltf_json(path)
    character = throng.import_gltf(path)
    assert character.source == str(path)
    names = [j.name for j in character.joints]
    # The skeleton is every skin joint plus their ancestors (docs/import.md).
    skin_joints = {doc["nodes"][n]["name"] for n in doc["skins"][0]["joints"]}
    assert skin_joints <= set(names)
    for joint in character.joints:
        assert names[joint.index] == joint.name
        assert joint.parent is None or joint.parent < joint.index  # parents first
    # One unnamed animation: clip0, on the file's timeline.
    assert [c.name for c in character.clips] == ["clip0"]
    times = doc["accessors"][doc["animations"][0]["samplers"][0]["input"]]
    clip = character.clips[0]
    assert clip.start_time == pytest.approx(times["min"][0])
    assert clip.end_time == pytest.approx(times["max"][0])
    assert clip.duration == pytest.approx(clip.end_time - clip.start_time)
    assert [m.name for m in character.materials] == [m["name"] for m in doc["materials"]]
    material = character.materials[0]
    assert material.texture == 0
    assert material.alpha_mode == "OPAQUE"
    assert len(material.base_color) == 4
    positions = character.positions
    assert positions.dtype == np.float32
    assert positions.shape == (character.vertices, 3)
    indices = doc["accessors"][doc["meshes"][0]["primitives"][0]["indices"]]
    assert character.triangles == indices["count"] // 3
    extent = positions.max(axis=0) - positions.min(axis=0)
    assert character.size == pytest.approx(extent.max(), rel=1e-6)


def test_clips_from_other_files_bind_by_joint_name():
    mesh = asset("KayKitMannequin/manny_med_mod.gltf")
    general = asset("KayKitMannequin/Med_General.glb")
    movement = asset("KayKitMannequin/Med_MovementBasic.glb")
    alone = throng.import_gltf(mesh)
    both = throng.import_gltf(mesh, clips_from=[general, movement])
    added = len(gltf_json(general)["animations"]) + len(gltf_json(movement)["animations"])
    assert len(both.clips) == len(alone.clips) + added
    assert "Walking_A" in [c.name for c in both.clips]
    # Rig joints the mesh lacks, as data: a stable kind, the file and the nodes' names.
    outside = [w for w in both.warnings if w.kind == "channels_outside_skeleton"]
    assert outside and any("handslot" in w.details["names"] for w in outside)
    assert all(str(w) == w.message and w.details["file"] in w.message for w in outside)


def test_allow_roots_lets_a_uri_leave_the_files_folder(tmp_path):
    # A .gltf in asset/ whose buffer and image live one folder up.
    source = asset("KayKitMannequin/manny_med_mod.gltf")
    doc = gltf_json(source)
    for entry in doc.get("buffers", []) + doc.get("images", []):
        if "uri" in entry:
            shutil.copy(source.parent / entry["uri"], tmp_path / entry["uri"])
            entry["uri"] = "../" + entry["uri"]
    (tmp_path / "asset").mkdir()
    gltf = tmp_path / "asset" / "character.gltf"
    gltf.write_text(__import__("json").dumps(doc))
    with pytest.raises(RuntimeError, match="leads outside the glTF file's folder") as error:
        throng.import_gltf(gltf)
    assert error.value.code == "invalid data"
    assert throng.import_gltf(gltf, allow_roots=[tmp_path]).vertices > 0


def test_sample_and_humanoid():
    sample = throng.sample()
    assert sample.source == "sample"
    assert len(sample.joints) == 23
    assert [j.name for j in sample.joints][:2] == ["root", "hips"]
    assert sample.joints[0].parent is None
    assert {"idle", "walk", "run"} <= {c.name for c in sample.clips}
    assert [m.name for m in sample.materials] == ["clothes", "skin", "shoes"]
    assert 1.7 < sample.size < 1.9
    assert len(throng.sample(humanoid=True).joints) == 71


def test_errors_carry_the_librarys_message(tmp_path):
    missing = tmp_path / "missing.glb"
    with pytest.raises(OSError, match="missing.glb") as error:
        throng.import_gltf(missing)
    assert error.value.code == "io error"
    garbage = tmp_path / "garbage.glb"
    garbage.write_bytes(b"glTF" + b"\x02\x00\x00\x00" + b"\xff" * 40)
    with pytest.raises(RuntimeError, match="garbage.glb"):
        throng.import_gltf(garbage)
    with pytest.raises(TypeError):
        throng.import_gltf(42)
