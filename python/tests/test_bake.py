"""throng.bake: every option of `throng bake`, the same package bytes as the CLI, errors."""
import pytest

import throng
from conftest import asset, read_png


def frames_for(duration, fps, loop):
    """Frames a bake stores for a clip (docs/formats.md): whole frames over the clip, both ends
    of a clip that plays once."""
    steps = round(duration * fps)
    return max(1, steps) if loop else max(2, steps + 1)


def test_defaults_bake_every_clip_without_lods():
    sample = throng.sample()
    package = throng.bake(sample)
    assert package.source == "sample"
    assert [c.name for c in package.clips] == [c.name for c in sample.clips]
    assert len(package.lods) == 1 and package.lod_report is None
    report = package.bake_report
    assert report.format == "rgba32f" and package.texture["format"] == "rgba32f"
    assert [c.name for c in report.clips] == [c.name for c in package.clips]
    for clip in package.clips:
        assert clip.frames == frames_for(clip.duration, 30, clip.loop)
    t = package.texture
    assert report.texel_bytes == t["width"] * t["height"] * 16
    assert report.max_error == max(c.max_error for c in report.clips)
    assert report.max_error_fraction == pytest.approx(report.max_error / sample.size)


def test_options_change_what_is_baked(tmp_path):
    sample = throng.sample()
    names = [c.name for c in sample.clips]
    package = throng.bake(sample, fps=15, format="rgba16f", clips=["walk", 0, "walk"],
                          loop=["walk"], no_loop=[names[0]], max_width=90, threads=1)
    assert [c.name for c in package.clips] == ["walk", names[0]]
    walk, first = package.clips
    assert walk.loop and not first.loop
    reasons = {c.name: c.loop_reason for c in package.bake_report.clips}
    assert reasons == {"walk": "forced loop", names[0]: "forced clamp"}
    for clip in package.clips:
        assert clip.frames == frames_for(clip.duration, 15, clip.loop)
    t = package.texture
    assert t["format"] == "rgba16f" and t["width"] <= 90
    assert package.bake_report.texel_bytes == t["width"] * t["height"] * 8
    assert package.bake_report.threads == 1
    # The thread count changes nothing in the package.
    package.save(tmp_path / "one.throng")
    throng.bake(sample, fps=15, format="rgba16f", clips=["walk", 0], loop=["walk"],
                no_loop=[names[0]], max_width=90, threads=3).save(tmp_path / "three.throng")
    assert (tmp_path / "one.throng").read_bytes() == (tmp_path / "three.throng").read_bytes()


def test_lods_build_the_default_chain(sample_with_lods):
    package, _ = sample_with_lods
    assert len(package.lods) > 1
    report = package.lod_report
    kept = [level for level in report.levels if level.lod >= 0]
    assert [level.lod for level in kept] == list(range(len(package.lods)))
    for level, lod in zip(kept, package.lods):
        assert level.triangles == lod.triangles and level.joints == lod.joints
        assert lod.max_error == pytest.approx(level.max_error / report.character_size, rel=1e-5)
    assert package.lods[-1].triangles < package.lods[0].triangles


def test_max_error_fails_a_bake_that_strays_further():
    with pytest.raises(RuntimeError, match="error") as error:
        throng.bake("sample", format="rgba16f", max_error=1e-9)
    assert error.value.code == "limit exceeded"
    assert throng.bake("sample", max_error=1.0).bake_report.max_error <= 1.0


def test_preview_is_the_packages_picture(tmp_path):
    package = throng.bake("sample", preview=tmp_path / "preview.png")
    picture = package.preview()
    t = package.texture
    assert picture.shape == (2 * t["height"], t["width"], 4) and picture.dtype.name == "uint8"
    assert (picture[:, :, 3] == 255).all()
    png = read_png(tmp_path / "preview.png")
    assert png.shape == picture.shape[:2] + (3,)
    assert (png == picture[:, :, :3]).all()
    package.save_preview(tmp_path / "again.png")
    assert (tmp_path / "again.png").read_bytes() == (tmp_path / "preview.png").read_bytes()


def test_the_same_bytes_as_the_command_line(cli, sample_with_lods, tmp_path):
    options = dict(fps=24, format="rgba16f", clips=["walk", "run"], loop=["run"], max_width=1024,
                   threads=2)
    throng.bake("sample", **options).save(tmp_path / "python.throng")
    cli("bake", "sample", "--fps", 24, "--format", "rgba16f", "--clips", "walk,run", "--loop",
        "run", "--max-width", 1024, "--threads", 2, "-o", tmp_path / "cli.throng")
    assert (tmp_path / "python.throng").read_bytes() == (tmp_path / "cli.throng").read_bytes()
    # With the LOD chain.
    _, path = sample_with_lods
    cli("bake", "sample", "--lods", "-o", tmp_path / "lods.throng")
    assert path.read_bytes() == (tmp_path / "lods.throng").read_bytes()


def test_a_path_is_imported_as_bake_imports_it(cli, tmp_path):
    mesh = asset("KayKitMannequin/manny_med_mod.gltf")
    general = asset("KayKitMannequin/Med_General.glb")
    package = throng.bake(mesh, clips_from=[general], allow_roots=[mesh.parent], no_loop=["Idle_A"])
    assert package.source == str(mesh)
    package.save(tmp_path / "python.throng")
    cli("bake", mesh, "--clips-from", general, "--allow-root", mesh.parent, "--no-loop", "Idle_A",
        "-o", tmp_path / "cli.throng")
    assert (tmp_path / "python.throng").read_bytes() == (tmp_path / "cli.throng").read_bytes()


@pytest.mark.parametrize("options, words", [
    (dict(fps=0), "fps 0"),
    (dict(fps=float("nan")), "fps"),
    (dict(format="rgba8"), "format 'rgba8'"),
    (dict(clips=["nope"]), "unknown clip 'nope'"),
    (dict(clips=[99]), "unknown clip '99'"),
    (dict(loop=["nope"]), "unknown clip 'nope'"),
    (dict(no_loop=["nope"]), "unknown clip 'nope'"),
    (dict(clips="walk"), "not a string"),
    (dict(clips=[1.5]), "neither a clip name nor an index"),
    (dict(max_width=2), "max width 2"),
    (dict(max_width=-5), "max_width -5"),
    (dict(threads=-1), "thread count -1"),
    (dict(max_error=-1.0), "max_error -1"),
    (dict(clips_from=["x.glb"]), "clips_from and allow_roots"),
])
def test_a_bad_option_is_a_value_error(options, words):
    with pytest.raises(ValueError, match=words) as error:
        throng.bake("sample", **options)
    assert error.value.code == "invalid argument"


def test_file_errors(tmp_path):
    with pytest.raises(OSError, match="missing.glb"):
        throng.bake(tmp_path / "missing.glb")
    with pytest.raises(OSError, match="no-such-folder"):
        throng.bake("sample", preview=tmp_path / "no-such-folder" / "p.png")
    with pytest.raises(ValueError, match="clips_from and allow_roots"):
        throng.bake(throng.sample(), allow_roots=[tmp_path])
