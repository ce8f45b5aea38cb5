#!/usr/bin/env bash
# The Debian packages on a clean Debian 12, as a user installs them (as root):
#   scripts/package-check.sh [DEB_DIR]     (default build/packages, made by scripts/package.sh)
# Makes (or reuses) a minimal bookworm root the way ../shared/tools/fresh-machine-check does
# (debootstrap --variant=minbase into /var/tmp/fresh-debian-base, from the mirror of this
# machine's apt sources), works in a throw-away overlay of it, and there: installs the packages
# with `apt-get install ./*.deb` (and g++, cmake and make, which a user brings), builds examples/
# against /usr with find_package(throng) and with pkg-config and runs them, bakes with the CLI
# and imports the Python module. Everything it prints is also in
# /var/tmp/fresh-machine-logs/package-check-*.log. Exits non-zero when a step fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
debs=$(cd "${1:-$root/build/packages}" && pwd)
ls "$debs"/*.deb >/dev/null 2>&1 || { echo "package-check: no .deb in $debs (run scripts/package.sh)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "package-check: run as root (debootstrap, chroot, mount)" >&2; exit 2; }
for tool in debootstrap chroot mount flock; do
  command -v $tool >/dev/null || { echo "package-check: $tool is missing (apt-get install debootstrap)" >&2; exit 2; }
done

base=/var/tmp/fresh-debian-base
logs=/var/tmp/fresh-machine-logs
mkdir -p "$logs"
log=$logs/package-check-$(date +%Y%m%d-%H%M%S).log

# The base, shared with fresh-machine-check: complete (no debootstrap/ left) and untouched.
(
  flock 9
  if [ ! -x "$base/usr/bin/apt-get" ] || [ -e "$base/debootstrap" ]; then
    mirror=$(sed -n 's/^URIs: *//p; s/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) bookworm .*/\2/p' \
               /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null | head -n 1)
    [ -n "$mirror" ] || { echo "package-check: no bookworm mirror in the apt sources" >&2; exit 2; }
    echo "package-check: debootstrap --variant=minbase bookworm $base $mirror"
    rm -rf "$base.partial"
    debootstrap --variant=minbase bookworm "$base.partial" "$mirror" >"$logs/debootstrap.log" 2>&1
    rm -f "$base.partial/etc/resolv.conf"
    rm -rf "$base.partial"/var/cache/apt/archives/*.deb "$base.partial"/var/lib/apt/lists/*
    rm -rf "$base"
    mv "$base.partial" "$base"
  fi
) 9>"$base.lock"

work=$(mktemp -d /var/tmp/package-check.XXXXXX)
chroot_dir=$work/root
mounts=()
cleanup() {
  set +e
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}"
  done
  if ! grep -q " $work" /proc/mounts; then rm -rf --one-file-system "$work"; fi
}
trap cleanup EXIT
mnt() { mount "$@" && mounts+=("${!#}"); }
mkdir -p "$chroot_dir" "$work/upper" "$work/work"
mnt -t overlay overlay -o "lowerdir=$base,upperdir=$work/upper,workdir=$work/work" "$chroot_dir"
mnt -t proc proc "$chroot_dir/proc"
mnt -t sysfs -o ro sysfs "$chroot_dir/sys"
mnt --bind /dev "$chroot_dir/dev"
mnt --bind /dev/pts "$chroot_dir/dev/pts"
mnt -t tmpfs -o mode=1777 tmpfs "$chroot_dir/tmp"
# This machine's apt sources, their keyrings and proxy settings, and its name server.
rm -f "$chroot_dir/etc/apt/sources.list" "$chroot_dir"/etc/apt/sources.list.d/*
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] && cp -L "$f" "$chroot_dir$f"
done
for key in $(grep -ohE 'signed-by(=|: *)/[^] ]+' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null | sed 's|^[^/]*||' | sort -u); do
  [ -f "$key" ] && [ ! -e "$chroot_dir$key" ] && install -D -m 644 "$key" "$chroot_dir$key"
done
for f in /etc/apt/apt.conf.d/*; do
  [ -f "$f" ] && grep -qiE 'proxy' "$f" && cp -L "$f" "$chroot_dir$f"
done
cp -L /etc/resolv.conf "$chroot_dir/etc/resolv.conf" 2>/dev/null || true
mkdir -p "$chroot_dir/root/debs"
cp "$debs"/*.deb "$chroot_dir/root/debs/"
cp -r "$root/examples" "$chroot_dir/root/examples"

steps='
set -euo pipefail
cd /root
step() { echo; echo "### $*"; }
step apt-get install ./debs/*.deb g++ cmake make
apt-get update -qq
apt-get install -y -qq ./debs/*.deb g++ cmake make >/tmp/apt.log 2>&1 || { tail -n 30 /tmp/apt.log; exit 1; }
dpkg-query -W -f="\${Package} \${Version} \${Status}\n" libthrong-dev throng-tools python3-throng
step throng --version
throng --version
step cmake -S examples -B build-cmake "(find_package(throng) from /usr)"
cmake -S examples -B build-cmake -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-cmake 2>&1 | tail -n 3
step ./build-cmake/hello_crowd sample hello_crowd.png
./build-cmake/hello_crowd sample hello_crowd.png
step ./build-cmake/own_context
./build-cmake/own_context
step "g++ examples/hello_crowd.cpp \$(pkg-config --static --cflags --libs throng)"
pkg-config --static --cflags --libs throng
g++ -std=c++20 -O2 examples/hello_crowd.cpp -o hello_crowd_pkg_config $(pkg-config --static --cflags --libs throng)
./hello_crowd_pkg_config sample hello_crowd_pkg_config.png
step throng bake sample --lods -o sample.throng
throng bake sample --lods -o sample.throng | tail -n 12
step python3 -c "import throng ..."
python3 - <<PY
import throng
package = throng.load_package("sample.throng")
print("throng", throng.__version__, "from", throng.__file__)
for lod in package.lods:
    print(f"LOD {lod.lod}: {lod.triangles} triangles, {lod.joints} joints, max error {lod.max_error:.2%}")
print("posed", throng.pose(package, "walk", 0.5, lod=1).shape, "preview", package.preview().shape)
PY
step "throng-viewer --help | head -n 3"
throng-viewer --help | head -n 3
echo
echo "package-check: PASS"
'
echo "package-check: $(ls "$debs"/*.deb | xargs -n1 basename | tr '\n' ' ')in a clean bookworm root (log $log)"
chroot "$chroot_dir" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive bash -c "$steps" 2>&1 | tee "$log"
exit "${PIPESTATUS[0]}"
