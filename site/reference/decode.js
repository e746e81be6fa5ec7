// The browser decoder's page script (decode.html): loads kafkagrid compiled to WebAssembly and
// the schemas of the picked release, as scripts (file:// pages may not fetch their own files),
// and hands the page's input and flags to kafkagrid.decode, which answers what
// "kafkagrid decode" prints and the report it writes. Nothing leaves the page.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var relSel = $("kg-release");
  var names = Array.prototype.map.call(relSel.options, function (o) { return o.value; });
  var waiting = {}; // script src -> [resolve, reject]
  var kg = window.kafkagrid = {
    names: names,
    releases: {}, // name -> Uint8Array of the release's JSON, once loaded
    timing: {},   // what the page measured: ms since the navigation started (performance.now)
    data: function (kind, name, b64) {
      var key = kind === "wasm" ? "wasm" : "release:" + name;
      gunzip(b64).then(function (bytes) {
        if (kind === "release") { kg.releases[name] = bytes; }
        else { kg.wasmBytes = bytes; }
        var w = waiting[key];
        if (w) { w[0](); }
      }, function (err) {
        var w = waiting[key];
        if (w) { w[1](err); }
      });
    },
  };
  var loads = {};
  // load loads a data script once; the promise resolves when its data are unpacked.
  function load(key, src) {
    if (!loads[key]) {
      loads[key] = new Promise(function (resolve, reject) {
        waiting[key] = [resolve, reject];
        var s = document.createElement("script");
        s.src = src;
        s.onerror = function () { reject(new Error("cannot load " + src)); };
        document.head.appendChild(s);
      });
    }
    return loads[key];
  }
  function loadRelease(name) { return load("release:" + name, "decode/release-" + encodeURIComponent(name) + ".js"); }
  function gunzip(b64) {
    var bin = atob(b64), n = bin.length, bytes = new Uint8Array(n);
    for (var i = 0; i < n; i++) { bytes[i] = bin.charCodeAt(i); }
    if (typeof DecompressionStream === "undefined") {
      return Promise.reject(new Error("this browser has no DecompressionStream (Chromium 80, Firefox 113, Safari 16.4 have it)"));
    }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).arrayBuffer().then(function (b) { return new Uint8Array(b); });
  }

  var status = $("kg-status"), go = $("kg-go"), errBox = $("kg-err");
  var file = null; // {name, bytes} of the file dropped or picked, until text is typed
  function setStatus(s) { status.textContent = s; }

  // The decoder: the WebAssembly and the picked release, loaded at once.
  var ready = new Promise(function (resolve) { kg.ready = resolve; });
  var started = load("wasm", "decode/kafkagrid.js").then(function () {
    kg.timing.wasmLoaded = performance.now();
    var g = new Go();
    return WebAssembly.instantiate(kg.wasmBytes, g.importObject).then(function (r) {
      kg.wasmBytes = null;
      g.run(r.instance);
      return ready;
    });
  }).then(function () { kg.timing.ready = performance.now(); });

  function pickFromHash() {
    var m = /(?:^#|&)release=([^&]+)/.exec(location.hash);
    if (m && names.indexOf(decodeURIComponent(m[1])) >= 0) { relSel.value = decodeURIComponent(m[1]); }
  }
  pickFromHash();
  window.addEventListener("hashchange", function () { pickFromHash(); changed(); });
  function fillAPIs() {
    var o = relSel.options[relSel.selectedIndex], dl = $("kg-apis");
    dl.textContent = "";
    (o.getAttribute("data-apis") || "").split(" ").forEach(function (n) {
      if (n) { var op = document.createElement("option"); op.value = n; dl.appendChild(op); }
    });
  }
  fillAPIs();

  function request() {
    var side = document.querySelector("input[name=kg-side]:checked").value;
    return {
      release: relSel.value, from: $("kg-from").value, api: $("kg-api").value.trim(),
      version: $("kg-version").value.trim(), request: side === "request", response: side === "response",
      noSize: $("kg-nosize").checked, body: $("kg-body").checked, port: $("kg-port").value.trim(),
      name: file ? file.name : "-",
    };
  }
  function quote(s) { return /^[\w.,:\/=+-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'"; }
  function commandLine(q) {
    // SCHEMAS: the folder the site was built from (a folder of releases, or one release's).
    var a = ["kafkagrid", "decode", "-schemas", "SCHEMAS"];
    if (names.length > 1) { a.push("-release", q.release); }
    if (q.from) { a.push("-from", q.from); }
    if (q.api) { a.push("-api", quote(q.api)); }
    if (q.version) { a.push("-version", quote(q.version)); }
    if (q.request) { a.push("-request"); }
    if (q.response) { a.push("-response"); }
    if (q.noSize) { a.push("-no-size"); }
    if (q.body) { a.push("-body"); }
    if (q.port && q.port !== "9092") { a.push("-port", quote(q.port)); }
    a.push(file ? quote(file.name) : "-");
    return a.join(" ");
  }
  function input() { return file ? file.bytes : new TextEncoder().encode($("kg-input").value); }
  function empty() { return !file && $("kg-input").value.trim() === ""; }

  var busy = false, again = false, asked = false;
  function decode() {
    asked = true;
    if (busy) { again = true; return; }
    var q = request();
    $("kg-cmd").textContent = commandLine(q);
    if (empty()) { show(null); setStatus("ready"); return; }
    if (kg.timing.firstInput === undefined) { kg.timing.firstInput = performance.now(); }
    busy = true;
    setStatus("decoding…");
    var t = performance.now();
    // Give the page a frame to say so: the decode runs on this thread.
    new Promise(function (r) { setTimeout(r, 0); }).then(function () {
      return started;
    }).then(function () {
      return loadRelease(q.release);
    }).then(function () {
      var res = JSON.parse(kg.decode(JSON.stringify(q), input()));
      if (!res.need) { return res; }
      // The bytes were looked for in the other releases: load them all, and ask again.
      return Promise.all(names.map(loadRelease)).then(function () {
        return JSON.parse(kg.decode(JSON.stringify(q), input()));
      });
    }).then(function (res) {
      var ms = Math.round(performance.now() - t);
      if (kg.timing.firstDecode === undefined) { kg.timing.firstDecode = performance.now(); }
      show(res);
      setStatus((res.status === 0 ? "decoded" : "exit status " + res.status) + " in " + ms + " ms");
      kg.results = (kg.results || 0) + 1;
    }, function (err) {
      show({ status: 1, stderr: "kafkagrid: " + err.message + "\n", text: "", json: "" });
      setStatus("failed");
      kg.results = (kg.results || 0) + 1;
    }).then(function () {
      busy = false;
      if (again) { again = false; decode(); }
    });
  }

  // The report panel shows one file of decode -o's report at a time (the iframe's data-file):
  // the one exchange's page when there is one, else the index; its links open the report's
  // other pages in the panel, and its frames' files (SVG, JSON, text) from memory.
  var blobs = {}, shown = null;
  function show(res) {
    Object.keys(blobs).forEach(function (k) { URL.revokeObjectURL(blobs[k]); });
    blobs = {};
    shown = res;
    if (!res) {
      errBox.hidden = true;
      $("kg-text").textContent = $("kg-json").textContent = "";
      openFile(null);
      return;
    }
    errBox.hidden = !res.stderr;
    errBox.textContent = res.stderr || "";
    $("kg-text").textContent = res.text || "";
    $("kg-json").textContent = (res.jsonNotes || "") + (res.json || "");
    var files = res.files || {}, pages = Object.keys(files).filter(function (f) { return /^exchanges\/[^\/]+\.html$/.test(f); });
    openFile(pages.length === 1 ? pages[0] : has(files, "index.html") ? "index.html" : null);
  }
  function has(o, k) { return !!o && Object.prototype.hasOwnProperty.call(o, k); }
  // inReport is the path in the report of href, a link of the report file from; null when
  // href leaves the report (another scheme, an absolute path, above the report's folder).
  function inReport(from, href) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.charAt(0) === "/") { return null; }
    var parts = from.split("/");
    parts.pop();
    var segs = href.split("/");
    for (var i = 0; i < segs.length; i++) {
      if (segs[i] === "..") { if (!parts.length) { return null; } parts.pop(); }
      else if (segs[i] !== "." && segs[i] !== "") { parts.push(decodeURIComponent(segs[i])); }
    }
    return parts.join("/");
  }
  function blobOf(path) {
    if (!blobs[path]) {
      var type = /\.svg$/.test(path) ? "image/svg+xml" : /\.json$/.test(path) ? "application/json" : /\.html$/.test(path) ? "text/html" : "text/plain";
      blobs[path] = URL.createObjectURL(new Blob([shown.files[path]], { type: type + ";charset=utf-8" }));
    }
    return blobs[path];
  }
  function openFile(path, hash) {
    var frame = $("kg-report"), where = $("kg-where");
    frame.setAttribute("data-file", path || "");
    frame.removeAttribute("data-loaded");
    where.textContent = "";
    if (!path) { frame.onload = null; frame.srcdoc = ""; frame.setAttribute("data-loaded", ""); return; }
    // In words: which page of the report this is (the same files kafkagrid decode -o writes).
    var ex = /^exchanges\/c(\d+)-(\d+)\.html$/.exec(path);
    where.appendChild(document.createTextNode(path === "index.html" ? "The report's index: every exchange, its client id and errors" :
      ex ? "Connection " + ex[1] + ", exchange " + ex[2] : "The report's " + path));
    if (path !== "index.html" && has(shown.files, "index.html")) {
      var up = document.createElement("a");
      up.href = "#";
      up.textContent = "every exchange";
      up.addEventListener("click", function (e) { e.preventDefault(); openFile("index.html"); });
      where.appendChild(document.createTextNode(" · "));
      where.appendChild(up);
    }
    frame.onload = function () { wire(frame, path, hash); };
    frame.srcdoc = shown.files[path];
  }
  function scrollToId(doc, id) {
    var el = id && doc.getElementById(decodeURIComponent(id));
    if (el) { el.scrollIntoView(); }
  }
  function wire(frame, path, hash) {
    var doc = frame.contentDocument, files = shown ? shown.files : null;
    if (!doc || !doc.documentElement || !files) { frame.setAttribute("data-loaded", path); return; }
    Array.prototype.forEach.call(doc.querySelectorAll("img[src]"), function (img) {
      var p = inReport(path, img.getAttribute("src"));
      if (p !== null && has(files, p)) { img.src = blobOf(p); }
    });
    Array.prototype.forEach.call(doc.querySelectorAll("a[href]"), function (a) {
      var href = a.getAttribute("href"), file = href.split("#")[0];
      if (href.charAt(0) === "#") { return; }
      var p = inReport(path, file);
      if (p !== null && has(files, p)) {
        if (!/\.html$/.test(p)) { a.href = blobOf(p); a.download = p.split("/").pop(); }
      } else {
        a.target = "_blank";
        a.rel = "noopener";
      }
    });
    // A srcdoc page's links resolve against this page's address: the report's own links are
    // followed here, in the panel, also when clicked with a modifier or the middle button
    // (a new tab would open this page's folder, where the report is not).
    function follow(e) {
      var a = e.target && e.target.closest ? e.target.closest("a[href]") : null;
      if (!a || e.defaultPrevented) { return; }
      var href = a.getAttribute("href"), i = href.indexOf("#");
      var file = i < 0 ? href : href.slice(0, i), frag = i < 0 ? "" : href.slice(i + 1);
      if (file === "") { e.preventDefault(); scrollToId(doc, frag); return; }
      var p = inReport(path, file);
      if (p !== null && /\.html$/.test(p) && has(files, p)) { e.preventDefault(); openFile(p, frag); }
    }
    doc.addEventListener("click", follow);
    doc.addEventListener("auxclick", function (e) { if (e.button === 1) { follow(e); } });
    fit();
    frame.setAttribute("data-loaded", path); // the file shown is wired (the page tests wait for it)
    if (hash) { scrollToId(doc, hash); } else if (frame.getBoundingClientRect().top < 0) { frame.scrollIntoView(); }
  }
  function fit() {
    var frame = $("kg-report"), doc = frame.contentDocument;
    if (doc && doc.documentElement) {
      frame.style.height = "";
      frame.style.height = doc.documentElement.scrollHeight + 16 + "px";
    }
  }
  window.addEventListener("resize", fit);

  // Tabs.
  ["report", "text", "json"].forEach(function (name) {
    $("kg-tab-" + name).addEventListener("click", function () {
      ["report", "text", "json"].forEach(function (n) {
        $("kg-tab-" + n).setAttribute("aria-selected", String(n === name));
        $("kg-panel-" + n).hidden = n !== name;
      });
      if (name === "report") { fit(); }
    });
  });

  // Input: typing or pasting text (which sets aside a file), dropping or picking a file.
  var timer = 0;
  function changed() {
    asked = true;
    clearTimeout(timer);
    timer = setTimeout(decode, 250);
  }
  $("kg-input").addEventListener("input", function (e) {
    setFile(null);
    if (e.inputType === "insertFromPaste" || e.inputType === "insertFromDrop") { clearTimeout(timer); decode(); } else { changed(); }
  });
  ["kg-from", "kg-api", "kg-version", "kg-nosize", "kg-body", "kg-port"].forEach(function (id) {
    $(id).addEventListener("change", changed);
  });
  relSel.addEventListener("change", function () { fillAPIs(); changed(); });
  Array.prototype.forEach.call(document.querySelectorAll("input[name=kg-side]"), function (r) { r.addEventListener("change", changed); });
  go.addEventListener("click", decode);
  function setFile(f) {
    file = f;
    $("kg-filename").textContent = f ? f.name + " (" + f.bytes.length + " bytes)" : "";
    if (!f) { $("kg-file").value = ""; }
  }
  function readFile(f) {
    if (!f) { return; }
    f.arrayBuffer().then(function (b) {
      $("kg-input").value = "";
      setFile({ name: f.name, bytes: new Uint8Array(b) });
      decode();
    }, function (err) { show({ status: 1, stderr: "kafkagrid: decode: " + f.name + ": " + err.message + "\n" }); });
  }
  $("kg-file").addEventListener("change", function (e) { readFile(e.target.files[0]); });
  var drop = $("kg-drop");
  ["dragenter", "dragover"].forEach(function (ev) {
    document.addEventListener(ev, function (e) { e.preventDefault(); drop.classList.add("over"); });
  });
  ["dragleave", "drop"].forEach(function (ev) {
    document.addEventListener(ev, function (e) { e.preventDefault(); drop.classList.remove("over"); });
  });
  document.addEventListener("drop", function (e) {
    if (e.dataTransfer && e.dataTransfer.files.length) { readFile(e.dataTransfer.files[0]); }
  });

  $("kg-cmd").textContent = commandLine(request());
  // The picked release is read as soon as the decoder runs, before the first input needs it.
  Promise.all([started, loadRelease(relSel.value)]).then(function () {
    setTimeout(function () {
      if (!busy && kg.prepare(relSel.value)) { kg.timing.prepared = performance.now(); }
    }, 0);
  }, function () {});
  started.then(function () {
    go.disabled = false;
    setStatus("ready (" + Math.round(kg.timing.ready) + " ms)");
    if (!asked && !empty()) { decode(); } // text the browser kept from an earlier visit
  }, function (err) {
    setStatus("the decoder did not load");
    show({ status: 1, stderr: "kafkagrid: the decoder did not load: " + err.message + "\n" });
  });
  loadRelease(relSel.value).catch(function () {});
})();
