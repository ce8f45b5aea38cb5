"""PEP 517 backend of `pip install --no-build-isolation .`: builds the throng module with CMake
from Debian's packages (nothing is downloaded) and packs it into a wheel.

The build folder is $THRONG_PYTHON_BUILD_DIR, else build-python/ in the source tree; an existing
build tree (e.g. the Release build) is reused as it is configured, and only its module target is
built. $THRONG_CMAKE_ARGS adds arguments to a new configuration (e.g. a compiler launcher).
"""
import base64
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(throng VERSION ([0-9.]+)", text).group(1)


def _tag():
    """cpXY-cpXY-platform: the module is built for this interpreter and machine only."""
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return f"{python}-{python}-{platform}"


def _metadata():
    major, minor = sys.version_info[:2]
    return (
        "Metadata-Version: 2.1\n"
        "Name: throng\n"
        f"Version: {_version()}\n"
        "Summary: throng's offline layer: import glTF characters, bake packages with LOD "
        "chains, pose meshes, preview animation textures\n"
        "License: MIT\n"
        f"Requires-Python: =={major}.{minor}.*\n"
        "Requires-Dist: numpy\n"
    )


def _build_module():
    build = Path(os.environ.get("THRONG_PYTHON_BUILD_DIR") or ROOT / "build-python")
    if not (build / "CMakeCache.txt").exists():
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        subprocess.run(
            ["cmake", "-S", str(ROOT), "-B", str(build), *generator,
             "-DCMAKE_BUILD_TYPE=Release", f"-DPython3_EXECUTABLE={sys.executable}",
             "-DTHRONG_BUILD_PYTHON=ON", "-DTHRONG_BUILD_TESTS=OFF", "-DTHRONG_BUILD_BENCH=OFF",
             "-DTHRONG_BUILD_CLI=OFF", "-DTHRONG_BUILD_VIEWER=OFF", "-DTHRONG_INSTALL=OFF",
             *shlex.split(os.environ.get("THRONG_CMAKE_ARGS", ""))],
            check=True)
    subprocess.run(["cmake", "--build", str(build), "--target", "throng_python", "--parallel",
                    str(os.cpu_count() or 1)], check=True)
    module = build / "python" / f"throng{sysconfig.get_config_var('EXT_SUFFIX')}"
    if not module.exists():
        raise RuntimeError(f"{module} was not built (was {build} configured for another Python?)")
    return module


def _dist_info():
    name = f"throng-{_version()}.dist-info"
    files = {f"{name}/METADATA": _metadata().encode(),
             f"{name}/WHEEL": (f"Wheel-Version: 1.0\nGenerator: throng build_backend\n"
                               f"Root-Is-Purelib: false\nTag: {_tag()}\n").encode(),
             f"{name}/top_level.txt": b"throng\n"}
    if (ROOT / "LICENSE").exists():
        files[f"{name}/LICENSE"] = (ROOT / "LICENSE").read_bytes()
    return name, files


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    name, files = _dist_info()
    for path, data in files.items():
        target = Path(metadata_directory) / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    module = _build_module()
    name, files = _dist_info()
    files = {module.name: module.read_bytes(), **files}
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{name}/RECORD,,")
    files[f"{name}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = f"throng-{_version()}-{_tag()}.whl"
    with zipfile.ZipFile(Path(wheel_directory) / wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files.items():
            archive.writestr(path, data)
    return wheel
