// The throng web page's glue: URL parameters, controls, mouse, file drop, and the page's state
// written into the DOM (document.title and data-* attributes on <body>) for people and checks.
"use strict";

(function () {
  const params = new URLSearchParams(window.location.search);
  const maxWebgl = params.get("webgl") === "1" ? 1 : 2;  // ?webgl=1 forces the WebGL 1 path
  const startAgents = Math.max(1, Math.min(50000, parseInt(params.get("agents") || "400", 10) || 400));
  const startPath = params.get("path") || "auto";  // auto, instanced, merged or per-character
  const startShadows = params.get("shadows");  // map, blob or off; else the page's default
  const startImpostors = params.get("impostors");  // on or off; else on
  const startPackage = params.get("package");  // a .throng (or .glb) URL shown instead of the sample

  const body = document.body;
  const canvas = document.getElementById("canvas");
  const stage = document.getElementById("stage");
  const agentsInput = document.getElementById("agents");
  const agentsValue = document.getElementById("agents-value");
  const pathSelect = document.getElementById("path");
  const shadowsSelect = document.getElementById("shadows");
  const impostorsInput = document.getElementById("impostors");
  const fileInput = document.getElementById("file");
  const statsLine = document.getElementById("stats");
  const message = document.getElementById("message");

  let started = false;

  function pageError(text) {
    body.dataset.state = "error";
    body.dataset.error = String(text);
    document.title = "throng: error";
    message.textContent = String(text);
  }
  window.addEventListener("error", (e) => pageError(e.message || "script error"));
  window.addEventListener("unhandledrejection", (e) => pageError(e.reason || "promise rejected"));

  function canvasPixels() {
    const ratio = window.devicePixelRatio || 1;
    return [Math.max(16, Math.round(stage.clientWidth * ratio)),
            Math.max(16, Math.round(stage.clientHeight * ratio))];
  }

  // Called by the WebAssembly side (web/main.cpp) with the page's facts.
  function report(s) {
    body.dataset.state = s.state;
    body.dataset.webgl = s.webgl;
    body.dataset.path = s.path;
    body.dataset.paths = s.paths;
    body.dataset.pathReason = s.pathReason;
    body.dataset.shadows = s.shadows;
    body.dataset.shadowReason = s.shadowReason;
    if (s.shadows) shadowsSelect.value = s.shadows;
    body.dataset.impostors = s.impostors;
    body.dataset.impostorAgents = s.impostorAgents;
    body.dataset.impostorReason = s.impostorReason;
    impostorsInput.checked = s.impostors;
    body.dataset.triangles = s.triangles;
    body.dataset.lods = s.lods;
    body.dataset.agents = s.agents;
    body.dataset.visible = s.visible;
    body.dataset.drawCalls = s.drawCalls;
    body.dataset.frames = s.frames;
    body.dataset.frameMs = s.frameMs;
    body.dataset.callbackMs = s.callbackMs;
    body.dataset.covered = s.covered;
    body.dataset.character = s.character;
    body.dataset.renderer = s.renderer;
    body.dataset.error = s.error;
    body.dataset.loadError = s.loadError;
    const cpu = s.cpuMs;
    body.dataset.cpuMs = JSON.stringify(cpu);
    document.title = `throng: ${s.state}, ${s.frames} frames, ${s.drawCalls} draw calls, ` +
                     `${s.path}, WebGL ${s.webgl === 2 ? "2" : "1"}`;
    statsLine.textContent =
        `WebGL ${s.webgl === 2 ? "2" : "1"} · ${s.path} path · ${s.agents} agents ` +
        `(${s.visible} visible, LODs ${s.lods}) · ${s.drawCalls} draw calls · ` +
        `${s.triangles.toLocaleString("en")} triangles · frame ${s.frameMs.toFixed(1)} ms ` +
        `(callback ${s.callbackMs.toFixed(1)} ms) · ${s.crowd}` +
        (s.clipNote ? ` · ${s.clipNote}` : "") +
        `\nCPU ms: update ${cpu.update.toFixed(2)}, playback ${cpu.playback.toFixed(2)}, ` +
        `cull ${cpu.cull.toFixed(2)}, LOD ${cpu.lod.toFixed(2)}, pack ${cpu.pack.toFixed(2)}, ` +
        `submit ${cpu.submit.toFixed(2)}\n${s.renderer} · auto: ${s.pathReason} · shadows: ${s.shadowReason}` +
        ` · impostors: ${s.impostorAgents} drawn (${s.impostorReason})`;
    message.textContent = s.error || s.loadError;
    const paths = s.paths.split(" ");
    for (const option of pathSelect.options) {
      option.disabled = option.value !== "auto" && !paths.includes(option.value);
    }
    if (pathSelect.value !== "auto" || !s.path) pathSelect.value = s.path;
  }

  // Files go into the in-memory file system (one folder per drop, so a .gltf finds its .bin).
  let dropCount = 0;
  async function loadFiles(files) {
    if (!started || files.length === 0) return;
    const folder = `/drop${++dropCount}`;
    Module.FS.mkdir(folder);
    let main = null;
    for (const file of files) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      Module.FS.writeFile(`${folder}/${file.name}`, bytes);
      if (/\.(glb|gltf|throng)$/i.test(file.name) && !main) main = file.name;
    }
    if (!main) {
      message.textContent = "drop a .glb, .gltf (with its files) or .throng file";
      return;
    }
    body.dataset.loading = main;
    message.textContent = `loading ${main}…`;
    // Let the message paint before the (synchronous) import and bake.
    await new Promise((resolve) => setTimeout(resolve, 30));
    Module.ccall("throng_load", "number", ["string"], [`${folder}/${main}`]);
    delete body.dataset.loading;
  }

  function wireControls() {
    pathSelect.value = startPath;
    agentsInput.value = startAgents;
    agentsValue.textContent = startAgents;
    agentsInput.addEventListener("input", () => {
      agentsValue.textContent = agentsInput.value;
      Module._throng_set_agents(parseInt(agentsInput.value, 10));
    });
    pathSelect.addEventListener("change",
        () => Module.ccall("throng_set_path", "number", ["string"], [pathSelect.value]));
    shadowsSelect.addEventListener("change",
        () => Module.ccall("throng_set_shadows", "number", ["string"], [shadowsSelect.value]));
    impostorsInput.addEventListener("change",
        () => Module._throng_set_impostors(impostorsInput.checked ? 1 : 0));
    fileInput.addEventListener("change", () => loadFiles(Array.from(fileInput.files)));

    let drag = null;
    canvas.addEventListener("pointerdown", (e) => {
      drag = { x: e.clientX, y: e.clientY };
      canvas.setPointerCapture(e.pointerId);
      canvas.classList.add("dragging");
    });
    canvas.addEventListener("pointermove", (e) => {
      if (!drag) return;
      Module._throng_orbit(e.clientX - drag.x, e.clientY - drag.y);
      drag = { x: e.clientX, y: e.clientY };
    });
    const endDrag = () => { drag = null; canvas.classList.remove("dragging"); };
    canvas.addEventListener("pointerup", endDrag);
    canvas.addEventListener("pointercancel", endDrag);
    canvas.addEventListener("wheel", (e) => {
      e.preventDefault();
      Module._throng_zoom(Math.exp(e.deltaY * 0.001));
    }, { passive: false });

    stage.addEventListener("dragover", (e) => { e.preventDefault(); stage.classList.add("drop-target"); });
    stage.addEventListener("dragleave", () => stage.classList.remove("drop-target"));
    stage.addEventListener("drop", (e) => {
      e.preventDefault();
      stage.classList.remove("drop-target");
      loadFiles(Array.from(e.dataTransfer.files));
    });

    let resizeTimer = 0;
    window.addEventListener("resize", () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => Module._throng_resize(...canvasPixels()), 200);
    });
  }

  window.Module = {
    canvas: canvas,
    throngReport: report,
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
    onAbort: (what) => pageError(`the WebAssembly module aborted: ${what}`),
    onRuntimeInitialized: async () => {
      wireControls();
      let file = "";
      if (startPackage) {
        const response = await fetch(startPackage);
        if (!response.ok) return pageError(`${startPackage}: HTTP ${response.status}`);
        file = "/start/" + startPackage.split("/").pop();
        Module.FS.mkdir("/start");
        Module.FS.writeFile(file, new Uint8Array(await response.arrayBuffer()));
      }
      started = true;
      const [width, height] = canvasPixels();
      Module.ccall("throng_start", "number", ["number", "number", "number", "number", "string", "string"],
                   [maxWebgl, width, height, startAgents, startPath, file]);
      if (startShadows) Module.ccall("throng_set_shadows", "number", ["string"], [startShadows]);
      if (startImpostors === "off") Module._throng_set_impostors(0);
    },
  };
})();
