"""Character.with_props, .props and .masks: the same props and masks as `throng bake --attach
--mask`, kept by a package's round trip, and the library's errors."""
import base64
import json
import struct

import numpy as np
import pytest

import throng


def write_box(path, half=(0.05, 0.08, 0.03)):
    """A 12-triangle box glTF (no material) of these half sizes, written here without the library."""
    corners = [((-1) ** (i & 1 == 0) * half[0], (-1) ** (i & 2 == 0) * half[1],
                (-1) ** (i & 4 == 0) * half[2]) for i in range(8)]
    indices = [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1,
               2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3]
    positions = b"".join(struct.pack("<3f", *c) for c in corners)
    index_bytes = struct.pack(f"<{len(indices)}H", *indices)
    data = positions + index_bytes
    doc = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "buffers": [{"byteLength": len(data), "uri": "data:application/octet-stream;base64," +
                     base64.b64encode(data).decode()}],
        "bufferViews": [{"buffer": 0, "byteLength": len(positions)},
                        {"buffer": 0, "byteOffset": len(positions), "byteLength": len(index_bytes)}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3",
                       "min": [-h for h in half], "max": list(half)},
                      {"bufferView": 1, "componentType": 5123, "count": len(indices),
                       "type": "SCALAR"}],
    }
    path.write_text(json.dumps(doc))
    return path


def test_props_and_masks_match_the_cli_and_survive_the_round_trip(cli, sample, tmp_path):
    box = write_box(tmp_path / "club.gltf")
    offset = (0.0, 0.1, 0.0, 0.0, 0.0, 90.0, 2.0)
    carried = sample.with_props(props=[("hand.R", box, offset)], masks=[("upper", "spine_01")])
    assert sample.props == [] and sample.masks == []  # the original is unchanged
    assert [(p.name, p.joint, p.source) for p in carried.props] == [("club", "hand.R", str(box))]
    assert carried.props[0].offset == pytest.approx(offset)
    assert [(m.name, m.root) for m in carried.masks] == [("upper", "spine_01")]
    assert carried.triangles == sample.triangles + 12

    package = throng.bake(carried, fps=10)
    saved = tmp_path / "py.throng"
    package.save(saved)
    loaded = throng.load_package(saved)
    assert [(p.name, p.joint) for p in loaded.props] == [("club", "hand.R")]
    assert loaded.props[0].offset == pytest.approx(offset)
    assert [(m.name, m.root, m.joints) for m in loaded.masks] == \
        [(m.name, m.root, m.joints) for m in carried.masks]

    # The CLI's bake of the same props and mask: the same lists in inspect --json, the same
    # posed vertices (props included).
    out = tmp_path / "cli.throng"
    cli("bake", "sample", "--fps", "10", "--attach", f"hand.R={box}@0,0.1,0,0,0,90,2",
        "--mask", "upper=spine_01", "-o", out)
    info = cli.inspect_json(out)
    assert [(p["name"], p["joint"]) for p in info["props"]] == [("club", "hand.R")]
    assert [(m["name"], m["root"], m["joints"]) for m in info["masks"]] == \
        [(m.name, m.root, m.joints) for m in loaded.masks]
    ours = throng.pose(loaded, clip="walk", time=0.3)
    theirs = np.array(cli.pose_obj(out, tmp_path / "posed.obj", "--clip", "walk", "--time", "0.3"))
    assert ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, atol=1e-4)


def test_mistakes_raise_the_librarys_errors(sample, tmp_path):
    box = write_box(tmp_path / "box.gltf")
    with pytest.raises(ValueError, match=r"no joint 'hand_r' in the skeleton \(did you mean "
                                         r"'hand\.R'\?\)") as e:
        sample.with_props(props=[("hand_r", box)])
    assert e.value.code == "invalid argument"
    with pytest.raises(ValueError, match="the offset takes 7 numbers"):
        sample.with_props(props=[("hand.R", box, (1.0, 2.0))])
    with pytest.raises(ValueError, match=r"a prop is \(joint, path\)"):
        sample.with_props(props=[("hand.R",)])
    with pytest.raises(ValueError, match="mask 'upper': no joint 'chest'"):
        sample.with_props(masks=[("upper", "chest")])
    with pytest.raises(OSError):
        sample.with_props(props=[("hand.R", tmp_path / "missing.glb")])
    twice = sample.with_props(masks=[("upper", "spine_01")])
    with pytest.raises(ValueError, match="mask name 'upper' is empty or already taken"):
        twice.with_props(masks=[("upper", "spine_02")])
