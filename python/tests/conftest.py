"""Fixtures of the Python module's tests: the CLI to compare with, the shared assets, packages."""
import json
import os
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

import throng

SOURCE_DIR = Path(os.environ.get("THRONG_SOURCE_DIR", Path(__file__).resolve().parents[2]))
ASSETS_DIR = Path(os.environ.get("THRONG_ASSETS_DIR", SOURCE_DIR.parent / "shared" / "assets"))


def in_ci():
    """Whether this run is CI's: CI set to anything but "", "0" or "false" (as
    tests/support/require.h decides for the C++ tests)."""
    return os.environ.get("CI", "") not in ("", "0", "false")


def asset(relative):
    """A shared test character. When ../shared/assets does not have it: a failure in CI (a missing
    input is never a silent pass there), a skip elsewhere."""
    path = ASSETS_DIR / relative
    if not path.exists():
        if in_ci():
            pytest.fail(f"missing in CI: asset not present: {path}")
        pytest.skip(f"asset not present: {path}")
    return path


def gltf_json(path):
    """The JSON document of a .glb or .gltf file, read here without the library."""
    data = Path(path).read_bytes()
    if data[:4] != b"glTF":
        return json.loads(data)
    (length,) = struct.unpack_from("<I", data, 12)
    assert data[16:20] == b"JSON"
    return json.loads(data[20 : 20 + length])


class Cli:
    """The `throng` command line (THRONG_CLI, else `throng` on the PATH)."""

    def __init__(self, path):
        self.path = path

    def __call__(self, *args, check=True):
        result = subprocess.run([self.path, *map(str, args)], capture_output=True, text=True)
        if check and result.returncode != 0:
            raise AssertionError(f"throng {' '.join(map(str, args))}: {result.stderr}")
        return result

    def inspect_json(self, package_path):
        return json.loads(self("inspect", package_path, "--json").stdout)

    def pose_obj(self, path, out, *args):
        """`throng pose` written to `out`: its vertex positions as lists of floats."""
        self("pose", path, *args, "-o", out)
        return [list(map(float, line.split()[1:4]))
                for line in Path(out).read_text().splitlines() if line.startswith("v ")]


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("THRONG_CLI") or shutil.which("throng")
    if not path:
        pytest.fail("set THRONG_CLI to the throng command line (ctest does)")
    return Cli(path)


@pytest.fixture(scope="session")
def sample():
    """The built-in sample character (one object: its LOD chain is built once)."""
    return throng.sample()


@pytest.fixture(scope="session")
def sample_with_lods(sample, tmp_path_factory):
    """The built-in sample baked with its LOD chain, and where it was saved."""
    package = throng.bake(sample, lods=True)
    path = tmp_path_factory.mktemp("sample") / "sample.throng"
    package.save(path)
    return package, path


def read_png(path):
    """An 8-bit RGB or RGBA, non-interlaced PNG as an (H, W, channels) uint8 array, decoded here
    (zlib and the five PNG filters) rather than by the library that wrote it."""
    import zlib

    import numpy as np

    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, header = 8, b"", None
    while at < len(data):
        (length,) = struct.unpack_from(">I", data, at)
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    out = np.zeros((height, stride), dtype=np.int32)
    previous = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1).astype(np.int32)
        row = np.zeros(stride, dtype=np.int32)
        for x in range(stride):
            left = row[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 0:
                guess = 0
            elif kind == 1:
                guess = left
            elif kind == 2:
                guess = up
            elif kind == 3:
                guess = (left + up) // 2
            else:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                guess = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
            row[x] = (line[x] + guess) & 0xFF
        out[y] = previous = row
    return out.astype(np.uint8).reshape(height, width, channels)
