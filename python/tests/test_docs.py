"""docs/python.md's pipeline, run as the page shows it."""
import re
import shutil
import subprocess
import sys

from conftest import ASSETS_DIR, SOURCE_DIR


def pipeline_script(tmp_path):
    text = (SOURCE_DIR / "docs" / "python.md").read_text()
    section = text[text.index("## A pipeline"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    script = tmp_path / "bake_folder.py"
    script.write_text(code)
    return script


def test_the_pipeline_bakes_a_folder_and_fails_past_the_bound(cli, tmp_path):
    folder = tmp_path / "characters"
    folder.mkdir()
    cli("sample", "-o", folder / "sample.glb")
    cesium = ASSETS_DIR / "CesiumMan" / "CesiumMan.glb"
    names = ["sample"]
    if cesium.exists():
        shutil.copy(cesium, folder)
        names.append("CesiumMan")
    script = pipeline_script(tmp_path)
    run = subprocess.run([sys.executable, script, folder, tmp_path / "out"], capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    for name in names:
        assert (tmp_path / "out" / f"{name}.throng").exists()
        assert (tmp_path / "out" / f"{name}.png").exists()
        assert f"{name}.glb LOD 1:" in run.stdout
    # A bound no coarse LOD meets, and a file that is not a character: exit 1, naming the
    # character and its LOD, and the broken file (reported, not a crash).
    strict = tmp_path / "strict"
    strict.mkdir()
    shutil.copy(folder / "sample.glb", strict)
    (strict / "broken.glb").write_bytes(b"not a glb")
    run = subprocess.run([sys.executable, script, strict, tmp_path / "strict-out", "0.0001"],
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert re.search(r"sample\.glb: LOD \d+ strays", run.stderr), run.stderr
    assert "broken.glb" in run.stderr
