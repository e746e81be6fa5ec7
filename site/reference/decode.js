// The browser decoder's page script (decode.html): loads the decoder (kafkagrid's decoding and
// drawing, compiled to WebAssembly) and the schemas of the picked release, as scripts (file://
// pages may not fetch their own files), and hands the page's input and controls to
// kafkagrid.decode, which answers with the text tree and the drawing of the first exchange.
// The JSON is made only when its tab is opened, the report (decode -o's pages) when the reader
// opens it, each of its pages only when it is shown. Nothing leaves the page.
//
// The page measures itself (performance.now, ms since the navigation started) in
// kafkagrid.timing, each moment also a performance mark "kafkagrid:NAME": wasmLoaded (its
// script run), compiled (the WebAssembly compiled as it was unpacked), ready (the decoder
// runs), prepared (the picked release read), firstInput, firstShown (the first decode on
// screen); and kafkagrid.last, the last decode: decodeMs (in the decoder) and shownMs (from
// the input to the next frame painted with it), each also a performance measure
// "kafkagrid:decode". The status line says them.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var relSel = $("kg-release");
  var names = Array.prototype.map.call(relSel.options, function (o) { return o.value; });
  var waiting = {}; // data key -> [resolve, reject]
  var kg = window.kafkagrid = {
    names: names,
    releases: {}, // name -> Uint8Array of the release's JSON, once loaded
    timing: {},
    last: null,
    data: function (kind, name, b64) {
      var key = kind === "wasm" ? "wasm" : "release:" + name;
      var w = waiting[key];
      if (!w) { return; }
      if (kind === "wasm") { w[0](fromBase64(b64)); return; } // compiled as it is unpacked (startWASM)
      gunzip(fromBase64(b64)).then(function (bytes) {
        kg.releases[name] = bytes;
        w[0]();
      }, w[1]);
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
  function fromBase64(b64) {
    if (Uint8Array.fromBase64) { return Uint8Array.fromBase64(b64); }
    var bin = atob(b64), n = bin.length, bytes = new Uint8Array(n);
    for (var i = 0; i < n; i++) { bytes[i] = bin.charCodeAt(i); }
    return bytes;
  }
  // unpacked is the gzipped bytes as a Response whose body is undone as it is read.
  function unpacked(bytes, type) {
    if (typeof DecompressionStream === "undefined") {
      throw new Error("this browser has no DecompressionStream (Chromium 80, Firefox 113, Safari 16.4 have it)");
    }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream, type ? { headers: { "Content-Type": type } } : undefined);
  }
  function gunzip(bytes) {
    try {
      return unpacked(bytes).arrayBuffer().then(function (b) { return new Uint8Array(b); });
    } catch (err) { return Promise.reject(err); }
  }
  // mark records a moment of the page's own timing: kafkagrid.timing[name] (ms since the
  // navigation started) and a performance mark "kafkagrid:NAME" (the browser's tools show it).
  function mark(name, at) {
    if (at === undefined) { at = performance.now(); }
    kg.timing[name] = at;
    if (performance.mark) { try { performance.mark("kafkagrid:" + name, { startTime: at }); } catch (e) { /* an old browser */ } }
  }
  function ms(t) { return Math.round(t) + " ms"; }

  var status = $("kg-status"), go = $("kg-go"), errBox = $("kg-err");
  var file = null; // {name, bytes} of the file dropped or picked, until text is typed
  function setStatus(s) { status.textContent = s; }

  // The decoder: the WebAssembly and the picked release, loaded at once.
  var ready = new Promise(function (resolve) { kg.ready = resolve; });
  var started = load("wasm", "decode/kafkagrid.js").then(function (gz) {
    mark("wasmLoaded");
    var g = new Go();
    return startWASM(gz, g.importObject).then(function (r) {
      mark("compiled");
      g.run(r.instance);
      return ready;
    });
  }).then(function () { mark("ready"); });
  // startWASM compiles the gzipped WebAssembly while it is unpacked (instantiateStreaming
  // of the unpacking stream), else once it is whole.
  function startWASM(gz, imports) {
    if (WebAssembly.instantiateStreaming) {
      return WebAssembly.instantiateStreaming(unpacked(gz, "application/wasm"), imports).catch(function () {
        return gunzip(gz).then(function (b) { return WebAssembly.instantiate(b, imports); });
      });
    }
    return gunzip(gz).then(function (b) { return WebAssembly.instantiate(b, imports); });
  }

  // The address may pick the release and carry the bytes: decode.html#release=4.0&bytes=HEX.
  function fromHash() {
    var rel = /(?:^#|&)release=([^&]+)/.exec(location.hash), hex = /(?:^#|&)bytes=([0-9a-fA-F]+)/.exec(location.hash);
    if (rel && names.indexOf(decodeURIComponent(rel[1])) >= 0) { relSel.value = decodeURIComponent(rel[1]); }
    if (hex) { $("kg-input").value = hex[1]; setFile(null); }
  }
  fromHash();
  window.addEventListener("hashchange", function () { fromHash(); fillAPIs(); decode(); });
  function fillAPIs() {
    var o = relSel.options[relSel.selectedIndex], dl = $("kg-apis");
    dl.textContent = "";
    (o.getAttribute("data-apis") || "").split(" ").forEach(function (n) {
      if (n) { var op = document.createElement("option"); op.value = n; dl.appendChild(op); }
    });
  }
  fillAPIs();

  // request is what the controls say, as decode's flags (the decoder's Request).
  function request() {
    var side = document.querySelector("input[name=kg-side]:checked").value, shape = $("kg-shape").value;
    return {
      release: relSel.value, from: $("kg-from").value, api: $("kg-api").value.trim(),
      version: $("kg-version").value.trim(), request: side === "request", response: side === "response",
      noSize: shape === "nosize", body: shape === "body", port: $("kg-port").value.trim(),
      name: file ? file.name : "-", narrow: narrow.matches,
    };
  }
  // On a phone's width the grids are drawn 16 bits a row; crossing it draws them again, when
  // the drawing is shown (else when it is next shown: a report open stays open).
  var narrow = window.matchMedia("(max-width: 640px)"), stale = false;
  narrow.addEventListener("change", function () {
    if (!shown || empty()) { return; }
    if (current === "draw" && view.hidden) { decode(); } else { stale = true; }
  });
  function quote(s) { return /^[\w.,:\/=+-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'"; }
  function commandLine(q) {
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

  // decode runs the decoder on the input; t0 is when the input came (the paste, the drop).
  var busy = false, again = false, asked = false, againAt = 0;
  function decode(t0) {
    if (t0 === undefined) { t0 = performance.now(); }
    asked = true;
    if (busy) { again = true; againAt = t0; return; }
    var q = request();
    $("kg-cmd").textContent = commandLine(q);
    if (empty()) { show(null); setStatus("ready"); return; }
    if (kg.timing.firstInput === undefined) { mark("firstInput", t0); }
    busy = true;
    var run = function () {
      var t = performance.now();
      var res = JSON.parse(kg.decode(JSON.stringify(q), input()));
      if (res.need) {
        // The bytes were looked for in the other releases: load them all, and ask again.
        setStatus("loading the other releases…");
        return Promise.all(names.map(loadRelease)).then(function () {
          t = performance.now();
          res = JSON.parse(kg.decode(JSON.stringify(q), input()));
          res.decodeMs = performance.now() - t;
          return res;
        });
      }
      res.decodeMs = performance.now() - t;
      return res;
    };
    var wait = Promise.all([started, loadRelease(q.release)]);
    var loaded = kg.decode && loads["release:" + q.release] && kg.releases[q.release];
    if (!loaded) { setStatus("loading the decoder…"); }
    // Once everything is loaded a decode answers on this turn: a paste is shown in its frame.
    (loaded ? new Promise(function (r) { r(run()); }) : wait.then(run)).then(function (res) {
      show(res);
      var shownAt = performance.now();
      requestAnimationFrame(function () {
        var painted = performance.now();
        kg.last = { decodeMs: res.decodeMs, shownMs: painted - t0, renderMs: shownAt - t0 };
        if (kg.timing.firstShown === undefined) { mark("firstShown", painted); }
        if (performance.measure) {
          try { performance.measure("kafkagrid:decode", { start: t0, end: painted }); } catch (e) { /* an old browser */ }
        }
        setStatus((res.status === 0 ? "Decoded" : "Stopped (exit status " + res.status + ")") + " in " + ms(res.decodeMs) +
          ", on screen " + ms(kg.last.shownMs) + " after the input" +
          (kg.results ? "" : "; the page opened " + ms(kg.timing.firstShown) + " ago"));
        kg.results = (kg.results || 0) + 1;
      });
    }, function (err) {
      show({ status: 1, stderr: "kafkagrid: " + err.message + "\n", text: "" });
      setStatus("failed");
      kg.results = (kg.results || 0) + 1;
    }).then(function () {
      busy = false;
      if (again) { again = false; decode(againAt); }
    });
  }

  // show puts a decode on the page: its error, what was decoded, the drawing of the first
  // exchange and the text tree. The JSON and the report wait for their tabs.
  var shown = null, jsonDone = false, reportFiles = null;
  function show(res) {
    shown = res;
    stale = false;
    jsonDone = false;
    reportFiles = null;
    closeReport();
    closeView();
    errBox.hidden = !res || !res.stderr;
    errBox.textContent = res && res.stderr || "";
    $("kg-out").hidden = !res || (!res.text && !(res.figures || []).length);
    $("kg-text").textContent = res && res.text || "";
    $("kg-json").textContent = "";
    drawFigures(res && res.figures || []);
    var sum = $("kg-summary");
    sum.textContent = res && res.summary || "";
    if (res && res.exchanges > 0) {
      var a = document.createElement("a");
      a.href = "#report";
      a.id = "kg-open-report";
      a.textContent = res.exchanges > 1 ? "Open the report of all " + res.exchanges + " exchanges" : "Open the report (hex dump, files)";
      a.addEventListener("click", function (e) { e.preventDefault(); openView(); });
      sum.appendChild(a);
    }
    if (current === "json") { fillJSON(); }
  }
  var blobs = [];
  function drawFigures(figs) {
    blobs.forEach(function (u) { URL.revokeObjectURL(u); });
    blobs = [];
    var panel = $("kg-panel-draw");
    panel.textContent = "";
    figs.forEach(function (f) {
      var fig = document.createElement("figure"), h = document.createElement("h3"), p = document.createElement("p");
      h.textContent = f.heading;
      p.textContent = f.meta;
      fig.appendChild(h);
      fig.appendChild(p);
      if (f.note) { var n = document.createElement("p"); n.textContent = f.note; fig.appendChild(n); }
      var pics = document.createElement("div");
      pics.className = "pics";
      // A phone scrolls the drawings sideways in this box: a keyboard reaches it too.
      pics.tabIndex = 0;
      pics.setAttribute("role", "region");
      pics.setAttribute("aria-label", "The drawings of the " + f.heading + ", scrolled sideways");
      [[f.grid, f.gridTitle, f.gridWidth], [f.tree, f.treeTitle, f.treeWidth]].forEach(function (d) {
        if (!d[0]) { return; }
        var url = URL.createObjectURL(new Blob([d[0]], { type: "image/svg+xml;charset=utf-8" }));
        blobs.push(url);
        var img = document.createElement("img");
        img.src = url;
        img.alt = d[1];
        if (d[2]) { img.width = d[2]; }
        pics.appendChild(img);
      });
      fig.appendChild(pics);
      panel.appendChild(fig);
    });
  }
  function fillJSON() {
    if (jsonDone || !shown || !kg.json) { return; }
    jsonDone = true;
    var j = JSON.parse(kg.json());
    $("kg-json").textContent = (j.jsonNotes || "") + (j.json || "");
  }

  // Tabs: the drawing, the text, the JSON (made when opened).
  var current = "draw";
  function tab(name) {
    current = name;
    ["draw", "text", "json"].forEach(function (n) {
      $("kg-tab-" + n).setAttribute("aria-selected", String(n === name));
      $("kg-panel-" + n).hidden = n !== name;
    });
    if (name === "json") { fillJSON(); }
    if (name === "draw" && stale) { stale = false; decode(); }
  }
  ["draw", "text", "json"].forEach(function (n) {
    $("kg-tab-" + n).addEventListener("click", function () { tab(n); });
  });

  // The report is a page of its own the reader opens ("Open the report"): it takes the
  // window (the decoder's page hidden, a bar above it to go back), and the browser's Back
  // goes back to the decode. Its files are decode -o's, listed when it is first opened for a
  // decode, each page written (kafkagrid.file) when it is shown; its links open its other
  // pages in its place, and its frames' files (SVG, JSON, text) from memory.
  var view = $("kg-reportview"), mainEl = document.querySelector("main.kg-dec"), pageTitle = document.title;
  function openView() {
    if (!shown || !kg.report) { return; }
    mainEl.hidden = true;
    view.hidden = false;
    if (!(history.state && history.state.kgReport)) { history.pushState({ kgReport: true }, ""); }
    openReport();
    $("kg-back").focus();
  }
  function closeView() {
    if (view.hidden) { return; }
    view.hidden = true;
    mainEl.hidden = false;
    document.title = pageTitle;
    var a = $("kg-open-report");
    if (a) { a.focus(); }
    if (current === "draw" && stale) { stale = false; decode(); }
  }
  $("kg-back").addEventListener("click", function (e) {
    e.preventDefault();
    if (history.state && history.state.kgReport) { history.back(); } else { closeView(); }
  });
  window.addEventListener("popstate", function () {
    if (!(history.state && history.state.kgReport)) { closeView(); }
  });
  var fileBlobs = {}, fileText = {};
  function closeReport() {
    Object.keys(fileBlobs).forEach(function (k) { URL.revokeObjectURL(fileBlobs[k]); });
    fileBlobs = {};
    fileText = {};
    var frame = $("kg-report");
    frame.onload = null;
    frame.removeAttribute("data-file");
    frame.removeAttribute("data-loaded");
    frame.srcdoc = "";
    $("kg-where").textContent = "";
  }
  function openReport() {
    if (!shown || !kg.report) { return; }
    if (!reportFiles) {
      var t = performance.now();
      var r = JSON.parse(kg.report());
      kg.last = kg.last || {};
      kg.last.reportMs = performance.now() - t;
      if (r.stderr) { errBox.hidden = false; errBox.textContent = r.stderr; }
      reportFiles = {};
      (r.files || []).forEach(function (f) { reportFiles[f] = true; });
      openFile(r.first || null);
    } else if (!$("kg-report").getAttribute("data-file")) {
      openFile(has(reportFiles, "index.html") ? "index.html" : null);
    }
  }
  function has(o, k) { return !!o && Object.prototype.hasOwnProperty.call(o, k); }
  function text(path) {
    if (!has(fileText, path)) { fileText[path] = kg.file(path); }
    return fileText[path];
  }
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
    if (!fileBlobs[path]) {
      var type = /\.svg$/.test(path) ? "image/svg+xml" : /\.json$/.test(path) ? "application/json" : /\.html$/.test(path) ? "text/html" : "text/plain";
      fileBlobs[path] = URL.createObjectURL(new Blob([text(path)], { type: type + ";charset=utf-8" }));
    }
    return fileBlobs[path];
  }
  function openFile(path, hash) {
    var frame = $("kg-report"), where = $("kg-where");
    frame.setAttribute("data-file", path || "");
    frame.removeAttribute("data-loaded");
    where.textContent = "";
    if (!path) { frame.onload = null; frame.srcdoc = ""; frame.setAttribute("data-loaded", ""); return; }
    var ex = /^exchanges\/c(\d+)-(\d+)\.html$/.exec(path);
    where.appendChild(document.createTextNode(path === "index.html" ? "The report's index: every exchange, its client id and errors" :
      ex ? "Connection " + ex[1] + ", exchange " + ex[2] : "The report's " + path));
    if (path !== "index.html" && has(reportFiles, "index.html")) {
      var up = document.createElement("a");
      up.href = "#";
      up.textContent = "every exchange";
      up.addEventListener("click", function (e) { e.preventDefault(); openFile("index.html"); });
      where.appendChild(document.createTextNode(" · "));
      where.appendChild(up);
    }
    frame.onload = function () { wire(frame, path, hash); };
    frame.srcdoc = text(path);
  }
  function scrollToId(doc, id) {
    var el = id && doc.getElementById(decodeURIComponent(id));
    if (el) { el.scrollIntoView(); }
  }
  function wire(frame, path, hash) {
    var doc = frame.contentDocument, files = reportFiles;
    if (!doc || !doc.documentElement || !files) { frame.setAttribute("data-loaded", path); return; }
    Array.prototype.forEach.call(doc.querySelectorAll("img[src]"), function (img) {
      var p = inReport(path, img.getAttribute("src"));
      if (p !== null && has(files, p)) { img.src = blobOf(p); }
    });
    Array.prototype.forEach.call(doc.querySelectorAll("a[href]"), function (a) {
      var href = a.getAttribute("href"), f = href.split("#")[0];
      if (href.charAt(0) === "#") { return; }
      var p = inReport(path, f);
      if (p !== null && has(files, p)) {
        if (!/\.html$/.test(p)) {
          // The file is written when its link is followed, not before.
          a.href = "#";
          a.download = p.split("/").pop();
          a.addEventListener("click", function () { a.href = blobOf(p); }, { once: true });
        }
      } else {
        a.target = "_blank";
        a.rel = "noopener";
      }
    });
    // A srcdoc page's links resolve against this page's address: the report's own links are
    // followed here, in the panel, also when clicked with a modifier or the middle button.
    function follow(e) {
      var a = e.target && e.target.closest ? e.target.closest("a[href]") : null;
      if (!a || e.defaultPrevented) { return; }
      var href = a.getAttribute("href"), i = href.indexOf("#");
      var f = i < 0 ? href : href.slice(0, i), frag = i < 0 ? "" : href.slice(i + 1);
      if (a.download) { return; }
      if (f === "") { e.preventDefault(); scrollToId(doc, frag); return; }
      var p = inReport(path, f);
      if (p !== null && /\.html$/.test(p) && has(files, p)) { e.preventDefault(); openFile(p, frag); }
    }
    doc.addEventListener("click", follow);
    doc.addEventListener("auxclick", function (e) { if (e.button === 1) { follow(e); } });
    if (!view.hidden && doc.title) { document.title = doc.title; }
    frame.setAttribute("data-loaded", path); // the file shown is wired (the page tests wait for it)
    if (hash) { scrollToId(doc, hash); }
  }

  // Input: typing or pasting text (which sets aside a file), dropping or picking a file.
  var timer = 0;
  function changed() {
    asked = true;
    clearTimeout(timer);
    timer = setTimeout(decode, 250);
  }
  $("kg-input").addEventListener("input", function (e) {
    setFile(null);
    if (e.inputType === "insertFromPaste" || e.inputType === "insertFromDrop") { clearTimeout(timer); decode(e.timeStamp); } else { changed(); }
  });
  ["kg-from", "kg-api", "kg-version", "kg-shape", "kg-port"].forEach(function (id) {
    $(id).addEventListener("change", function () { changed(); });
  });
  relSel.addEventListener("change", function () { fillAPIs(); changed(); });
  Array.prototype.forEach.call(document.querySelectorAll("input[name=kg-side]"), function (r) { r.addEventListener("change", function () { changed(); }); });
  go.addEventListener("click", function () { decode(); });
  function setFile(f) {
    file = f;
    $("kg-filename").textContent = f ? f.name + " (" + f.bytes.length + " bytes)" : "";
    if (!f) { $("kg-file").value = ""; }
  }
  function readFile(f) {
    if (!f) { return; }
    var t0 = performance.now();
    f.arrayBuffer().then(function (b) {
      $("kg-input").value = "";
      setFile({ name: f.name, bytes: new Uint8Array(b) });
      decode(t0);
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
  // The picked release is read as soon as the decoder runs, before the first input needs it;
  // an input already there (the address's bytes, text the browser kept) is decoded then.
  Promise.all([started, loadRelease(relSel.value)]).then(function () {
    if (!busy && kg.prepare(relSel.value)) { mark("prepared"); }
    go.disabled = false;
    if (!asked && !empty()) { decode(0); return; }
    if (!busy) { setStatus("Ready, " + ms(kg.timing.ready) + " after the page opened"); }
  }, function (err) {
    setStatus("the decoder did not load");
    show({ status: 1, stderr: "kafkagrid: the decoder did not load: " + err.message + "\n" });
  });
})();
