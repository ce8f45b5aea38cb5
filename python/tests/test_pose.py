"""throng.pose: against `throng pose`, between keyframes and baked frames, and its errors."""
import numpy as np
import pytest

import throng
from conftest import asset


def test_rest_pose_is_the_bind_mesh(sample):
    # The sample's rest pose is its bind pose (its documentation).
    rest = throng.pose(sample)
    assert rest.dtype == np.float32 and rest.shape == (sample.vertices, 3)
    assert np.abs(rest - sample.positions).max() < 1e-5


def test_the_command_lines_vertices(cli, sample_with_lods, tmp_path):
    package, path = sample_with_lods
    for lod in range(len(package.lods)):
        ours = throng.pose(package, "walk", 0.3, lod=lod)
        theirs = cli.pose_obj(path, tmp_path / "p.obj", "--clip", "walk", "--time", 0.3,
                              "--lod", lod)
        assert ours.shape == (len(theirs), 3) and ours.shape[0] == package.lods[lod].vertices
        assert (ours == np.array(theirs, dtype=np.float32)).all()
    # A character: keyframes on the file's timeline; clip by index.
    glb = asset("CesiumMan/CesiumMan.glb")
    ours = throng.pose(throng.import_gltf(glb), 0, 1.0)
    theirs = cli.pose_obj(glb, tmp_path / "c.obj", "--clip", 0, "--time", 1.0)
    assert (ours == np.array(theirs, dtype=np.float32)).all()


def test_baked_frames_match_the_keyframes_within_the_bakes_error():
    sample = throng.sample()
    package = throng.bake(sample)
    errors = {c.name: c.max_error for c in package.bake_report.clips}
    for index, clip in enumerate(package.clips):
        keyed = sample.clips[index]
        for frame in (0, clip.frames // 2, clip.frames - 1):
            seconds = frame / clip.fps
            baked = throng.pose(package, clip.name, seconds)
            exact = throng.pose(sample, clip.name, keyed.start_time + seconds)
            distance = np.linalg.norm(baked - exact, axis=1).max()
            assert distance <= errors[clip.name] + 1e-5, (clip.name, frame)
    # Between frames the runtime blends two frames: still close, not exact.
    walk = package.clips[[c.name for c in package.clips].index("walk")]
    between = throng.pose(package, "walk", 0.5 / walk.fps)
    exact = throng.pose(sample, "walk", sample.clips[[c.name for c in sample.clips].index("walk")]
                        .start_time + 0.5 / walk.fps)
    assert np.linalg.norm(between - exact, axis=1).max() < 0.01 * sample.size


def test_a_lod_of_a_character_is_the_default_chains(sample, sample_with_lods):
    package, _ = sample_with_lods
    lod = len(package.lods) - 1
    # At a baked frame's time the keyframed LOD and the baked one agree within the bake's error.
    walk = package.clips[[c.name for c in package.clips].index("walk")]
    start = sample.clips[[c.name for c in sample.clips].index("walk")].start_time
    keyed = throng.pose(sample, "walk", start + 3 / walk.fps, lod=lod)
    baked = throng.pose(package, "walk", 3 / walk.fps, lod=lod)
    assert keyed.shape == baked.shape == (package.lods[lod].vertices, 3)
    error = {c.name: c.max_error for c in package.bake_report.clips}["walk"]
    assert np.linalg.norm(keyed - baked, axis=1).max() <= error + 1e-5


@pytest.mark.parametrize("clip, lod, error, words", [
    ("nope", 0, ValueError, "clip nope: no such clip"),
    (99, 0, ValueError, "clip 99: no such clip"),
    (-1, 0, ValueError, "clip -1: no such clip"),
    (1.5, 0, ValueError, "give a clip name, an index or None"),
    ("walk", 7, ValueError, "lod 7: no such LOD"),
    ("walk", -1, ValueError, "lod -1: no such LOD"),
])
def test_errors(sample, sample_with_lods, clip, lod, error, words):
    package, _ = sample_with_lods
    for subject in (package, sample):
        with pytest.raises(error, match=words):
            throng.pose(subject, clip, 0.0, lod=lod)
    with pytest.raises(ValueError, match="time nan"):
        throng.pose(package, "walk", float("nan"))
    with pytest.raises(TypeError):
        throng.pose("sample.throng", "walk", 0.0)
